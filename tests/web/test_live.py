"""Live matches: a match being played is followed on its page and through the API.

Personas: alice and bob own the bots at the table; a spectator (anonymous) watches; olivia
organises a tournament whose running match she follows. The worker's side (publishing while
the runner plays) is in ``tests/workers/test_live.py``; here its publishes are made directly
through the same service.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import reverse

from engine.registry import get_game
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.matches import services as match_services
from ladder.matches.models import Match
from ladder.web.replay import build_live_replay
from tests.factories import (
    api_client,
    engine_json,
    make_active_version,
    make_bot,
    make_match,
)
from tests.web.replays import TABLES, WORKER, played, rebuild, running_match


def viewer_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html)
    assert found, "the page has no viewer data"
    return json.loads(found.group(1))


@pytest.mark.parametrize("game, n", TABLES)
def test_live_frames_are_the_public_views_and_nothing_hidden(game, n):
    """Half a game as a worker would publish it: each frame is the spectators' view at that
    step (every game, every player count), no seat's hand, and no seed."""
    log = played(game, n)
    half = log["decisions"][: len(log["decisions"]) // 2]
    header = {k: v for k, v in log.items() if k not in ("decisions", "result")}
    replay = build_live_replay(header, half, seat_names=["x"] * n)
    assert replay.error == ""
    data = json.loads(json.dumps(replay.as_data()))
    assert '"seed"' not in json.dumps(data) and data["reveal_private"] is False
    tables = rebuild(data["frames"])
    assert len(tables) == len(half) + 1
    state = get_game(game).new_state(log["seed"], n, log["variant"])
    for index, table in enumerate(tables):
        assert table == {"public": state.public_view(), "private": None}, f"step {index}"
        if index < len(half):
            state.apply(half[index]["action"])


def test_published_moves_that_do_not_replay_say_so():
    log = played("borneo", 3)
    header = {k: v for k, v in log.items() if k not in ("decisions", "result")}
    bad = [{"seat": 0, "action": "no-such-action"}]
    replay = build_live_replay(header, bad, seat_names=["x"] * 3)
    assert "do not replay" in replay.error


def test_the_match_page_follows_a_running_match(alice, bob, olivia, web_clients):
    live = running_match([alice, bob, olivia])
    live.publish(10)
    page = web_clients["anonymous"].get(reverse("web:match", args=[live.match.pk]))
    html = page.content.decode()
    assert "Live" in html and "hidden cards stay hidden" in html
    assert f"seed {live.match.seed}" not in html and "Download the game log" not in html
    data = viewer_data(html)
    assert len(data["frames"]) == 11 and data["reveal_private"] is False
    url = data["live"]["url"]
    assert url == reverse("web:match-live", args=[live.match.pk])

    # Nothing new yet, then the next moves as frames after the viewer's last one.
    first = web_clients["anonymous"].get(url, {"since": 10, "run": data["live"]["run"]}).json()
    assert (first["total"], first["frames"], first["over"]) == (10, [], False)
    live.publish(25)
    update = web_clients["anonymous"].get(url, {"since": 10, "run": data["live"]["run"]}).json()
    assert update["total"] == 25 and len(update["frames"]) == 15
    assert [f["decision"]["action"] for f in update["frames"]] == [
        d["action"] for d in live.log["decisions"][10:25]
    ]
    assert all(f["decision"]["text"] for f in update["frames"])  # narrated as on replays
    assert update["restart"] is False and "seed" not in json.dumps(update)

    # The match ends: the viewer is told to load the whole replay.
    record = engine_json(live.match)
    record["log"] = live.log
    flow.record_result(match_id=live.match.pk, result=MatchResult.from_json(record))
    over = web_clients["anonymous"].get(url, {"since": 25}).json()
    assert over["over"] is True and over["status"] == "finished"
    page = web_clients["anonymous"].get(reverse("web:match", args=[live.match.pk]))
    assert "Replay" in page.content.decode() and "live" not in viewer_data(page.content.decode())


def test_the_home_page_lists_running_matches_to_watch(alice, bob, olivia, web_clients):
    live = running_match([alice, bob, olivia])
    link = reverse("web:match", args=[live.match.pk])
    html = web_clients["anonymous"].get("/").content.decode()
    section = html.split('id="running-matches"', 1)[1].split("</section>", 1)[0]
    assert f'href="{link}"' in section and "watch live" in section
    # Once it is over it leaves the list (and shows among the latest finished matches).
    record = engine_json(live.match)
    record["log"] = live.log
    flow.record_result(match_id=live.match.pk, result=MatchResult.from_json(record))
    html = web_clients["anonymous"].get("/").content.decode()
    section = html.split('id="running-matches"', 1)[1].split("</section>", 1)[0]
    assert link not in section and "No match is being played right now." in section


def test_a_restarted_match_or_a_bad_step_is_answered_not_guessed(alice, bob, olivia, web_clients):
    live = running_match([alice, bob, olivia])
    live.publish(12)
    url = reverse("web:match-live", args=[live.match.pk])
    anonymous = web_clients["anonymous"]
    assert anonymous.get(url, {"since": "abc"}).status_code == 400
    assert anonymous.get(url, {"since": "-1"}).status_code == 400
    assert "whole number" in anonymous.get(url, {"since": "9" * 20}).json()["detail"]
    run = anonymous.get(url).json()["run"]
    # The worker died: the match is played again from the start, under another run.
    flow.record_failure(match_id=live.match.pk, reason="worker lost")
    assert match_services.claim_match(live.match.pk, worker=WORKER)
    live.publish(3)
    again = anonymous.get(url, {"since": 12, "run": run}).json()
    assert again["restart"] is True and again["run"] != run and again["total"] == 3


def test_a_queued_match_waits_for_its_worker_on_the_page(alice, bob, olivia, web_clients):
    versions = [
        make_active_version(make_bot(owner, f"{owner.username}-q", "borneo"))
        for owner in (alice, bob, olivia)
    ]
    match = make_match("borneo", versions, seed=3)
    html = web_clients["anonymous"].get(reverse("web:match", args=[match.pk])).content.decode()
    assert "waiting for a worker" in html
    assert len(viewer_data(html)["frames"]) == 1  # the table before the first move


def test_a_private_match_is_not_watchable_by_others(alice, bob, web_clients):
    secret = make_active_version(make_bot(alice, "alice-secret", "borneo", public=False))
    others = [make_active_version(make_bot(alice, f"alice-open-{i}", "borneo")) for i in (1, 2)]
    match = match_services.create_challenge(alice, [secret.bot_id, *(v.bot_id for v in others)])
    url = reverse("web:match-live", args=[match.pk])
    assert web_clients["other"].get(url).status_code == 404
    assert web_clients["owner"].get(url).status_code == 200


def test_the_api_serves_the_moves_since_a_step(alice, bob, olivia):
    live = running_match([alice, bob, olivia])
    live.publish(8, forfeits=[None, "timeout: decision 3 took 2.1 s", None])
    url = reverse("match-live", args=[live.match.pk])
    body = api_client().get(url, {"since": 5}).json()
    assert body["status"] == "running" and body["total"] == 8 and body["since"] == 5
    assert [d["action"] for d in body["decisions"]] == [
        d["action"] for d in live.log["decisions"][5:8]
    ]
    assert body["forfeits"][1].startswith("timeout") and body["log"] == ""
    assert "seed" not in json.dumps(body)
    refused = api_client().get(url, {"since": -2})
    assert refused.status_code == 400 and "since" in refused.json()
    record = engine_json(live.match)
    record["log"] = live.log
    flow.record_result(match_id=live.match.pk, result=MatchResult.from_json(record))
    over = api_client().get(url).json()
    assert over["status"] == "finished" and over["decisions"] == []
    assert over["log"] == reverse("match-log", args=[live.match.pk])


def test_a_running_tournament_links_its_running_matches_to_watch(olivia, alice, bob, web_clients):
    from tests.web.site import started_tournament

    bots = [
        make_bot(owner, f"{owner.username}-t{i}", "borneo")
        for i, owner in enumerate([alice, bob, olivia, alice])
    ]
    for bot in bots:
        make_active_version(bot)
    tournament = started_tournament(olivia, bots, game="borneo")
    match = Match.objects.filter(tournament_match__tournament=tournament).first()
    assert match is not None
    assert match_services.claim_match(match.pk, worker=WORKER)
    html = (
        web_clients["anonymous"]
        .get(reverse("web:tournament", args=[tournament.pk]))
        .content.decode()
    )
    watch = reverse("web:match", args=[match.pk]) + "#replay-heading"
    assert f'href="{watch}">watch live</a>' in html
