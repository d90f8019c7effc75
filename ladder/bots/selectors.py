"""Reads for bots and versions, with the visibility rules in one place."""

from __future__ import annotations

from pathlib import Path

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
