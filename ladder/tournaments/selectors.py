"""Reads for tournaments: visibility, progress, rounds, standings, cross-table, matches.

Standings are computed from the finished matches whenever asked (running or not) and cached
under a key that changes with every recorded match, so page views between two results cost one
small query instead of a bootstrap; once a tournament is finished or cancelled the stored
snapshot is served instead, so final results never move.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Max, Prefetch, Q, QuerySet

from ladder.accounts.models import User, Visitor
from ladder.accounts.selectors import is_organiser
from ladder.bots.selectors import hide_private_bots
from ladder.matches.models import Match, MatchSeat
from ladder.matches.selectors import ranking_of
from ladder.tournaments import pairing
from ladder.tournaments import standings as st
from ladder.tournaments.models import Entrant, Round, Tournament, TournamentMatch


def can_manage(user: Visitor, tournament: Tournament) -> bool:
    """The tournament's organiser and staff may change it (pause, resume, cancel, invite)."""
    if not isinstance(user, User):
        return False
    return bool(user.is_staff or tournament.organiser_id == user.pk)


def listed_tournaments(user: Visitor) -> QuerySet[Tournament]:
    """Public tournaments; organisers and staff also see unlisted ones, everyone their own
    (organised, or with one of their bots entered).  Unlisted ones stay reachable by id."""
    qs = Tournament.objects.select_related("organiser")
    if is_organiser(user):
        return qs
    if isinstance(user, User):
        own = Entrant.objects.filter(bot__owner=user).values("tournament_id")
        return qs.filter(Q(is_public=True) | Q(organiser=user) | Q(pk__in=own))
    return qs.filter(is_public=True)


def entrants(tournament: Tournament) -> QuerySet[Entrant]:
    return tournament.entrants.select_related("bot__owner", "version", "invited_by").order_by(
        "seed", "registered_at", "id"
    )


def entrant_rows(entrants: list[Entrant], viewer: Visitor) -> list[dict[str, Any]]:
    """Each entrant with its bot as ``viewer`` may read it (``bot``, ``bot_name``, ``owner``;
    a private bot of somebody else: no id, "a private bot", no owner)."""
    refs = hide_private_bots(
        [
            {"bot": e.bot_id, "bot_name": e.bot.name, "owner": e.bot.owner.username}
            for e in entrants
        ],
        viewer,
    )
    return [{"entrant": e, **ref} for e, ref in zip(entrants, refs, strict=True)]


def live_matches(tournament: Tournament) -> QuerySet[TournamentMatch]:
    """The match filling each slot (re-runs replace failed ones)."""
    return tournament.tournament_matches.filter(superseded=False)


def per_table(tournament: Tournament) -> int:
    """Matches one table plays in a round."""
    rotated = tournament.duplicate or tournament.format == Tournament.Format.ROUND_ROBIN
    return tournament.games_per_pairing * (tournament.num_players if rotated else 1)


def progress(tournament: Tournament) -> dict[str, Any]:
    counts = live_matches(tournament).aggregate(
        done=Count(
            "pk", filter=Q(match__status__in=[Match.Status.FINISHED, Match.Status.CANCELLED])
        ),
        created=Count("pk"),
    )
    return {
        "status": tournament.status,
        "current_round": tournament.current_round,
        "rounds": tournament.planned_rounds,
        "matches_done": counts["done"],
        "matches_created": counts["created"],
        "matches_total": tournament.planned_matches,
    }


def _results(
    tournament: Tournament,
) -> tuple[list[int], dict[int, int], list[st.GameResult], list[st.Bye]]:
    players = list(
        tournament.entrants.filter(status=Entrant.Status.PLAYING)
        .order_by("seed")
        .values_list("pk", "seed")
    )
    order = [pk for pk, _ in players]
    # Playing entrants were all seeded at the start.
    seeds = {pk: seed for pk, seed in players if seed is not None}
    forfeits = Prefetch(
        "match__seats",
        queryset=MatchSeat.objects.order_by("seat").only(
            "id", "match_id", "seat", "place", "forfeit_code"
        ),
    )
    games = []
    rows = (
        live_matches(tournament)
        .filter(match__status=Match.Status.FINISHED)
        .select_related("round", "match")
        .prefetch_related(forfeits)
        .order_by("id")
    )
    for tm in rows:
        games.append(
            st.GameResult(
                unit=tm.block,
                round=tm.round.number,
                table=tm.table,
                entrants=tuple(tm.entrants),
                places=tuple(ranking_of(tm.match) or ()),
                forfeits=tuple(bool(seat.forfeit_code) for seat in tm.match.seats.all()),
            )
        )
    bye_games = 0 if tournament.format == Tournament.Format.ELIMINATION else per_table(tournament)
    byes = [
        st.Bye(round=r.number, entrant=e, games=bye_games)
        for r in tournament.round_set.all()
        for e in r.byes
    ]
    return order, seeds, games, byes


def compute_standings(tournament: Tournament, samples: int | None = None) -> list[dict]:
    """Standings from the finished matches now, with bot names (see ``standings.compute``)."""
    order, seeds, games, byes = _results(tournament)
    if not order:
        return []
    samples = settings.MONSOON_TOURNAMENT_BOOTSTRAP_SAMPLES if samples is None else samples
    rows = st.compute(
        order,
        games,
        byes,
        k=tournament.num_players,
        seeds=seeds,
        elimination=tournament.format == Tournament.Format.ELIMINATION,
        samples=samples,
        rng_seed=tournament.seed % 2**32,
    )
    names = _names(tournament)
    return [{**names[row.entrant], **row.as_dict()} for row in rows]


def points_so_far(tournament: Tournament) -> dict[int, float]:
    """Total placement points per entrant (with byes): what Swiss pairs by."""
    order, seeds, games, byes = _results(tournament)
    rows = st.compute(order, games, byes, k=tournament.num_players, seeds=seeds)
    return {row.entrant: row.points for row in rows}


def _names(tournament: Tournament) -> dict[int, dict[str, Any]]:
    return {
        e.pk: {
            "bot": e.bot_id,
            "bot_name": e.bot.name,
            "owner": e.bot.owner.username,
            "version": e.version_id,
            "version_number": e.version.number if e.version else None,
            "seed": e.seed,
        }
        for e in entrants(tournament)
    }


def _results_key(tournament: Tournament, what: str) -> str:
    """A cache key that changes whenever a match of the tournament is recorded or replaced."""
    seen = tournament.tournament_matches.filter(match__status__in=Match.Status.over()).aggregate(
        n=Count("pk"), last=Max("match_id"), live=Count("pk", filter=Q(superseded=False))
    )
    return (
        f"tournament:{tournament.pk}:{what}:{tournament.current_round}:{seen['n']}:"
        f"{seen['live']}:{seen['last']}"
    )


def standings(tournament: Tournament, viewer: Visitor) -> list[dict]:
    """The standings as ``viewer`` may read them: a private bot's row unnamed (the stored and
    cached tables, shared by every reader, keep the names)."""
    return hide_private_bots(_all_standings(tournament), viewer)


def _all_standings(tournament: Tournament) -> list[dict]:
    if tournament.final_standings is not None:
        return tournament.final_standings
    cached = cache.get_or_set(
        _results_key(tournament, "standings"), lambda: compute_standings(tournament), 600
    )
    return cached if cached is not None else compute_standings(tournament)


def compute_crosstable(tournament: Tournament) -> dict[str, Any]:
    order, _seeds, games, _byes = _results(tournament)
    table = st.crosstable(order, games)
    names = _names(tournament)
    return {
        "entrants": [{"entrant": e, **names[e]} for e in order],
        "rows": [
            {
                "entrant": a,
                "cells": [
                    {"opponent": b, **cell}
                    for b, cell in sorted(table[a].items(), key=lambda kv: order.index(kv[0]))
                ],
            }
            for a in order
        ],
    }


def crosstable(tournament: Tournament, viewer: Visitor) -> dict[str, Any]:
    """The cross-table as ``viewer`` may read it (private bots unnamed, as in the standings)."""
    table = _all_crosstable(tournament)
    return {**table, "entrants": hide_private_bots(table["entrants"], viewer)}


def _all_crosstable(tournament: Tournament) -> dict[str, Any]:
    if tournament.final_crosstable is not None:
        return tournament.final_crosstable
    cached = cache.get_or_set(
        _results_key(tournament, "crosstable"), lambda: compute_crosstable(tournament), 600
    )
    return cached if cached is not None else compute_crosstable(tournament)


def rounds(tournament: Tournament, viewer: Visitor) -> list[dict[str, Any]]:
    """Each round with its tables (entrants in seat order of the first game, the live matches
    with status and places) and byes; bots ``viewer`` may not name read as a private bot."""
    shown = hide_private_bots(
        [{"entrant": e, **ref} for e, ref in _names(tournament).items()], viewer
    )
    names = {row.pop("entrant"): row for row in shown}
    places = Prefetch(
        "match__seats",
        queryset=MatchSeat.objects.order_by("seat").only("id", "match_id", "seat", "place"),
    )
    live = (
        live_matches(tournament)
        .select_related("match", "round")
        .prefetch_related(places)
        .order_by("round__number", "table", "game", "rotation")
    )
    tables: dict[tuple[int, int], dict[str, Any]] = {}
    for tm in live:
        key = (tm.round.number, tm.table)
        table = tables.setdefault(
            key,
            {
                "table": tm.table,
                "entrants": [{"entrant": e, **names[e]} for e in tm.entrants],
                "matches": [],
            },
        )
        table["matches"].append(
            {
                "match": tm.match_id,
                "game": tm.game,
                "rotation": tm.rotation,
                "block": tm.block,
                "attempt": tm.attempt,
                "status": tm.match.status,
                "seating": tm.entrants,
                "places": ranking_of(tm.match),
            }
        )
    out = []
    for r in tournament.round_set.order_by("number"):
        out.append(
            {
                "number": r.number,
                "status": r.status,
                "created_at": r.created_at,
                "completed_at": r.completed_at,
                "byes": [{"entrant": e, **names[e]} for e in r.byes],
                "tables": [t for (n, _), t in sorted(tables.items()) if n == r.number],
            }
        )
    return out


def tournament_matches(
    tournament: Tournament, round_number: int | None = None
) -> QuerySet[TournamentMatch]:
    """Every match of the tournament, re-runs included (``superseded`` marks replaced ones)."""
    seats = MatchSeat.objects.select_related("bot_version__bot").order_by("seat")
    qs = tournament.tournament_matches.select_related("round", "match").prefetch_related(
        Prefetch("match__seats", queryset=seats)
    )
    if round_number is not None:
        qs = qs.filter(round__number=round_number)
    return qs


def pending_match_ids(tournament: Tournament | None = None) -> list[int]:
    """Live tournament matches waiting for a worker (``queued``), oldest first: what a test
    driving the workers by hand plays next."""
    qs = TournamentMatch.objects.filter(superseded=False, match__status=Match.Status.QUEUED)
    if tournament is not None:
        qs = qs.filter(tournament=tournament)
    return list(qs.order_by("match_id").values_list("match_id", flat=True))


def current_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.filter(number=tournament.current_round).first()


def planned_totals(tournament: Tournament, n: int) -> tuple[int, int]:
    """(rounds, matches) for n entrants, from the same rules the rounds are made with."""
    k = tournament.num_players
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        schedule = tournament.schedule or []
        tables = sum(len(r["tables"]) for r in schedule)
        return len(schedule), tables * per_table(tournament)
    if tournament.format == Tournament.Format.SWISS:
        rounds_ = tournament.rounds or pairing.default_swiss_rounds(n, k)
        return rounds_, rounds_ * (n // k) * per_table(tournament)
    sizes = pairing.elimination_sizes(n, k, tournament.advance)
    return len(sizes), sum(m // k for m in sizes) * per_table(tournament)


# --- for the web site ------------------------------------------------------------------------


def reachable_tournaments() -> QuerySet[Tournament]:
    """What a link may open: every tournament, unlisted ones included.

    Unlisted means left out of lists, not secret: whoever has the link sees the page, as the
    API's detail endpoint does.
    """
    return Tournament.objects.select_related("organiser", "ladder")


def with_counts(qs: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Annotate ``entrant_count`` (not dropped) and ``matches_done`` for list pages, in the one
    query rather than two per row."""
    done = Q(
        tournament_matches__superseded=False,
        tournament_matches__match__status__in=[Match.Status.FINISHED, Match.Status.CANCELLED],
    )
    return qs.annotate(
        entrant_count=Count(
            "entrants", filter=~Q(entrants__status=Entrant.Status.DROPPED), distinct=True
        ),
        matches_done=Count("tournament_matches", filter=done, distinct=True),
    )


def running_tournaments(user: Visitor) -> QuerySet[Tournament]:
    """Listed tournaments under way (running or paused), the latest start first."""
    return with_counts(
        listed_tournaments(user).filter(
            status__in=[Tournament.Status.RUNNING, Tournament.Status.PAUSED]
        )
    )


def eligible_bots(user: Visitor, tournament: Tournament) -> QuerySet[Any]:
    """The user's bots that could still enter: public, of the tournament's game, not entered.

    Whether registration is open right now is the service's to say; this only keeps the menu
    free of bots that could never go in.
    """
    from ladder.bots.models import Bot

    if not isinstance(user, User):
        return Bot.objects.none()
    entered = tournament.entrants.values("bot_id")
    return (
        Bot.objects.filter(owner=user, is_public=True, game=tournament.game)
        .exclude(pk__in=entered)
        .order_by("name")
    )


def bot_entries(user: Visitor, bot_id: int) -> QuerySet[Entrant]:
    """A bot's entries in the tournaments the user may see listed, the latest start first."""
    return (
        Entrant.objects.filter(bot_id=bot_id, tournament__in=listed_tournaments(user))
        .select_related("tournament", "version")
        .order_by("-tournament__starts_at", "-tournament_id")
    )


def final_rank(tournament: Tournament, entrant_id: int) -> int | None:
    """The entrant's rank in the stored final standings (None while the tournament runs)."""
    for row in tournament.final_standings or []:
        if row.get("entrant") == entrant_id:
            return row.get("rank")
    return None


def match_link(match_id: int) -> TournamentMatch | None:
    """The tournament slot a match filled, for the match page's way back to its tournament."""
    return (
        TournamentMatch.objects.filter(match_id=match_id)
        .select_related("tournament", "round")
        .first()
    )
