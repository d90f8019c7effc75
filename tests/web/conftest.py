"""A small site for the web tests, on the suite's personas (tests/conftest.py).

Personas: alice owns bots (the owner), bob is her rival (the "other user"), olivia an organiser
with bots of her own, sam staff, and anonymous visitors; ``personas`` holds their logged-in
browser clients by role.

``site_world`` builds, through the services only: one public bot per persona and game, alice's
private bot, a rejected upload of alice's with a reason only she (and staff) may read, one
finished ranked match per game (with decision times, alice's stderr and, at Batavia, bob's
forfeit), a queued match, and a finished challenge of alice's private bot.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from pytest_django.fixtures import DjangoCaptureOnCommitCallbacks

from ladder.accounts.models import User
from ladder.bots.models import Bot, BotVersion
from ladder.ladders.services import sync_ladders
from ladder.matches import services as match_services
from ladder.matches.models import Match
from ladder.tournaments import services as tournament_services
from ladder.tournaments.models import Tournament
from ladder.tournaments.tournament_settings import TournamentSettings
from tests.factories import engine_result, make_bot, make_match, make_version
from tests.tournaments.conftest import play_pending

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


@pytest.fixture(autouse=True)
def _media(isolated_media: Path) -> None:
    """Every web test's uploads go to its own folder."""


@pytest.fixture
def personas(web_clients: dict[str, Client]) -> dict[str, Client]:
    """Browser clients by role: anonymous, owner (alice), other (bob), organiser, staff."""
    return web_clients


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
    record = engine_result(match)
    for index, decision in enumerate(record["log"]["decisions"]):
        decision["ms"] = 1.5 + index % 7  # as the sandboxed runner writes them
        decision["by"] = "bot"
    if forfeit_seat is not None:
        record["forfeits"][forfeit_seat] = FORFEIT
    if stderr_seat is not None:
        record["stderr"][stderr_seat] = ALICE_STDERR
    outcome = match_services.record_result(match.pk, record)
    assert outcome.recorded, outcome.message
    match.refresh_from_db()
    return match


@pytest.fixture
def site_world(alice: User, bob: User, olivia: User) -> World:
    sync_ladders()  # a transactional (browser) test starts from an emptied database
    bots: dict[str, Bot] = {}
    versions: dict[str, list[BotVersion]] = {}
    for game in TABLES:
        versions[game] = []
        for user in (alice, bob, olivia):
            bot = make_bot(user, f"{user.username}-{game.replace('_', '-')}", game)
            bots[bot.name] = bot
            versions[game].append(make_version(bot))
    rejected = make_version(bots["alice-batavia"], b"print('v2')\n", rejected_because=REJECTION)
    matches = {}
    for index, game in enumerate(TABLES):
        matches[game] = finished_match(
            game,
            versions[game],
            seed=100 + index,
            stderr_seat=0,
            forfeit_seat=1 if game == "batavia" else None,
        )
    queued = make_match("batavia", versions["batavia"], seed=9)
    private = make_bot(alice, "alice-secret", "batavia", public=False)
    secret_version = make_version(private)
    # Olivia's bot is not seated: the challenge is hers to see only if she were staff.
    challenge = finished_match(
        "batavia",
        [secret_version, *versions["batavia"][:2]],
        seed=11,
        kind=Match.Kind.CHALLENGE,
        requested_by=alice,
    )
    return World(
        bots=bots,
        matches=matches,
        queued=queued,
        challenge=challenge,
        private_bot=private,
        rejected=rejected,
    )


# --- tournaments -----------------------------------------------------------------------------


def open_tournament(organiser: User, **overrides: Any) -> Tournament:
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
