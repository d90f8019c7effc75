"""Whole tournaments played in-process: registration, the start, rounds, standings, API."""

from __future__ import annotations

from datetime import timedelta

import pytest

from ladder.matches.models import Match
from ladder.tournaments import selectors
from ladder.tournaments import services as ts
from ladder.tournaments.models import Tournament
from tests.factories import api_client as client_for
from tests.tournaments.play import START, new_tournament, play_one, play_pending

GREEDY = {"bot-0": "greedy", "bot-1": "greedy"}


def register_all(t, bots, when):
    for bot in bots:
        ts.register_entrant(t.pk, user=bot.owner, bot_id=bot.pk, now=when)


@pytest.mark.parametrize(
    "fmt,extra",
    [
        ("swiss", {"rounds": 3}),
        ("round_robin", {}),
        ("elimination", {"advance": 1}),
        ("swiss", {"rounds": 2, "duplicate": True}),
    ],
)
def test_a_whole_tournament(olivia, field, fmt, extra, django_capture_on_commit_callbacks):
    t = new_tournament(olivia, format=fmt, **extra)
    register_all(t, field, START - timedelta(hours=1))
    report = ts.tick(now=START)
    assert report.started == [t.pk]
    played = play_pending(django_capture_on_commit_callbacks, t, GREEDY)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED, t.status_reason
    assert played == t.planned_matches
    assert t.current_round == t.planned_rounds
    progress = selectors.progress(t)
    assert progress["matches_done"] == progress["matches_total"] == played
    assert all(
        m.kind == Match.Kind.TOURNAMENT and not m.ranked and not m.rated
        for m in Match.objects.filter(tournament_match__tournament=t)
    )
    table = t.final_standings
    assert [row["rank"] for row in table] == list(range(1, 8))
    assert abs(sum(row["p_first"] for row in table) - 1) < 1e-6
    for row in table:
        assert row["rank_low"] <= row["rank"] <= row["rank_high"] or fmt == "elimination"
    # The API serves the snapshot; a later tick changes nothing.
    api = client_for(None).get(f"/api/v1/tournaments/{t.pk}/standings/").json()
    assert api == table
    assert ts.tick(now=START + timedelta(days=1)).advanced == []
    t.refresh_from_db()
    assert t.final_standings == table


def test_live_standings_follow_every_recorded_match(
    olivia, field, settings, django_capture_on_commit_callbacks
):
    """Running standings are cached between results, never past one."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "live-standings",
        }
    }
    t = new_tournament(olivia, format="swiss", rounds=2)
    register_all(t, field, START - timedelta(hours=1))
    ts.tick(now=START)
    pending = selectors.pending_match_ids(t)
    assert len(pending) >= 2

    def games_played() -> int:
        t.refresh_from_db()
        return sum(row["games"] for row in selectors.standings(t, olivia))

    assert games_played() == 0
    with django_capture_on_commit_callbacks(execute=True):
        play_one(pending[0])
    assert games_played() == 3  # one 3-player table
    with django_capture_on_commit_callbacks(execute=True):
        play_one(pending[1])
    assert games_played() == 6
