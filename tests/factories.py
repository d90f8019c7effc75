"""Small factories for the ladder's objects, built through the services (never by hand).

Going through ``ladder.*.services`` means a test's user, bot, version or match is one the site
itself could have made: same checks, same defaults, same side effects (an API token, an
artifact on disk, seats in order). The personas in ``tests/conftest.py`` are made with
:func:`make_user`.

Import them: ``from tests.factories import make_bot, make_version``.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from typing import Any

from django.test import Client
from rest_framework.test import APIClient

from bots.builtin import get_policy
from engine.match import play_match
from engine.registry import get_game
from ladder.accounts.models import User
from ladder.accounts.services import create_user, set_organiser
from ladder.bots import services as bot_services
from ladder.bots.models import Bot, BotVersion
from ladder.ladders.models import Ladder
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.matches import services as match_services
from ladder.matches.models import Match

GOOD_BOT = b"import sys\nfor line in sys.stdin:\n    print(line.strip())\n"
"""A ``main.py`` that uploads and passes the (stubbed) validation; it never plays."""


def password_of(username: str) -> str:
    """Every persona's password: a test that logs in through a form needs it."""
    return f"{username}-password-1"


def make_user(
    username: str, *, organiser: bool = False, staff: bool = False, email: str = ""
) -> User:
    """A user with an API token (``create_user``), optionally an organiser or staff."""
    user = create_user(username, password=password_of(username), email=email)
    if organiser:
        set_organiser(user)
    if staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    return user


def make_bot(owner: User, name: str, game: str = "batavia", *, public: bool = True) -> Bot:
    return bot_services.create_bot(owner, name=name, game=game, is_public=public)


def accept(artifact: bot_services.ArtifactToValidate) -> bot_services.ValidationOutcome:
    """A validator that passes every upload: the sandboxed smoke match is the workers' test."""
    return bot_services.ValidationOutcome(ok=True)


def make_version(
    bot: Bot,
    source: bytes = GOOD_BOT,
    *,
    filename: str = "main.py",
    rejected_because: str | None = None,
) -> BotVersion:
    """The bot's next version, uploaded by its owner and validated: ``active``, or
    ``rejected`` with the given reason (the text only the owner and staff may read)."""
    version = bot_services.upload_version(bot, user=bot.owner, filename=filename, data=source)
    if rejected_because is None:
        validated = bot_services.validate_version(version.pk, validator=accept)
    else:
        reason = rejected_because
        validated = bot_services.validate_version(
            version.pk,
            validator=lambda artifact: bot_services.ValidationOutcome(ok=False, reason=reason),
        )
    assert validated is not None, "a fresh upload is pending, so it is validated"
    return validated


def make_active_version(bot: Bot, source: bytes = GOOD_BOT) -> BotVersion:
    """The name the ladder and tournament tests use for :func:`make_version`."""
    return make_version(bot, source)


def zip_bytes(files: dict[str, bytes]) -> bytes:
    """A zip upload holding ``files`` (name to content)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def ladder_for(game: str = "batavia", players: int = 3) -> Ladder:
    """The ladder of ``game`` at ``players`` (every table exists after the migrations)."""
    return Ladder.objects.get(game=game, num_players=players)


def make_match(
    game: str,
    versions: Sequence[BotVersion],
    *,
    seed: int,
    kind: str = Match.Kind.LADDER,
    requested_by: User | None = None,
) -> Match:
    """A queued match of ``versions`` in seat order at the ``game`` ladder of that size."""
    return match_services.create_match(
        ladder_for(game, len(versions)),
        versions,
        seed=seed,
        kind=kind,
        ranked=kind == Match.Kind.LADDER,
        requested_by=requested_by,
    )


def engine_json(match: Match, bots: list[str] | None = None) -> dict[str, Any]:
    """A result made by the in-process engine, in its JSON form (for tests that change a field
    before :meth:`MatchResult.from_json` checks it): the match played by built-in policies
    (``random`` unless named per seat)."""
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


def engine_result(match: Match, bots: list[str] | None = None) -> MatchResult:
    """:func:`engine_json`'s result as the worker hands it over, checked."""
    return MatchResult.from_json(engine_json(match, bots))


def play_and_record(match: Match, bots: list[str] | None = None) -> match_services.RecordOutcome:
    """Play ``match`` in-process and record its result through the service."""
    return flow.record_result(match_id=match.pk, result=engine_result(match, bots))


def api_client(user: User | None = None) -> APIClient:
    """A DRF test client, authenticated as ``user`` (anonymous without one)."""
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def web_client(user: User | None = None) -> Client:
    """A browser-like test client with ``user``'s session (anonymous without one)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def smoke_log(game: str, seed: int) -> dict[str, Any]:
    """A smoke match's log as the validation keeps it: the new version in seat 0 against random
    bots at the game's smallest table (played here by the in-process random policy)."""
    players = get_game(game).min_players
    _state, log = play_match(game, seed, [get_policy("random", game)] * players)
    log["seats"] = ["version 0", *(f"random{i}" for i in range(1, players))]
    return log


def validated_with_smoke(
    bot: Bot, *, ok: bool = True, log: bool = True, seed: int = 3, source: bytes | None = None
) -> BotVersion:
    """A new version through the real ``validate_version`` with a stand-in smoke match outcome
    (accepted or rejected, with the :func:`smoke_log` of ``seed`` kept unless ``log`` is off)."""
    data = source if source is not None else GOOD_BOT + f"# {bot.versions.count()}\n".encode()
    version = bot_services.upload_version(bot, user=bot.owner, filename="main.py", data=data)
    outcome = bot_services.ValidationOutcome(
        ok,
        "" if ok else "the smoke match against random bots failed: crash",
        log=smoke_log(bot.game, seed) if log else None,
    )
    validated = bot_services.validate_version(version.pk, validator=lambda _: outcome)
    assert validated is not None, "a fresh upload is pending, so it is validated"
    return validated
