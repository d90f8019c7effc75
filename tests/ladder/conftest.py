"""Personas and helpers for the ladder tests.

- alice: a bot author (the owner in permission tests)
- bob: another bot author (the "other user")
- olivia: an organiser (the ``organisers`` group), no bots of her own
- sam: staff
- anonymous: no credentials
"""

from __future__ import annotations

import io
import zipfile

import pytest
from rest_framework.test import APIClient

from bots.builtin import get_policy
from engine.match import play_match
from ladder.accounts.services import create_user, set_organiser
from ladder.bots import services as bot_services
from ladder.bots.models import Bot, BotVersion
from ladder.ladders.models import Ladder
from ladder.matches import services as match_services
from ladder.matches.models import Match
from tests.helpers import present, use_match_log_folder

GOOD_BOT = b"import sys\nfor line in sys.stdin:\n    print(line.strip())\n"


def accept(artifact):
    return bot_services.ValidationOutcome(ok=True)


@pytest.fixture
def alice(db):
    return create_user("alice", password="alice-password-1")


@pytest.fixture
def bob(db):
    return create_user("bob", password="bob-password-1")


@pytest.fixture
def olivia(db):
    user = create_user("olivia", password="olivia-password-1")
    set_organiser(user)
    return user


@pytest.fixture
def sam(db):
    user = create_user("sam", password="sam-password-1")
    user.is_staff = True
    user.save()
    return user


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def personas(alice, bob, olivia, sam):
    """Clients by persona name; ``owner`` is alice."""
    return {
        "anonymous": client_for(None),
        "owner": client_for(alice),
        "other": client_for(bob),
        "organiser": client_for(olivia),
        "staff": client_for(sam),
    }


def make_bot(owner, name: str, game: str = "batavia", *, public: bool = True) -> Bot:
    return bot_services.create_bot(owner, name=name, game=game, is_public=public)


def make_active_version(bot: Bot, source: bytes = GOOD_BOT) -> BotVersion:
    version = bot_services.upload_version(bot, user=bot.owner, filename="main.py", data=source)
    return present(
        bot_services.validate_version(version.pk, validator=accept), "the validated version"
    )


def zip_bytes(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def ladder_for(game: str = "batavia", players: int = 3) -> Ladder:
    return Ladder.objects.get(game=game, num_players=players)


def engine_result(match: Match, bots: list[str] | None = None) -> dict:
    """A result record made by the in-process engine, shaped like the sandboxed runner's."""
    n = match.ladder.num_players
    names = bots or ["random"] * n
    policies = [get_policy(name, match.game) for name in names]
    state, log = play_match(match.game, match.seed, policies, variant=match.variant)
    return {
        "scores": state.scores(),
        "ranking": state.ranking(),
        "forfeits": [None] * n,
        "log": log,
        "stderr": [""] * n,
    }


def play_and_record(match: Match, bots: list[str] | None = None):
    return match_services.record_result(match.pk, engine_result(match, bots))


@pytest.fixture(autouse=True)
def _isolated_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    use_match_log_folder(settings, tmp_path / "match-logs")
