"""Reads for matches: filtered lists, visibility of logs and stderr."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Count, F, Field, Lookup, Prefetch, Q, QuerySet
from django.db.models.sql.compiler import SQLCompiler

from ladder.accounts.models import User, Visitor
from ladder.bots.selectors import (
    PRIVATE_BOT_NAME,
    bot_named_for,
    hide_private_bots,
    private_seat_names,
)
from ladder.matches import logstore
from ladder.matches.models import Match, MatchLog, MatchProgress, MatchSeat


def matches(
    *,
    game: str | None = None,
    ladder_id: int | None = None,
    bot_id: int | None = None,
    version_id: int | None = None,
    status: str | None = None,
) -> QuerySet[Match]:
    qs = Match.objects.all()
    if game:
        qs = qs.filter(game=game)
    if ladder_id:
        qs = qs.filter(ladder_id=ladder_id)
    if status:
        qs = qs.filter(status=status)
    if version_id:
        qs = qs.filter(seats__bot_version_id=version_id)
    if bot_id:
        qs = qs.filter(of_bot(bot_id))
    return with_seats(qs)


@Field.register_lookup
class _InArray(Lookup):
    """``field = ANY(array)``: with an ``ARRAY(subquery)``, PostgreSQL runs the subquery first."""

    lookup_name = "in_array"

    def as_sql(
        self, compiler: SQLCompiler, connection: BaseDatabaseWrapper
    ) -> tuple[str, tuple[str | int, ...]]:
        lhs, lhs_params = self.process_lhs(compiler, connection)
        rhs, rhs_params = self.process_rhs(compiler, connection)
        return f"{lhs} = ANY({rhs})", (*lhs_params, *rhs_params)


def of_bot(bot_id: int) -> Q:
    """Matches a bot played (any version), as a filter.

    A bot's matches are a few hundred of a million.  As ``id IN (subquery)`` PostgreSQL's planner
    walks the whole match index backwards hoping to meet them early (130 ms at a million matches,
    ``benchmarks/scale.py``); as ``id = ANY(ARRAY(subquery))`` it reads the bot's seats first and
    fetches just those (under 1 ms).  Other databases (the SQLite demo) get the plain form.
    """
    if connection.vendor == "postgresql":
        return Q(pk__in_array=ArraySubquery(matches_of_bot(bot_id)))
    return Q(pk__in=matches_of_bot(bot_id))


LIST_FIELDS = (
    "id",
    "game",
    "variant",
    "seed",
    "kind",
    "ranked",
    "status",
    "created_at",
    "queued_at",
    "started_at",
    "finished_at",
    "rated",
)


def visible_matches(user: Visitor) -> QuerySet[Match]:
    """Every match, except challenges with a private bot and version-test matches, which only
    their players' owners see.

    Private bots are never challenged by others, so such a challenge is their owner's
    experiment; public lists (cached for everyone alike) never show it.
    """
    qs = Match.objects.all()
    if user.is_staff:
        return qs
    private = MatchSeat.objects.filter(bot_version__bot__is_public=False).values("match_id")
    # A version test's matches are its owner's experiment, whatever the bot's visibility.
    hidden = (Q(kind=Match.Kind.CHALLENGE) & Q(pk__in=private)) | Q(kind=Match.Kind.VERSUS)
    if isinstance(user, User):
        own = MatchSeat.objects.filter(bot_version__bot__owner=user).values("match_id")
        hidden &= ~Q(pk__in=own)
    return qs.exclude(hidden)


def public_matches() -> QuerySet[Match]:
    """What anonymous visitors (and the shared list cache) see."""
    return visible_matches(AnonymousUser())


def result_ranking(places: Sequence[int | None]) -> list[int] | None:
    """A match's ranking from its seats' places in seat order: None before it has a result.

    The seats are the one record of a result: the match row keeps no copy (it once held the
    same list as JSON, ``ranking``).
    """
    if not places or any(place is None for place in places):
        return None
    return [int(place) for place in places if place is not None]


def result_scores(scores: Sequence[float | None]) -> list[int | float] | None:
    """A match's scores from its seats' scores in seat order: None before it has a result.

    Seats store scores as floats; whole ones read back as integers, as the workers report them
    and as the match row's old ``scores`` JSON showed them.
    """
    if not scores or any(score is None for score in scores):
        return None
    return [int(s) if s.is_integer() else s for s in scores if s is not None]


def _seats_in_order(match: Match) -> list[MatchSeat]:
    """Prefetched seats when there are some (lists), else one query."""
    return sorted(match.seats.all(), key=lambda seat: seat.seat)


def ranking_of(match: Match) -> list[int] | None:
    """The place per seat (1 = best, forfeits last), or None before the match has a result."""
    return result_ranking([seat.place for seat in _seats_in_order(match)])


def scores_of(match: Match) -> list[int | float] | None:
    """The final score per seat, or None before the match has a result."""
    return result_scores([seat.score for seat in _seats_in_order(match)])


def list_rows(qs: QuerySet[Match]) -> QuerySet:
    """Matches as plain rows for lists (no model instances: lists are the hot path)."""
    return qs.values(*LIST_FIELDS, "ladder_id")


def attach_seats(rows: list[dict], viewer: Visitor) -> list[dict]:
    """Add each row's seats (one query for the page), the ranking and scores read from them,
    and hide seeds of unfinished matches; bots ``viewer`` may not name read as a private bot."""
    by_match: dict[int, list[dict]] = {row["id"]: [] for row in rows}
    seats = (
        MatchSeat.objects.filter(match_id__in=list(by_match))
        .order_by("match_id", "seat")
        .values(
            "match_id",
            "seat",
            "score",
            "place",
            "forfeit_reason",
            bot=F("bot_version__bot_id"),
            bot_name=F("bot_version__bot__name"),
            version=F("bot_version_id"),
            version_number=F("bot_version__number"),
        )
    )
    for seat in hide_private_bots(seats, viewer):
        by_match[seat["match_id"]].append({k: v for k, v in seat.items() if k != "match_id"})
    for own in by_match.values():
        names = private_seat_names(seat["seat"] for seat in own if seat["bot"] is None)
        for seat in own:
            seat["bot_name"] = names.get(seat["seat"], seat["bot_name"])
    for row in rows:
        ladder_id, rated = row.pop("ladder_id"), row.pop("rated")
        own = by_match[row["id"]]
        row["ranking"] = result_ranking([seat["place"] for seat in own])
        row["scores"] = result_scores([seat["score"] for seat in own])
        row["rated"] = rated
        row["ladder"] = ladder_id
        row["seats"] = own
        if row["status"] not in Match.Status.over():
            row["seed"] = None
    return rows


def matches_of_bot(bot_id: int) -> QuerySet:
    """Ids of the matches a bot played (any version), for filtering without DISTINCT."""
    return MatchSeat.objects.filter(bot_version__bot_id=bot_id).order_by().values("match_id")


def with_seats(qs: QuerySet[Match]) -> QuerySet[Match]:
    seats = MatchSeat.objects.select_related("bot_version__bot").order_by("seat")
    return qs.prefetch_related(Prefetch("seats", queryset=seats))


HEAD_TO_HEAD_SQL = """
    SELECT ob.id, ob.name,
           COUNT(*),
           SUM(CASE WHEN mine.place < theirs.place THEN 1 ELSE 0 END),
           SUM(CASE WHEN mine.place > theirs.place THEN 1 ELSE 0 END),
           SUM(CASE WHEN mine.place = theirs.place THEN 1 ELSE 0 END)
    FROM matches_matchseat mine
    JOIN bots_botversion mv ON mv.id = mine.bot_version_id
    JOIN matches_match m ON m.id = mine.match_id
    JOIN matches_matchseat theirs ON theirs.match_id = mine.match_id AND theirs.id <> mine.id
    JOIN bots_botversion tv ON tv.id = theirs.bot_version_id
    JOIN bots_bot ob ON ob.id = tv.bot_id
    WHERE mv.bot_id = %s AND m.status = 'finished' AND tv.bot_id <> %s AND m.id IN ({matches})
    GROUP BY ob.id, ob.name
    ORDER BY COUNT(*) DESC, ob.name
"""


def head_to_head(bot_id: int, viewer: Visitor) -> list[dict[str, Any]]:
    """Per opponent bot: finished matches together and how often this bot placed ahead.

    Only the matches ``viewer`` may see count (:func:`visible_matches`: another owner's private
    challenges and version tests do not), so the counts agree with the match lists.
    """
    matches_sql, params = (
        visible_matches(viewer).filter(pk__in=matches_of_bot(bot_id)).values("id").query
    ).sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute(HEAD_TO_HEAD_SQL.format(matches=matches_sql), [bot_id, bot_id, *params])
        rows = cursor.fetchall()
    return [
        {
            "opponent": r[0],
            "opponent_name": r[1],
            "matches": r[2],
            "ahead": int(r[3]),
            "behind": int(r[4]),
            "tied": int(r[5]),
        }
        for r in rows
    ]


def head_to_head_for(user: Visitor, bot_id: int) -> list[dict[str, Any]]:
    """``head_to_head`` as ``user`` may read it: over the matches they may see, and the
    opponents they may not name (private bots of others) merged into one "a private bot" row,
    so neither a private bot's id nor its own record shows."""
    rows = hide_private_bots(
        head_to_head(bot_id, user), user, id_key="opponent", name_key="opponent_name"
    )
    named = [r for r in rows if r["opponent"] is not None]
    hidden = [r for r in rows if r["opponent"] is None]
    if hidden:
        merged: dict[str, Any] = {"opponent": None, "opponent_name": PRIVATE_BOT_NAME}
        for key in ("matches", "ahead", "behind", "tied"):
            merged[key] = sum(r[key] for r in hidden)
        named.append(merged)
        named.sort(key=lambda r: -r["matches"])
    return named


def seat_labels(seats: Sequence[MatchSeat], viewer: Visitor) -> list[str]:
    """Each seat's ``name vN`` as ``viewer`` may read it, in seat order (replays, charts)."""
    private = private_seat_names(unnamed_seats(seats, viewer))
    return [private.get(seat.seat) or seat.bot_version.label for seat in seats]


def seat_bot_names(seats: Sequence[MatchSeat], viewer: Visitor) -> dict[int, str]:
    """Seat number -> the seat's bot name as ``viewer`` may read it (seats of one match)."""
    private = private_seat_names(unnamed_seats(seats, viewer))
    return {seat.seat: private.get(seat.seat) or seat.bot_version.bot.name for seat in seats}


def unnamed_seats(seats: Sequence[MatchSeat], viewer: Visitor) -> set[int]:
    """The seat numbers whose bot ``viewer`` may not name (see ``bot_named_for``)."""
    return {seat.seat for seat in seats if not bot_named_for(viewer, seat.bot_version.bot)}


def log_for_viewer(log: dict[str, Any], unnamed: set[int]) -> dict[str, Any]:
    """A copy of a game log for a reader who may not name the ``unnamed`` seats' bots: their
    display names read "a private bot" and their bots' own ``debug`` notes (free text that may
    sign the bot) are dropped; moves, times and the result stay, so the log still replays."""
    out = dict(log)
    seats = log.get("seats", [])
    private = private_seat_names(unnamed)
    out["seats"] = [private.get(i, name) for i, name in enumerate(seats)]
    out["decisions"] = [
        {k: v for k, v in entry.items() if k != "debug"} if entry.get("seat") in unnamed else entry
        for entry in log.get("decisions", [])
    ]
    return out


def log_is_public(match: Match) -> bool:
    """Logs reveal hidden cards, so they are published only once the match is over."""
    return match.status == Match.Status.FINISHED


@dataclass(frozen=True)
class LiveProgress:
    """What a spectator may know of a match now: its status and, while it runs, its moves.

    ``run`` names the attempt: a match whose worker died is played again from the start, so a
    viewer that followed the old attempt must start over when ``run`` changes.
    """

    status: str
    run: str
    decisions: list[dict[str, Any]]
    forfeits: list[str | None]
    updated_at: datetime | None


def live_progress(match: Match) -> LiveProgress:
    """The published progress of a running match (empty before its worker's first publish)."""
    row = (
        MatchProgress.objects.filter(match=match).first()
        if match.status == Match.Status.RUNNING
        else None
    )
    started = match.started_at.timestamp() if match.started_at else 0
    return LiveProgress(
        status=match.status,
        run=f"{match.attempts}-{started:.6f}",
        decisions=list(row.decisions) if row else [],
        forfeits=list(row.forfeits) if row else [],
        updated_at=row.updated_at if row else None,
    )


def stored_log(match: Match) -> MatchLog | None:
    return MatchLog.objects.filter(match=match).first()


def match_log(match: Match) -> dict[str, Any] | None:
    """The decoded log, or None when the match has none (raises ``UnreadableLog`` if damaged)."""
    row = stored_log(match)
    if row is None:
        return None
    return json.loads(logstore.read_json(row.name))


def stderr_visible_to(user: Visitor, seat: MatchSeat) -> bool:
    """A seat's stderr is its bot owner's business (and staff's)."""
    if not isinstance(user, User):
        return False
    return bool(user.is_staff or seat.bot_version.bot.owner_id == user.pk)


def matches_of_owner(user_id: int) -> QuerySet:
    """Ids of the matches any of a user's bots played (their "my matches" list)."""
    return MatchSeat.objects.filter(bot_version__bot__owner_id=user_id).values("match_id")


def recent_matches(
    user: Visitor,
    *,
    bot_id: int | None = None,
    owner_id: int | None = None,
    status: str | None = None,
    limit: int = 20,
) -> list[Match]:
    """The newest matches ``user`` may see, with seats, optionally of one bot or one owner."""
    qs = visible_matches(user)
    if bot_id is not None:
        qs = qs.filter(of_bot(bot_id))
    if owner_id is not None:
        qs = qs.filter(pk__in=matches_of_owner(owner_id))
    if status:
        qs = qs.filter(status=status)
    return list(with_seats(qs.select_related("ladder").order_by("-id"))[:limit])


@dataclass(frozen=True)
class SeatStats:
    """A bot's record over its finished matches: how often it forfeited, and mostly why."""

    games: int
    forfeits: int
    top_reason: str
    """The most common forfeit code (``timeout``, ``crash``...), empty without forfeits."""
    top_reason_count: int

    @property
    def forfeit_rate(self) -> float:
        return self.forfeits / self.games if self.games else 0.0


def seat_stats(*, bot_ids: Sequence[int]) -> dict[int, SeatStats]:
    """Per bot: seats in finished matches, those forfeited and the commonest forfeit code.

    Counts every kind of match (ladder, challenge, tournament) and every version of the bot.
    """
    seats = MatchSeat.objects.filter(
        bot_version__bot_id__in=list(bot_ids), match__status=Match.Status.FINISHED
    )
    games = dict(
        seats.values("bot_version__bot_id")
        .annotate(n=Count("id"))
        .values_list("bot_version__bot_id", "n")
    )
    codes: dict[int, Counter[str]] = {}
    forfeited = (
        seats.exclude(forfeit_code="")
        .values("bot_version__bot_id", "forfeit_code")
        .annotate(n=Count("id"))
        .values_list("bot_version__bot_id", "forfeit_code", "n")
    )
    for bot_id, code, n in forfeited:
        codes.setdefault(bot_id, Counter())[code] += n
    stats = {}
    for bot_id in bot_ids:
        counter = codes.get(bot_id, Counter())
        top = counter.most_common(1)
        stats[bot_id] = SeatStats(
            games=games.get(bot_id, 0),
            forfeits=sum(counter.values()),
            top_reason=top[0][0] if top else "",
            top_reason_count=top[0][1] if top else 0,
        )
    return stats
