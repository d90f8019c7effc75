"""Reads for ratings: standings and rating history."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from ladder.bots.models import BotVersion
from ladder.ladders.models import Ladder
from ladder.ratings.models import Rating, RatingPoint


@dataclass(frozen=True)
class Standing:
    rank: int
    rating: Rating


def standings(ladder: Ladder) -> list[Standing]:
    """The ladder's table: the playing version of each public bot, best first.

    Only the latest active version of a bot is ranked; retired versions keep their ratings in the
    history but leave the table.
    """
    rows = (
        Rating.objects.filter(
            ladder=ladder,
            bot_version__status=BotVersion.Status.ACTIVE,
            bot_version__bot__is_public=True,
        )
        .select_related("bot_version__bot__owner")
        .order_by("-rating", "bot_version_id")
    )
    return [Standing(rank=i + 1, rating=r) for i, r in enumerate(rows)]


def rating_history(bot_id: int, ladder_id: int | None = None) -> QuerySet[RatingPoint]:
    qs = RatingPoint.objects.filter(bot_version__bot_id=bot_id).select_related("bot_version")
    if ladder_id is not None:
        qs = qs.filter(ladder_id=ladder_id)
    return qs.order_by("id")


def ratings_for(ladder: Ladder, version_ids) -> dict[int, Rating]:
    return {
        r.bot_version_id: r
        for r in Rating.objects.filter(ladder=ladder, bot_version_id__in=list(version_ids))
    }
