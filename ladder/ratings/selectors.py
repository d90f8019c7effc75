"""Reads for ratings: standings and rating history."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count, F, QuerySet, Window
from django.db.models.functions import RowNumber

from ladder.bots.models import BotVersion
from ladder.ladders.models import Ladder
from ladder.ratings.models import Rating, RatingPoint, Season, SeasonStanding


@dataclass(frozen=True)
class Standing:
    rank: int
    rating: Rating


def standings_queryset(ladder: Ladder) -> QuerySet[Rating]:
    """The ladder's table, best first: the playing version of each public bot.

    Only the latest active version of a bot is ranked; retired versions keep their ratings in the
    history but leave the table.
    """
    return (
        Rating.objects.filter(
            ladder=ladder,
            bot_version__status=BotVersion.Status.ACTIVE,
            bot_version__bot__is_public=True,
        )
        .select_related("bot_version__bot__owner")
        .order_by("-rating", "bot_version_id")
    )


STANDING_FIELDS = {
    "bot": "bot_version__bot_id",
    "bot_name": "bot_version__bot__name",
    "owner": "bot_version__bot__owner__username",
    "version": "bot_version_id",
    "version_number": "bot_version__number",
    "rating": "rating",
    "low": "low",
    "high": "high",
    "games": "games",
    "provisional": "provisional",
}


def standings_rows(ladder: Ladder) -> QuerySet:
    """The table as plain rows (one query, no model instances): what the API serves."""
    same = [k for k, v in STANDING_FIELDS.items() if k == v]
    renamed = {k: F(v) for k, v in STANDING_FIELDS.items() if k != v}
    return standings_queryset(ladder).values(*same, **renamed)


def with_ranks(rows: Iterable[Mapping[str, Any]], first_rank: int = 1) -> list[dict[str, Any]]:
    out = []
    for i, row in enumerate(rows):
        ranked_row = {"rank": first_rank + i, **row}
        for key in ("rating", "low", "high"):
            ranked_row[key] = round(ranked_row[key], 1)
        out.append(ranked_row)
    return out


def ranked(rows: Iterable[Rating], first_rank: int = 1) -> list[Standing]:
    return [Standing(rank=first_rank + i, rating=r) for i, r in enumerate(rows)]


def standings(ladder: Ladder) -> list[Standing]:
    return ranked(standings_queryset(ladder))


def rating_history(bot_id: int, ladder_id: int | None = None) -> QuerySet[RatingPoint]:
    qs = RatingPoint.objects.filter(bot_version__bot_id=bot_id).select_related("bot_version")
    if ladder_id is not None:
        qs = qs.filter(ladder_id=ladder_id)
    return qs.order_by("id")


def ratings_for(ladder: Ladder, version_ids: Iterable[int]) -> dict[int, Rating]:
    return {
        r.bot_version_id: r
        for r in Rating.objects.filter(ladder=ladder, bot_version_id__in=list(version_ids))
    }


TREND_WINDOW = 5  # rating points a trend looks back over


TRENDS_SQL = """
    SELECT v.id, p.n, p.rating
    FROM unnest(%s::bigint[]) AS v(id)
    CROSS JOIN LATERAL (
        SELECT row_number() OVER (ORDER BY rp.id DESC) AS n, rp.rating
        FROM ratings_ratingpoint rp
        WHERE rp.bot_version_id = v.id AND rp.ladder_id = %s
        ORDER BY rp.id DESC
        LIMIT %s
    ) AS p
"""


def trends(
    ladder: Ladder, version_ids: Iterable[int], window: int = TREND_WINDOW
) -> dict[int, float]:
    """Elo change per version over its last ``window`` rating points on the ladder.

    A version with fewer points is measured from its first point.  On PostgreSQL one query reads
    just the newest ``window + 1`` points of each version through the (version, ladder, id)
    index: 4 ms for a 1,000-bot table with 300,000 points, where numbering every point with a
    window function took 250 ms.  Other databases (SQLite in development) take the window
    function.
    """
    ids = [int(v) for v in version_ids]
    if not ids:
        return {}
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(TRENDS_SQL, [ids, ladder.pk, window + 1])
            rows = cursor.fetchall()
    else:
        rows = (
            RatingPoint.objects.filter(ladder=ladder, bot_version_id__in=ids)
            .annotate(
                n=Window(RowNumber(), partition_by=[F("bot_version_id")], order_by=F("id").desc())
            )
            .filter(n__lte=window + 1)
            .values_list("bot_version_id", "n", "rating")
        )
    newest: dict[int, float] = {}
    oldest: dict[int, tuple[int, float]] = {}
    for version_id, n, rating in rows:
        if n == 1:
            newest[version_id] = rating
        if version_id not in oldest or n > oldest[version_id][0]:
            oldest[version_id] = (n, rating)
    return {v: newest[v] - oldest[v][1] for v in newest}


@dataclass(frozen=True)
class Position:
    """A version's place on one ladder: its rating and, when it is in the table, its rank."""

    ladder: Ladder
    rating: Rating
    rank: int | None
    """1-based rank in the standings; None when the version is not in the table (a private
    bot, or a version no longer active)."""
    of: int
    """Bots in the ladder's table."""


def positions(*, version_ids: Sequence[int]) -> dict[int, list[Position]]:
    """Per version: its rating on each ladder it has one on, with its rank there.

    The rank is the version's row in the standings' own order (rating, then version id), as the
    standings page shows it.  One query for the ratings and one per ladder they are on (the
    table's rating ids, in order), however many versions are asked about.
    """
    ratings = list(
        Rating.objects.filter(bot_version_id__in=list(version_ids))
        .select_related("ladder")
        .order_by("ladder__num_players", "ladder_id")
    )
    tables: dict[int, dict[int, int]] = {}
    for ladder_id in {r.ladder_id for r in ratings}:
        ladder = next(r.ladder for r in ratings if r.ladder_id == ladder_id)
        order = standings_queryset(ladder).values_list("pk", flat=True)
        tables[ladder_id] = {pk: rank for rank, pk in enumerate(order, start=1)}
    out: dict[int, list[Position]] = {}
    for rating in ratings:
        table = tables[rating.ladder_id]
        out.setdefault(rating.bot_version_id, []).append(
            Position(ladder=rating.ladder, rating=rating, rank=table.get(rating.pk), of=len(table))
        )
    return out


# --- seasons --------------------------------------------------------------------------------


def current_season(ladder: Ladder) -> Season | None:
    """The season being played (None until staff first end one: the ladder's first season)."""
    return Season.objects.filter(ladder=ladder, ended_at__isnull=True).first()


def ended_seasons(ladders: Iterable[Ladder]) -> QuerySet[Season]:
    """Seasons with frozen standings, newest first, with their bot counts."""
    return (
        Season.objects.filter(ladder__in=list(ladders), ended_at__isnull=False)
        .select_related("ladder")
        .annotate(bots=Count("standings"))
        .order_by("-number", "ladder__num_players")
    )


def season_standings(season: Season) -> QuerySet[SeasonStanding]:
    return season.standings.select_related("bot__owner", "bot_version").order_by("rank")


def bot_seasons(bot_id: int) -> QuerySet[SeasonStanding]:
    """A bot's places in the seasons that ended, newest first."""
    return (
        SeasonStanding.objects.filter(bot_id=bot_id)
        .select_related("season__ladder", "bot_version")
        .annotate(field=Count("season__standings"))
        .order_by("-season__ended_at", "season__ladder__num_players")
    )
