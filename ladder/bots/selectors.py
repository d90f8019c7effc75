"""Reads for bots and versions, with the visibility rules in one place."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.cache import cache
from django.core.files.storage import FileSystemStorage, Storage, default_storage
from django.db.models import Q, QuerySet

from ladder.accounts.models import User, Visitor
from ladder.bots.models import Bot, BotVersion


def visible_bots(user: Visitor) -> QuerySet[Bot]:
    """Public bots, plus the user's own (staff see all)."""
    qs = Bot.objects.select_related("owner")
    if user.is_staff:
        return qs
    if isinstance(user, User):
        return qs.filter(Q(is_public=True) | Q(owner=user))
    return qs.filter(is_public=True)


def can_see_private_details(user: Visitor, bot: Bot) -> bool:
    """Owner and staff see rejection reasons, stderr and pending uploads."""
    if not isinstance(user, User):
        return False
    return bool(user.is_staff or user.pk == bot.owner_id)


PRIVATE_BOT_NAME = "a private bot"
"""What a viewer who may not see a private bot reads wherever its name, code or ids would be."""


def private_seat_names(unnamed: Iterable[int]) -> dict[int, str]:
    """A neutral name for each seat of one match whose bot the reader may not name.

    One such seat reads :data:`PRIVATE_BOT_NAME`; several read "private bot 1", "private bot
    2"... in seat order, so the reader can follow who moved and who won without learning whose
    bots they are (numbered by seat, not by bot: two seats of one bot are not told to be one).
    """
    seats = sorted(set(unnamed))
    if len(seats) == 1:
        return {seats[0]: PRIVATE_BOT_NAME}
    return {seat: f"private bot {number}" for number, seat in enumerate(seats, start=1)}


def bot_named_for(viewer: Visitor, bot: Bot) -> bool:
    """The one rule for naming a bot in history (matches, logs, replays, tournaments, head to
    head): a public bot is named to everyone, a private one only to its owner and staff.

    A bot made private after it played keeps its history, but to everybody else it becomes
    :data:`PRIVATE_BOT_NAME`, with no id, version, owner or log note that leads back to it.
    """
    return bool(bot.is_public) or can_see_private_details(viewer, bot)


def _bot_of(subject: Bot | BotVersion) -> Bot:
    return subject.bot if isinstance(subject, BotVersion) else subject


def visible_bot_name(subject: Bot | BotVersion, viewer: Visitor) -> str:
    """The bot's name as ``viewer`` may read it (see :func:`bot_named_for`)."""
    bot = _bot_of(subject)
    return bot.name if bot_named_for(viewer, bot) else PRIVATE_BOT_NAME


def visible_version_label(version: BotVersion, viewer: Visitor) -> str:
    """``name vN`` (a seat's label in matches, replays and logs), or :data:`PRIVATE_BOT_NAME`:
    a version number is part of the bot's code and is hidden with its name."""
    return version.label if bot_named_for(viewer, version.bot) else PRIVATE_BOT_NAME


def names_private_bots(viewer: Visitor) -> bool:
    """Whether ``viewer`` reads any private bot's name (staff, or the owner of one): their
    answers differ from the public ones and never go through a cache shared by everyone."""
    if not isinstance(viewer, User):
        return False
    return bool(viewer.is_staff) or Bot.objects.filter(owner=viewer, is_public=False).exists()


VISIBILITY_GENERATION_KEY = "bots:visibility-generation"
"""Cache key of a token that changes whenever a bot is made private (``bots.services``)."""


def visibility_generation() -> str:
    """Part of every key of an answer cached for everyone alike: an answer cached while a bot
    was public, with its name, is never served once it is private."""
    return str(cache.get(VISIBILITY_GENERATION_KEY, ""))


HIDDEN_REF_KEYS = ("owner", "version", "version_number")
"""Keys of a bot reference row cleared with the name: each of them leads back to the bot."""


def hide_private_bots(
    rows: Iterable[Mapping[str, Any]],
    viewer: Visitor,
    *,
    id_key: str = "bot",
    name_key: str = "bot_name",
    cleared: Iterable[str] = HIDDEN_REF_KEYS,
) -> list[dict[str, Any]]:
    """Copies of plain rows that refer to bots by id (seats, entrants, standings, head to head),
    with the bots ``viewer`` may not name (:func:`bot_named_for`) read as
    :data:`PRIVATE_BOT_NAME` and their id and the ``cleared`` keys set to None.

    Rows are copied, never changed in place: they may be cached or stored snapshots (a finished
    tournament's standings), which every viewer shares.
    """
    out = [dict(row) for row in rows]
    ids = {row[id_key] for row in out if row.get(id_key) is not None}
    hidden: set[int] = set()
    if ids and not viewer.is_staff:
        bots = Bot.objects.filter(pk__in=ids).only("id", "is_public", "owner_id")
        hidden = {bot.pk for bot in bots if not bot_named_for(viewer, bot)}
    extra = tuple(cleared)
    for row in out:
        if row.get(id_key) in hidden:
            row[id_key] = None
            row[name_key] = PRIVATE_BOT_NAME
            for key in extra:
                if key in row:
                    row[key] = None
    return out


PLAYED = (BotVersion.Status.ACTIVE, BotVersion.Status.RETIRED)


def visible_versions(user: Visitor, bot: Bot | None = None) -> QuerySet[BotVersion]:
    """Everyone sees versions that played (active, retired); the owner sees every upload.

    With ``bot``, that bot's versions; without, the versions of every bot the user may see.
    """
    if bot is not None:
        qs = bot.versions.select_related("bot")
        if can_see_private_details(user, bot):
            return qs
        return qs.filter(status__in=PLAYED)
    qs = BotVersion.objects.select_related("bot").filter(bot__in=visible_bots(user))
    if user.is_staff:
        return qs
    if isinstance(user, User):
        return qs.filter(Q(status__in=PLAYED) | Q(bot__owner=user))
    return qs.filter(status__in=PLAYED)


def artifact_store_problem(storage: Storage | None = None) -> str | None:
    """Why this host cannot read stored artifacts at all, or None.

    A folder store (``FileSystemStorage``) whose folder does not exist here means the host
    lacks the store (the shared ``MEDIA_ROOT`` is not mounted): every artifact would look
    missing, so it is the host's failure, never a version's. A bucket is shared by every host:
    a missing object there is missing for all of them.
    """
    storage = storage or default_storage
    if isinstance(storage, FileSystemStorage) and not Path(storage.location).is_dir():
        return (
            f"the artifact store {storage.location} does not exist on this host (mount the "
            "shared MEDIA_ROOT here, or store artifacts in a bucket: docs/deploy.md)"
        )
    return None


def artifact_bytes(version_id: int) -> bytes:
    """The stored artifact of a version, from whatever storage is configured."""
    version = BotVersion.objects.only("artifact").get(pk=version_id)
    with version.artifact.open("rb") as stream:
        return stream.read()


def latest_active_version(bot: Bot) -> BotVersion | None:
    return bot.versions.filter(status=BotVersion.Status.ACTIVE).order_by("-number").first()


def ranked_versions(game: str) -> QuerySet[BotVersion]:
    """The versions that play ranked games: the latest active version of each public bot."""
    return BotVersion.objects.filter(
        bot__game=game, bot__is_public=True, status=BotVersion.Status.ACTIVE
    ).select_related("bot")


@dataclass(frozen=True)
class SmokeTable:
    """The table a smoke match is played at, drawn so that it looks like a ranked one.

    A bot that could tell validation from ranked play could behave while it is validated and
    misbehave afterwards. So, as a ranked table: a player count and variant drawn from the
    game's scheduled ladders with the matchmaker's weights, the version at a random seat, every
    seat named ``<bot> v<number>`` (its opponents by names of versions that play ranked games,
    though the reference random bot plays them). Chosen by :func:`smoke_table`.
    """

    seat: int
    names: tuple[str, ...]
    variant: str | None = None


def smoke_table(version: BotVersion, rng: random.Random | None = None) -> SmokeTable:
    """A ranked-looking table for ``version``'s smoke match, drawn afresh at each try.

    Opponent names are drawn from the versions of other bots that play this game's ranked
    matches (the matchmaker never seats a bot against itself); where there are too few (a game
    nobody plays yet has no ranked table to resemble), the rest get made-up names of the same
    shape. ``rng`` is for tests (draws that repeat).
    """
    from engine.registry import get_game
    from ladder.ladders.models import Ladder

    rng = rng or random.SystemRandom()
    game = version.bot.game
    ladders = list(
        Ladder.objects.filter(game=game, schedule_enabled=True, schedule_weight__gt=0).order_by(
            "num_players"
        )
    )
    if ladders:
        ladder = rng.choices(ladders, weights=[ladder.schedule_weight for ladder in ladders])[0]
        players, variant = ladder.num_players, ladder.variant or None
    else:
        players, variant = get_game(game).min_players, None
    rows = ranked_versions(game).exclude(bot=version.bot_id).values_list("bot__name", "number")
    others = sorted({f"{name} v{number}" for name, number in rows})
    rng.shuffle(others)
    while len(others) < players - 1:
        others.append(f"{rng.choice(('bot', 'player', 'agent'))}-{rng.randrange(100, 999)} v1")
    names = [*others[: players - 1]]
    seat = rng.randrange(players)
    names.insert(seat, f"{version.bot.name} v{version.number}")
    return SmokeTable(seat=seat, names=tuple(names), variant=variant)
