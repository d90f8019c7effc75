"""A small site for the web tests, on the suite's web_clients (tests/conftest.py).

Personas: alice owns bots (the owner), bob is her rival (the "other user"), olivia an organiser
with bots of her own, sam staff, and anonymous visitors; ``web_clients`` holds their logged-in
browser clients by role.

``site_world`` builds, through the services only: one public bot per persona and game, alice's
private bot, a rejected upload of alice's with a reason only she (and staff) may read, one
finished ranked match per game (with decision times, alice's stderr and, at Batavia, bob's
forfeit), a queued match, and a finished challenge of alice's private bot.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ladder.accounts.models import User
from ladder.bots.models import Bot, BotVersion
from ladder.ladders.services import sync_ladders
from ladder.matches.models import Match
from tests.browser import browser  # noqa: F401  (the browser tests' fixture)
from tests.factories import make_bot, make_match, make_version
from tests.web.site import (
    REJECTION,
    TABLES,
    World,
    finished_match,
)


@pytest.fixture(autouse=True)
def _media(isolated_media: Path) -> None:
    """Every web test's uploads go to its own folder."""


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
