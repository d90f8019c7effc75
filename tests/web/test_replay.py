"""The replay frames, the rating chart and the trend selector behind the pages."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from engine.core import GameState
from engine.registry import all_games, get_game
from engine.rng import Rng
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.ratings.models import RatingPoint
from ladder.ratings.selectors import trends
from ladder.web.charts import ChartPoint, rating_chart
from ladder.web.replay import Replay, build_replay
from tests.factories import engine_json, ladder_for, make_match
from tests.web.replays import TABLES, played, rebuild
from tests.web.site import finished_match


def test_the_tables_cover_every_registered_game():
    assert {game for game, _ in TABLES} == set(all_games())


@pytest.mark.parametrize("game, n", TABLES)
def test_frames_rebuild_every_public_view_and_hand(game, n):
    log = played(game, n)
    replay = build_replay(
        log, seat_names=[f"s{i}" for i in range(n)], forfeits=[None] * n, reveal_private=True
    )
    assert replay.error == ""
    tables = rebuild(json.loads(json.dumps(replay.as_data()))["frames"])
    state = get_game(game).new_state(log["seed"], n, log["variant"])
    for index, table in enumerate(tables):
        assert table["public"] == state.public_view(), f"step {index}"
        for seat in range(n):
            observation = state.observation(seat)
            assert {**table["public"], **table["private"][seat], "seat": seat} == observation
        if index < len(log["decisions"]):
            state.apply(log["decisions"][index]["action"])
    assert [f["decision"]["action"] for f in replay.frames[1:]] == [
        d["action"] for d in log["decisions"]
    ]


def private_parts(state: GameState) -> list[dict[str, Any]]:
    """What each seat's observation adds to the spectators' view (its hidden cards)."""
    public = state.public_view()
    return [
        {k: v for k, v in state.observation(seat).items() if k != "seat" and public.get(k) != v}
        for seat in range(state.num_players)
    ]


@pytest.mark.parametrize("game, n", TABLES)
def test_without_reveal_no_hidden_information_leaves_the_server(game, n):
    """Before a match is published its replay holds the spectators' view and nothing else, and
    that view (like each seat's own observation) carries nothing the seat may not know: redraw
    everything hidden from a seat (``determinize``) and neither changes. Checked at every step
    of a whole game, for every registered game and player count."""
    log = played(game, n)
    replay = build_replay(log, seat_names=["x"] * n, forfeits=[None] * n, reveal_private=False)
    assert replay.error == ""
    data = json.loads(json.dumps(replay.as_data()))
    assert '"seed"' not in json.dumps(data)  # the seed decides every hidden card
    state = get_game(game).new_state(log["seed"], n, log["variant"])
    sampler = Rng(2026)
    hidden_steps = redrawn = 0
    for index, table in enumerate(rebuild(data["frames"])):
        assert table == {"public": state.public_view(), "private": None}, f"step {index}"
        hidden_steps += any(private_parts(state))
        for seat in range(n):
            twin = state.determinize(seat, sampler)
            assert twin.public_view() == table["public"], f"step {index}, seat {seat}"
            assert twin.observation(seat) == state.observation(seat), f"step {index}, seat {seat}"
            other = (seat + 1) % n
            redrawn += twin.observation(other) != state.observation(other)
        if index < len(log["decisions"]):
            state.apply(log["decisions"][index]["action"])
    if hidden_steps:
        # The check can fail: this game hides cards, and the redraws really changed them.
        assert redrawn > 0
        revealed = build_replay(log, seat_names=["x"] * n, forfeits=[None] * n, reveal_private=True)
        assert revealed.frames[0]["table"]["private"] == private_parts(
            get_game(game).new_state(log["seed"], n, log["variant"])
        )


def test_a_log_that_does_not_replay_says_why():
    log = played("borneo", 3)
    log["result"]["scores"][0] += 1
    replay = build_replay(log, seat_names=["x"] * 3, forfeits=[None] * 3, reveal_private=True)
    assert replay.frames == [] and "does not reproduce" in replay.error
    broken = build_replay({"format": "nope"}, seat_names=[], forfeits=[], reveal_private=True)
    assert "not a Monsoon game log" in broken.error


def test_catalogues_name_the_bare_card_ids():
    ei = build_replay(
        played("east_indiaman", 2), seat_names=["a", "b"], forfeits=[None] * 2, reveal_private=True
    )
    assert len(ei.catalogue["orders"]) == 36 and ei.catalogue["orders"][1]["icons"] == ["cannon"]
    borneo = build_replay(
        played("borneo", 3), seat_names=["a"] * 3, forfeits=[None] * 3, reveal_private=True
    )
    assert borneo.catalogue["cards"]["1"] == {
        "top": ["yellow"] * 3,
        "bottom": "red",
        "spice": "pepper",
        "count": 1,
    }


@pytest.mark.django_db
def test_match_page_reports_a_log_that_does_not_replay(site_world, web_clients, alice, bob, olivia):
    versions = [seat.bot_version for seat in site_world.matches["borneo"].seats.all()]
    match = make_match("borneo", versions, seed=77)
    record = engine_json(match)
    record["log"]["result"]["digest"] = "0" * 64
    flow.record_result(match_id=match.pk, result=MatchResult.from_json(record))
    page = web_clients["anonymous"].get(reverse("web:match", args=[match.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "does not replay" in html and "replay-data" not in html


def test_chart_escapes_labels_and_draws_a_lone_point_as_a_bar():
    svg = rating_chart([ChartPoint(1500, 1300, 1700, "<script>x</script>")], title="a&b")
    assert "<script>" not in svg and "&lt;script&gt;" in svg and "a&amp;b" in svg
    assert 'class="whisker"' in svg
    many = rating_chart(
        [ChartPoint(1500 + i, 1400, 1600 + i, f"p{i}") for i in range(5)], title="t"
    )
    assert many.count('<circle class="dot"') == 5 and 'class="whisker"' not in many
    assert rating_chart([], title="t") == ""
    versions = rating_chart(
        [ChartPoint(1500, 1400, 1600, "a", version=v) for v in (1, 1, 2, 2, 3)], title="t"
    )
    assert versions.count('class="version"') == 2 and ">v2</text>" in versions


@pytest.mark.django_db
def test_trend_is_the_change_over_the_last_five_points(site_world):
    versions = [seat.bot_version for seat in site_world.matches["batavia"].seats.all()]
    for seed in range(20, 27):
        finished_match("batavia", versions, seed=seed)
    ladder = ladder_for("batavia", 3)
    got = trends(ladder, [v.pk for v in versions])
    for version in versions:
        points = list(
            RatingPoint.objects.filter(ladder=ladder, bot_version=version)
            .order_by("-id")
            .values_list("rating", flat=True)
        )
        assert len(points) == 8
        assert got[version.pk] == pytest.approx(points[0] - points[5])
    fresh = trends(ladder, [versions[0].pk], window=50)  # fewer points: from the first one
    points = list(
        RatingPoint.objects.filter(ladder=ladder, bot_version=versions[0])
        .order_by("id")
        .values_list("rating", flat=True)
    )
    assert fresh[versions[0].pk] == pytest.approx(points[-1] - points[0])


@pytest.mark.django_db
def test_frames_of_a_finished_match_are_built_once(site_world, web_clients, monkeypatch):
    from django.core.cache import cache

    from ladder.web.views import matches as views

    cache.clear()
    calls: list[int] = []
    real = views.build_replay

    def counted(
        log: dict[str, Any],
        *,
        seat_names: list[str],
        forfeits: list[str | None],
        reveal_private: bool,
    ) -> Replay:
        calls.append(1)
        return real(log, seat_names=seat_names, forfeits=forfeits, reveal_private=reveal_private)

    monkeypatch.setattr(views, "build_replay", counted)
    url = reverse("web:match", args=[site_world.matches["east_indiaman"].pk])
    first = web_clients["anonymous"].get(url).content
    second = web_clients["staff"].get(url).content
    assert len(calls) == 1
    assert b"replay-data" in first and b"replay-data" in second


def test_seat_times_sum_each_seats_decisions():
    from ladder.web.replay import seat_times

    log = {
        "decisions": [
            {"seat": 0, "action": "a", "ms": 2.0, "by": "bot"},
            {"seat": 1, "action": "b", "ms": 5.5, "by": "bot"},
            {"seat": 0, "action": "c", "ms": 7.0, "by": "fallback"},
            {"seat": 1, "action": "d"},  # a runner that wrote no time
            {"seat": 9, "action": "e", "ms": 1.0},  # no such seat: ignored, never a crash
        ]
    }
    zero, one = seat_times(log, ["a", "b"])
    assert (zero.decisions, zero.total_ms, zero.max_ms, zero.timed, zero.not_by_bot) == (
        2,
        9.0,
        7.0,
        2,
        1,
    )
    assert (one.decisions, one.total_ms, one.timed, one.not_by_bot) == (2, 5.5, 1, 0)


@pytest.mark.django_db
def test_match_page_shows_time_per_seat(site_world, web_clients):
    html = (
        web_clients["anonymous"]
        .get(reverse("web:match", args=[site_world.matches["east_indiaman"].pk]))
        .content.decode()
    )
    table = html.split('class="seat-times"')[1].split("</table>")[0]
    assert "Decisions and thinking time per seat" in table
    assert table.count("<tr>") == 1 + 3 and " ms</td>" in table


@pytest.mark.django_db
def test_trend_fallback_without_lateral_agrees(site_world, monkeypatch):
    """SQLite (development) takes the window-function path; it must give the same trends."""
    from django.db import connection

    versions = [seat.bot_version for seat in site_world.matches["batavia"].seats.all()]
    for seed in range(40, 47):
        finished_match("batavia", versions, seed=seed)
    ladder = ladder_for("batavia", 3)
    ids = [v.pk for v in versions]
    lateral = trends(ladder, ids)
    monkeypatch.setattr(connection, "vendor", "sqlite")
    assert trends(ladder, ids) == pytest.approx(lateral)
    assert trends(ladder, []) == {}
