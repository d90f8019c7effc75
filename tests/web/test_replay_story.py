"""What makes a replay read like a game: sentences and changes in the frames, the progress
chart with its forfeit mark, and stderr tied to decisions for the bot's owner only."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from ladder.web.charts import progress_chart
from ladder.web.replay import build_replay, forfeit_steps
from ladder.web.stderr import stderr_by_step
from tests.web.replays import played

pytestmark = pytest.mark.django_db


def embedded(page, element_id: str):
    text = page.content.decode()
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', text)
    return json.loads(found.group(1)) if found else None


def test_frames_carry_a_sentence_and_the_changes():
    log = played("east_indiaman", 3)
    replay = build_replay(log, seat_names=["a", "b", "c"], forfeits=[None] * 3, reveal_private=True)
    decisions = replay.frames[1:]
    names = ["a", "b", "c"]
    assert all(
        f["decision"]["text"].startswith(f"{names[f['decision']['seat']]} ") for f in decisions
    )
    assert all(f["changes"] for f in decisions if f["decision"]["action"].startswith("buy:"))
    assert len(replay.progress) == len(replay.frames)
    assert replay.progress[-1] == [float(s) for s in log["result"]["scores"]]


def test_the_forfeit_mark_is_the_first_move_played_for_the_seat():
    log = {"decisions": [{"seat": 0, "by": "bot"}, {"seat": 1, "by": "bot"},
                         {"seat": 0, "by": "bot"}, {"seat": 1, "by": "fallback"}]}  # fmt: skip
    assert forfeit_steps(log, [None, "timeout: slow"]) == {1: 4}
    # A seat with no move played for it forfeited after its last decision: the last step.
    assert forfeit_steps(log, ["crash: gone", None]) == {0: 4}
    assert forfeit_steps(log, [None, None]) == {}


def test_stderr_splits_at_the_runners_step_marks():
    text = "loading\n\n[monsoon step 3]\nthinking\nchose bid\n[monsoon step 7]\nagain\n"
    assert stderr_by_step(text) == {0: ["loading"], 3: ["thinking", "chose bid"], 7: ["again"]}
    assert stderr_by_step("no marks at all\n") == {0: ["no marks at all"]}


def test_progress_chart_marks_the_forfeit_and_escapes_names():
    svg = progress_chart(
        [[0, 0], [1, 0], [3, 2]], seat_names=["<b>", "x"], forfeit_steps={1: 2}, label="gold"
    )
    assert svg.count('class="seat-line') == 2 and "<b>" not in svg
    assert 'class="forfeit-mark"' in svg and "seat 1 forfeits" in svg
    assert "forfeits at step 2 (seat 1)" in svg


def test_match_page_shows_the_chart_and_stderr_by_step_to_the_owner_only(site_world, web_clients):
    match = site_world.matches["batavia"]  # bob's seat 1 forfeited, alice owns seat 0
    seat = match.seats.get(seat=0)
    seat.stderr = "warming up\n[monsoon step 1]\nI bid low\n"
    seat.save(update_fields=["stderr"])
    url = reverse("web:match", args=[match.pk])
    owner = web_clients["owner"].get(url)
    assert embedded(owner, "replay-stderr-data") == {"0": {"0": ["warming up"], "1": ["I bid low"]}}
    assert b'id="replay-stderr"' in owner.content
    for persona in ("anonymous", "other"):
        page = web_clients[persona].get(url)
        assert embedded(page, "replay-stderr-data") is None
        assert b"I bid low" not in page.content
    assert b'class="forfeit-mark"' in owner.content
    data = embedded(owner, "replay-data")
    assert data["forfeit_steps"] == {"1": len(data["frames"]) - 1}
    first = data["frames"][1]["decision"]
    assert first["text"].startswith(data["seats"][first["seat"]] + " ")
    assert data["result"]["text"].startswith("Result: 1st ")
