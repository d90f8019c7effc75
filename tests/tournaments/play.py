"""Tournaments at an injected clock, played by an in-process stand-in for the workers.

:func:`play_pending` claims each queued tournament match, plays it with the engine and built-in
policies, and records the result through ``flow.record_result`` with the on-commit callbacks
executed, as on the Celery path.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bots.builtin import get_policy
from engine.match import play_match
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.matches.models import Match
from ladder.matches.services import claim_match
from ladder.tournaments import selectors
from ladder.tournaments import services as ts
from ladder.tournaments.tournament_settings import TournamentSettings

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


START = NOW + timedelta(hours=2)


def new_tournament(organiser, **overrides):
    data: dict[str, Any] = {
        "name": "Winter cup",
        "game": "batavia",
        "num_players": 3,
        "format": "swiss",
        "starts_at": START,
        "registration_opens_at": NOW,
        "registration_closes_at": START - timedelta(minutes=30),
    }
    data.update(overrides)
    return ts.create_tournament(organiser, now=NOW, settings=TournamentSettings(**data))


def policy_for(match: Match, name_to_policy: dict[str, str] | None = None):
    seats = list(match.seats.select_related("bot_version__bot").order_by("seat"))
    names = name_to_policy or {}
    return seats, [
        get_policy(names.get(s.bot_version.bot.name, "random"), match.game) for s in seats
    ]


def play_one(
    match_id: int, name_to_policy: dict[str, str] | None = None, forfeit: set[str] | None = None
) -> None:
    match = Match.objects.get(pk=match_id)
    assert claim_match(match.pk, worker="test-worker")
    seats, policies = policy_for(match, name_to_policy)
    state, log = play_match(match.game, match.seed, policies, variant=match.variant)
    n = len(seats)
    forfeits = [
        ("timeout after 2.0 s" if forfeit and s.bot_version.bot.name in forfeit else None)
        for s in seats
    ]
    outcome = flow.record_result(
        match_id=match.pk,
        result=MatchResult(
            scores=tuple(state.scores()),
            ranking=tuple(state.ranking()),
            forfeits=tuple(forfeits),
            stderr=("",) * n,
            log=log,
        ),
    )
    assert outcome.recorded


def play_pending(
    capture, tournament=None, name_to_policy=None, forfeit=None, limit: int = 10_000
) -> int:
    """Play queued tournament matches until none wait; returns how many were played."""
    played = 0
    while played < limit:
        pending = selectors.pending_match_ids(tournament)
        if not pending:
            return played
        for match_id in pending:
            with capture(execute=True):
                play_one(match_id, name_to_policy, forfeit)
            played += 1
    return played
