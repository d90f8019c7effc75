"""A small site for the web tests, built through the services only: finished matches and
tournaments at each stage, and the secrets (a rejection reason, stderr, a forfeit) whose
visibility the page tests check.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.utils import timezone
from pytest_django.fixtures import DjangoCaptureOnCommitCallbacks

from ladder.accounts.models import User
from ladder.bots.models import Bot, BotVersion
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.matches.models import Match
from ladder.tournaments import services as tournament_services
from ladder.tournaments.models import Tournament
from ladder.tournaments.tournament_settings import TournamentSettings
from tests.factories import engine_json, make_match
from tests.tournaments.play import play_pending

REJECTION = "SECRET-REJECTION: ImportError: no module named numpyy"


ALICE_STDERR = "ALICE-STDERR: thinking hard about tea"


FORFEIT = "timeout after 2.0 s"


TABLES = {"batavia": 3, "east_indiaman": 3, "borneo": 3, "packet_row": 3}


@dataclass
class World:
    bots: dict[str, Bot]
    matches: dict[str, Match]
    queued: Match
    challenge: Match
    private_bot: Bot
    rejected: BotVersion


def finished_match(
    game: str,
    versions: list[BotVersion],
    *,
    seed: int,
    forfeit_seat: int | None = None,
    stderr_seat: int | None = None,
    kind: str = Match.Kind.LADDER,
    requested_by: User | None = None,
) -> Match:
    """A match played by the engine and recorded as the sandboxed runner would: decision
    times written, and optionally a seat's forfeit or alice's stderr."""
    match = make_match(game, versions, seed=seed, kind=kind, requested_by=requested_by)
    record = engine_json(match)
    for index, decision in enumerate(record["log"]["decisions"]):
        decision["ms"] = 1.5 + index % 7  # as the sandboxed runner writes them
        decision["by"] = "bot"
    if forfeit_seat is not None:
        record["forfeits"][forfeit_seat] = FORFEIT
    if stderr_seat is not None:
        record["stderr"][stderr_seat] = ALICE_STDERR
    outcome = flow.record_result(match_id=match.pk, result=MatchResult.from_json(record))
    assert outcome.recorded, outcome.message
    match.refresh_from_db()
    return match


def open_tournament(organiser: User, **overrides: object) -> Tournament:
    """A scheduled Batavia tournament whose registration is open now (real clock: the pages
    call the services without an injected time)."""
    now = timezone.now()
    data: dict[str, Any] = {
        "name": "Monsoon Open",
        "game": "batavia",
        "num_players": 3,
        "format": "round_robin",
        "registration_opens_at": now - timedelta(hours=1),
        "registration_closes_at": now + timedelta(hours=1),
        "starts_at": now + timedelta(hours=2),
    }
    data.update(overrides)
    return tournament_services.create_tournament(
        organiser, now=now, settings=TournamentSettings(**data)
    )


def started_tournament(organiser: User, bots: list[Bot], **overrides: object) -> Tournament:
    """Entered by each bot's owner and started by the tick at its start time."""
    t = open_tournament(organiser, **overrides)
    for bot in bots:
        tournament_services.register_entrant(t.pk, user=bot.owner, bot_id=bot.pk)
    report = tournament_services.tick(now=t.starts_at)
    assert t.pk in report.started, report
    t.refresh_from_db()
    return t


def finished_tournament(
    organiser: User, bots: list[Bot], capture: DjangoCaptureOnCommitCallbacks, **overrides: object
) -> Tournament:
    """A tournament played to the end in-process (see tests/tournaments/conftest.py)."""
    t = started_tournament(organiser, bots, **overrides)
    play_pending(capture, t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED, t.status_reason
    return t
