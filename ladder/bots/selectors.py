"""Reads for bots and versions, with the visibility rules in one place."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from ladder.bots.models import Bot, BotVersion


def visible_bots(user) -> QuerySet[Bot]:
    """Public bots, plus the user's own (staff see all)."""
    qs = Bot.objects.select_related("owner")
    if getattr(user, "is_staff", False):
        return qs
    if getattr(user, "is_authenticated", False):
        return qs.filter(Q(is_public=True) | Q(owner=user))
    return qs.filter(is_public=True)


def can_see_private_details(user, bot: Bot) -> bool:
    """Owner and staff see rejection reasons, stderr and pending uploads."""
    if not getattr(user, "is_authenticated", False):
        return False
    return bool(user.is_staff or user.pk == bot.owner_id)


def visible_versions(user, bot: Bot) -> QuerySet[BotVersion]:
    """Everyone sees versions that played (active, retired); the owner sees every upload."""
    qs = bot.versions.select_related("bot")
    if can_see_private_details(user, bot):
        return qs
    return qs.filter(status__in=[BotVersion.Status.ACTIVE, BotVersion.Status.RETIRED])


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
