"""Writes for tournaments: setting up, registration, the start, rounds, pause/resume/cancel.

Progress is driven from outside, idempotently: :func:`tick` (a beat task every few seconds, the
clock injected by tests) starts due tournaments and advances any whose current round is complete;
:func:`match_over` (called by ``ladder.lifecycle.flow`` after the commit of every finished or
failed match) advances the match's tournament at once.  Both lock the tournament row
(``select_for_update``), so concurrent calls advance a round exactly once.

Tournament matches are ordinary matches (kind ``tournament``) created through
``ladder.matches.services.create_match``; the workers run them like any other.
"""

from __future__ import annotations

import zoneinfo
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine.registry import all_games
from ladder.accounts.models import User, Visitor
from ladder.accounts.selectors import is_organiser
from ladder.bots.models import BotVersion
from ladder.bots.selectors import visible_bots
from ladder.core.errors import Conflict, NotAllowed, ServiceError
from ladder.core.seeded import seeded_random
from ladder.ladders.models import Ladder
from ladder.matches.models import Match
from ladder.matches.selectors import ranking_of
from ladder.matches.services import (
    MAX_SEED,
    cancel_match,
    create_match,
    enqueue_match,
    hold_matches,
    new_seed,
)
from ladder.ratings.selectors import ratings_for
from ladder.tournaments import pairing, selectors
from ladder.tournaments.models import Entrant, Round, Tournament, TournamentMatch
from ladder.tournaments.standings import placement_points
from ladder.tournaments.tournament_settings import TournamentSettings

Status = Tournament.Status
Format = Tournament.Format
LIVE_MATCH = (Match.Status.NEW, Match.Status.QUEUED, Match.Status.RUNNING)


class NotFound(ServiceError):
    status_code = 404
    code = "not_found"


@dataclass
class TickReport:
    """What one :func:`tick` did, by tournament id."""

    started: list[int] = field(default_factory=list)
    advanced: list[int] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)
    cancelled: list[int] = field(default_factory=list)


# --- setting up -----------------------------------------------------------------------------


def _validated(data: dict[str, Any], now: datetime) -> dict[str, Any]:
    """Check a tournament's settings; every refusal names the field and the allowed values."""
    games = all_games()
    game = data.get("game")
    if game not in games:
        raise ServiceError(f"unknown game {game!r}; known games: {', '.join(games)}")
    spec = games[game]
    k = data.get("num_players")
    if not isinstance(k, int) or k not in spec.player_counts:
        raise ServiceError(
            f"{game} is for {spec.min_players}-{spec.max_players} players per table, not {k}"
        )
    variant = data.get("variant") or None
    ladder = Ladder.objects.filter(game=game, num_players=k).first()
    if ladder is None:
        raise ServiceError(f"there is no ladder for {game} at {k} players; run sync_ladders")
    variant = variant or ladder.variant
    if variant not in spec.variants:
        raise ServiceError(
            f"{game} has no variant {variant!r}; variants: {', '.join(spec.variants)}"
        )
    fmt = data.get("format")
    if fmt not in Format.values:
        raise ServiceError(f"unknown format {fmt!r}; formats: {', '.join(Format.values)}")
    gpp = data.get("games_per_pairing", 1)
    if not isinstance(gpp, int) or gpp < 1:
        raise ServiceError("games_per_pairing must be at least 1")
    rounds = data.get("rounds")
    if rounds is not None and (fmt != Format.SWISS or rounds < 1):
        raise ServiceError("rounds is set for Swiss tournaments only, and must be at least 1")
    # The smallest field (one table of k) must fit the match budget; larger fields are checked
    # again at the start, when their size is known.
    limit = settings.MONSOON_TOURNAMENT_MAX_MATCHES
    rotated = bool(data.get("duplicate", False)) or fmt == Format.ROUND_ROBIN
    per_table = gpp * (k if rotated else 1)
    if per_table > limit:
        raise ServiceError(
            f"games_per_pairing {gpp} makes {per_table} matches at one table; "
            f"a tournament plays at most {limit} matches"
        )
    if rounds is not None and rounds * per_table > limit:
        raise ServiceError(
            f"{rounds} rounds of {per_table} matches a table exceed the "
            f"{limit} matches a tournament plays at most"
        )
    advance = data.get("advance", 1)
    if fmt == Format.ELIMINATION and not 1 <= advance < k:
        raise ServiceError(f"advance must be from 1 to {k - 1} at {k}-player tables")
    starts_at = data.get("starts_at")
    if starts_at is None:
        raise ServiceError("starts_at is required")
    opens = data.get("registration_opens_at") or now
    closes = data.get("registration_closes_at") or starts_at
    if starts_at <= now:
        raise ServiceError("starts_at must be in the future")
    if closes <= opens:
        raise ServiceError("registration must close after it opens")
    if starts_at < closes:
        raise ServiceError("the tournament cannot start before registration closes")
    zone = data.get("time_zone") or "UTC"
    if not isinstance(zone, str) or zone not in zoneinfo.available_timezones():
        raise ServiceError(f"unknown time_zone {zone!r}; use an IANA name such as Europe/Paris")
    return {
        "name": (data.get("name") or "").strip() or f"{spec.title} {fmt.replace('_', ' ')}",
        "description": data.get("description", ""),
        "ladder": ladder,
        "game": game,
        "num_players": k,
        "variant": variant,
        "format": fmt,
        "duplicate": bool(data.get("duplicate", False)),
        "games_per_pairing": gpp,
        "rounds": rounds,
        "advance": advance if fmt == Format.ELIMINATION else 1,
        "registration_opens_at": opens,
        "registration_closes_at": closes,
        "starts_at": starts_at,
        "time_zone": zone,
        "is_public": bool(data.get("is_public", True)),
        "ranked": bool(data.get("ranked", False)),
    }


def check_settings(settings: TournamentSettings, *, now: datetime | None = None) -> dict[str, Any]:
    """The cleaned settings, or a :class:`ServiceError` saying what is wrong (for forms)."""
    return _validated(settings.as_dict(), now or timezone.now())


def create_tournament(
    user: Visitor, *, settings: TournamentSettings, now: datetime | None = None
) -> Tournament:
    """A scheduled tournament; organisers and staff only.

    The settings are checked by :func:`check_settings`; empty ones take their defaults (see
    :class:`~ladder.tournaments.tournament_settings.TournamentSettings`). ``ranked`` defaults to
    False: the matches are unrated on the ladder.
    """
    if not (isinstance(user, User) and is_organiser(user)):
        raise NotAllowed("only organisers and staff can create tournaments")
    clean = _validated(settings.as_dict(), now or timezone.now())
    return Tournament.objects.create(organiser=user, seed=new_seed(), **clean)


def update_tournament(
    tournament_id: int,
    *,
    user: Visitor,
    settings: TournamentSettings,
    now: datetime | None = None,
) -> Tournament:
    """Replace the settings of a tournament that has not started (the admin's and the site's
    edit forms); to change a few, ``dataclasses.replace(TournamentSettings.of(t), ...)``."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_manager(t, user)
        if t.status != Status.SCHEDULED:
            raise Conflict(f"the tournament is {t.status}; only a scheduled one can be changed")
        if t.entrants.exists() and settings.game != t.game:
            raise Conflict("the game cannot change once bots have entered")
        clean = _validated(settings.as_dict(), now or timezone.now())
        for key, value in clean.items():
            setattr(t, key, value)
        t.save()
        return t


# --- registration ---------------------------------------------------------------------------


def register_entrant(
    tournament_id: int, *, user: Visitor, bot_id: int, now: datetime | None = None
) -> Entrant:
    """Enter a bot: its owner during the registration window, or the organiser (an invitation)
    any time before the start.  Only public bots of the tournament's game enter; the version
    that plays is the bot's latest active one at the start."""
    now = now or timezone.now()
    if not isinstance(user, User):
        raise NotAllowed("log in to register a bot")
    with transaction.atomic():
        t = _lock(tournament_id)
        # Another user's private bot is answered exactly like a missing one.
        bot = visible_bots(user).filter(pk=bot_id).first()
        if bot is None:
            raise ServiceError(f"no such bot: {bot_id}")
        manager = selectors.can_manage(user, t)
        if bot.owner_id != user.pk and not manager:
            raise NotAllowed("only a bot's owner can register it (the organiser may invite it)")
        if t.status != Status.SCHEDULED or now >= t.starts_at:
            raise Conflict(f"registration is closed: the tournament is {t.status}")
        if not manager:
            if now < t.registration_opens_at:
                raise Conflict(f"registration opens at {t.registration_opens_at.isoformat()}")
            if now >= t.registration_closes_at:
                raise Conflict(f"registration closed at {t.registration_closes_at.isoformat()}")
        if bot.game != t.game:
            raise ServiceError(f"{bot.name} plays {bot.game}; this tournament is {t.game}")
        if not bot.is_public:
            raise ServiceError(f"{bot.name} is private; only public bots enter tournaments")
        if t.entrants.filter(bot=bot).exists():
            raise Conflict(f"{bot.name} is already entered")
        return Entrant.objects.create(
            tournament=t, bot=bot, invited_by=user if bot.owner_id != user.pk else None
        )


def unregister_entrant(
    tournament_id: int, *, user: Visitor, bot_id: int, now: datetime | None = None
) -> None:
    """Withdraw a bot before the start: its owner, or the organiser removing it."""
    now = now or timezone.now()
    with transaction.atomic():
        t = _lock(tournament_id)
        entrant = t.entrants.select_related("bot").filter(bot_id=bot_id).first()
        if entrant is None:
            raise NotFound(f"bot {bot_id} is not entered in this tournament")
        if entrant.bot.owner_id != getattr(user, "pk", None) and not selectors.can_manage(user, t):
            raise NotAllowed("only the bot's owner or the organiser can withdraw it")
        if t.status != Status.SCHEDULED or now >= t.starts_at:
            raise Conflict("entrants are fixed once the tournament has started")
        entrant.delete()


# --- organiser controls ---------------------------------------------------------------------


def pause_tournament(tournament_id: int, *, user: Visitor, reason: str = "") -> Tournament:
    """Hand no new match to the workers; queued matches are held (running ones finish)."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_manager(t, user)
        if t.status not in (Status.SCHEDULED, Status.RUNNING):
            raise Conflict(
                f"the tournament is {t.status}; only a scheduled or running one can be paused"
            )
        _pause(t, reason or f"paused by {user}")
        return t


def resume_tournament(
    tournament_id: int, *, user: Visitor, now: datetime | None = None
) -> Tournament:
    """Carry on: held matches go to the workers, failed ones are re-run, and the round advances
    if it completed meanwhile.  A tournament paused before its start goes back to scheduled."""
    now = now or timezone.now()
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_manager(t, user)
        if t.status != Status.PAUSED:
            raise Conflict(f"the tournament is {t.status}, not paused")
        t.status = Status.RUNNING if t.started_at else Status.SCHEDULED
        t.status_reason = ""
        t.save(update_fields=["status", "status_reason"])
        if t.status == Status.RUNNING:
            for tm in selectors.live_matches(t).select_related("match"):
                if tm.match.status == Match.Status.NEW:
                    enqueue_match(tm.match_id)
                elif tm.match.status == Match.Status.FAILED:
                    _rerun(t, tm, attempt=0)
            _advance(t, now)
        return t


def cancel_tournament(
    tournament_id: int, *, user: Visitor, reason: str = "", now: datetime | None = None
) -> Tournament:
    """Stop for good: unplayed matches are cancelled, played ones kept and shown."""
    with transaction.atomic():
        t = _lock(tournament_id)
        _require_manager(t, user)
        if t.is_over:
            raise Conflict(f"the tournament is already {t.status}")
        _cancel(t, reason or f"cancelled by {user}", now or timezone.now())
        return t


# --- progress -------------------------------------------------------------------------------


def tick(*, now: datetime | None = None) -> TickReport:
    """Start due tournaments and advance running ones whose round is complete.  Idempotent."""
    now = now or timezone.now()
    report = TickReport()
    due = Tournament.objects.filter(status=Status.SCHEDULED, starts_at__lte=now)
    for tid in due.order_by("starts_at", "pk").values_list("pk", flat=True):
        with transaction.atomic():
            t = _lock(tid)
            if t.status == Status.SCHEDULED and t.starts_at <= now:
                _start(t, now)
                (report.started if t.status != Status.CANCELLED else report.cancelled).append(tid)
    running = Tournament.objects.filter(status=Status.RUNNING)
    for tid in running.order_by("pk").values_list("pk", flat=True):
        with transaction.atomic():
            t = _lock(tid)
            if t.status == Status.RUNNING and _advance(t, now):
                (report.finished if t.status == Status.FINISHED else report.advanced).append(tid)
    return report


def match_over(*, match_id: int) -> None:
    """Re-run a failed tournament match, advance its round."""
    link = TournamentMatch.objects.filter(match_id=match_id).values("tournament_id").first()
    if link is None:
        return  # not a tournament match
    with transaction.atomic():
        t = _lock(link["tournament_id"])
        if t.status not in (Status.RUNNING, Status.PAUSED):
            return
        tm = TournamentMatch.objects.select_related("match").get(match_id=match_id)
        if not tm.superseded and tm.match.status == Match.Status.FAILED:
            _rerun(t, tm, attempt=tm.attempt + 1)
        if t.status == Status.RUNNING:
            _advance(t, timezone.now())


# --- internals (call with the tournament row locked) -----------------------------------------


def _lock(tournament_id: int) -> Tournament:
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise NotFound(f"there is no tournament {tournament_id}") from None


def _require_manager(t: Tournament, user: Visitor) -> None:
    if not selectors.can_manage(user, t):
        raise NotAllowed("only the tournament's organiser or staff can do this")


def _start(t: Tournament, now: datetime) -> None:
    """Close registration, freeze each entrant's latest active version, seed, open round 1."""
    playing: list[Entrant] = []
    for entrant in t.entrants.filter(status=Entrant.Status.REGISTERED).select_related("bot"):
        version = (
            entrant.bot.versions.filter(status=BotVersion.Status.ACTIVE).order_by("-number").first()
        )
        if not entrant.bot.is_public:
            entrant.status, entrant.dropped_reason = (
                Entrant.Status.DROPPED,
                ("the bot was made private before the start"),
            )
        elif version is None:
            entrant.status, entrant.dropped_reason = (
                Entrant.Status.DROPPED,
                ("no active version at the start"),
            )
        else:
            entrant.status, entrant.version = Entrant.Status.PLAYING, version
            playing.append(entrant)
        entrant.save(update_fields=["status", "dropped_reason", "version"])
    ratings = ratings_for(t.ladder, [e.version_id for e in playing if e.version_id is not None])
    for e in playing:
        rating = ratings.get(e.version_id) if e.version_id is not None else None
        e.seed_rating = rating.rating if rating is not None else None
    # Seeds: ladder rating, best first; unrated versions after the rated, by registration.
    playing.sort(
        key=lambda e: (e.seed_rating is None, -(e.seed_rating or 0.0), e.registered_at, e.pk)
    )
    for number, e in enumerate(playing, start=1):
        e.seed = number
    Entrant.objects.bulk_update(playing, ["seed", "seed_rating"])
    k = t.num_players
    t.started_at = now
    if len(playing) < k:
        _cancel(
            t,
            f"too few entrants: {len(playing)} with an active version at the start; "
            f"a {k}-player table needs {k}",
            now,
        )
        return
    order = [e.pk for e in playing]
    if t.format == Format.ROUND_ROBIN:
        t.schedule = [
            {"tables": [list(tb) for tb in plan.tables], "byes": plan.byes}
            for plan in pairing.round_robin_rounds(order, k)
        ]
    if t.format == Format.SWISS and t.rounds is None:
        t.rounds = pairing.default_swiss_rounds(len(order), k)
    t.planned_rounds, t.planned_matches = selectors.planned_totals(t, len(order))
    if t.planned_matches > settings.MONSOON_TOURNAMENT_MAX_MATCHES:
        _cancel(
            t,
            f"{len(playing)} entrants would play {t.planned_matches} matches; a tournament "
            f"plays at most {settings.MONSOON_TOURNAMENT_MAX_MATCHES}",
            now,
        )
        return
    t.status = Status.RUNNING
    t.save()
    plan = _plan_round(t, 1, order)
    if plan is None:  # only a later round can be the last: round 1 always has tables
        raise RuntimeError(f"tournament {t.pk}: no first round could be planned")
    _open_round(t, 1, plan)


def _seat_order(t: Tournament) -> list[int]:
    return list(
        t.entrants.filter(status=Entrant.Status.PLAYING)
        .order_by("seed")
        .values_list("pk", flat=True)
    )


def _round_tables(t: Tournament, number: int) -> list[tuple[int, ...]]:
    """The tables of a round (first game's seating of each), in table order."""
    seen: dict[int, tuple[int, ...]] = {}
    for table, seating in (
        selectors.live_matches(t)
        .filter(round__number=number)
        .order_by("table", "game", "rotation")
        .values_list("table", "entrants")
    ):
        seen.setdefault(table, tuple(seating))
    return [seen[i] for i in sorted(seen)]


def _plan_round(t: Tournament, number: int, order: list[int]) -> pairing.RoundPlan | None:
    """The next round's tables and byes, or None when the tournament is complete."""
    k = t.num_players
    if t.format == Format.ROUND_ROBIN:
        schedule = t.schedule or []
        if number > len(schedule):
            return None
        r = schedule[number - 1]
        return pairing.RoundPlan(tables=[tuple(tb) for tb in r["tables"]], byes=list(r["byes"]))
    if t.format == Format.SWISS:
        if number > (t.rounds or 0):
            return None
        meetings: Counter[tuple[int, int]] = Counter()
        bye_counts: Counter[int] = Counter()
        for r in t.round_set.filter(number__lt=number):
            meetings.update(pairing.meetings_of(_round_tables(t, r.number)))
            bye_counts.update(r.byes)
        return pairing.swiss_round(
            order, k, scores=selectors.points_so_far(t), meetings=meetings, bye_counts=bye_counts
        )
    if number == 1:
        return pairing.elimination_round(order, k)
    previous = t.round_set.get(number=number - 1)
    last = pairing.RoundPlan(tables=_round_tables(t, number - 1), byes=list(previous.byes))
    if pairing.is_final(last):
        return None
    points: defaultdict[int, float] = defaultdict(float)
    for tm in (
        selectors.live_matches(t)
        .filter(round=previous, match__status=Match.Status.FINISHED)
        .select_related("match")
        .prefetch_related("match__seats")
    ):
        for e, p in zip(tm.entrants, placement_points(ranking_of(tm.match) or []), strict=True):
            points[e] += p
    field_ = pairing.elimination_advance(last, order, k, t.advance, points)
    return pairing.elimination_round(field_, k)


def _match_seed(t: Tournament, number: int, table: int, game: int) -> int:
    """Deterministic from the tournament's seed, so a replay of the event deals the same."""
    return seeded_random(f"{t.seed}/{number}/{table}/{game}").randint(0, MAX_SEED)


def _open_round(t: Tournament, number: int, plan: pairing.RoundPlan) -> Round:
    rnd = Round.objects.create(tournament=t, number=number, byes=list(plan.byes))
    versions = {
        e.pk: e.version
        for e in t.entrants.filter(status=Entrant.Status.PLAYING).select_related("version__bot")
        if e.version is not None  # a playing entrant always has its version (set at the start)
    }
    seat_counts = pairing.seat_counts_of(
        selectors.live_matches(t).values_list("entrants", flat=True), t.num_players
    )
    block = (
        t.tournament_matches.order_by("-block").values_list("block", flat=True).first() or 0
    ) + 1
    queue = t.status == Status.RUNNING
    for ti, table in enumerate(plan.tables):
        blocks = pairing.table_games(table, t.format, t.games_per_pairing, t.duplicate, seat_counts)
        for gi, seatings in enumerate(blocks):
            seed = _match_seed(t, number, ti, gi)
            for ri, seating in enumerate(seatings):
                match = create_match(
                    t.ladder,
                    [versions[e] for e in seating],
                    kind=Match.Kind.TOURNAMENT,
                    ranked=t.ranked,
                    seed=seed,
                    variant=t.variant,
                    requested_by=t.organiser,
                    queue=queue,
                )
                TournamentMatch.objects.create(
                    tournament=t,
                    round=rnd,
                    table=ti,
                    game=gi,
                    rotation=ri,
                    block=block,
                    entrants=list(seating),
                    match=match,
                )
            block += 1
    t.current_round = number
    t.save(update_fields=["current_round"])
    return rnd


def _advance(t: Tournament, now: datetime) -> bool:
    """Close the current round if all its matches are over and open the next (or finish)."""
    rnd = selectors.current_round(t)
    if rnd is None or rnd.status == Round.Status.COMPLETE:
        return False
    live = list(selectors.live_matches(t).filter(round=rnd).select_related("match"))
    if any(tm.match.status in LIVE_MATCH for tm in live):
        return False
    failed = [tm for tm in live if tm.match.status == Match.Status.FAILED]
    for tm in failed:  # a missed hook: re-run now
        _rerun(t, tm, attempt=tm.attempt + 1)
    if failed:
        return False
    rnd.status, rnd.completed_at = Round.Status.COMPLETE, now
    rnd.save(update_fields=["status", "completed_at"])
    plan = _plan_round(t, rnd.number + 1, _seat_order(t))
    if plan is None:
        _finish(t, now)
    else:
        _open_round(t, rnd.number + 1, plan)
    return True


def _rerun(t: Tournament, tm: TournamentMatch, *, attempt: int) -> None:
    """Replace a match that failed on infrastructure (same seats and seed), or pause once the
    slot has failed ``MONSOON_TOURNAMENT_MATCH_RERUNS`` re-runs in a row."""
    if attempt > settings.MONSOON_TOURNAMENT_MATCH_RERUNS:
        if t.status == Status.RUNNING:
            _pause(
                t,
                f"match {tm.match_id} (round {tm.round.number}, table {tm.table + 1}) "
                f"failed on the infrastructure after {tm.attempt + 1} runs: "
                f"{tm.match.status_reason or 'no reason given'}",
            )
        return
    seats = tm.match.seats.select_related("bot_version__bot").order_by("seat")
    match = create_match(
        t.ladder,
        [s.bot_version for s in seats],
        kind=Match.Kind.TOURNAMENT,
        ranked=tm.match.ranked,
        seed=tm.match.seed,
        variant=tm.match.variant,
        requested_by=t.organiser,
        queue=t.status == Status.RUNNING,
    )
    tm.superseded = True
    tm.save(update_fields=["superseded"])
    TournamentMatch.objects.create(
        tournament=t,
        round=tm.round,
        table=tm.table,
        game=tm.game,
        rotation=tm.rotation,
        block=tm.block,
        entrants=tm.entrants,
        match=match,
        attempt=attempt,
    )


def _pause(t: Tournament, reason: str) -> None:
    t.status, t.status_reason = Status.PAUSED, reason[:2000]
    t.save(update_fields=["status", "status_reason"])
    # Held: back from queued to new, so a worker that still gets the id fails to claim it.
    hold_matches(list(selectors.live_matches(t).values_list("match_id", flat=True)))


def _snapshot(t: Tournament) -> None:
    t.final_standings = selectors.compute_standings(t)
    t.final_crosstable = selectors.compute_crosstable(t)


def _finish(t: Tournament, now: datetime) -> None:
    t.status, t.finished_at = Status.FINISHED, now
    _snapshot(t)
    t.save()


def _cancel(t: Tournament, reason: str, now: datetime) -> None:
    for match_id in (
        selectors.live_matches(t)
        .filter(match__status__in=LIVE_MATCH)
        .values_list("match_id", flat=True)
    ):
        cancel_match(match_id, reason=f"tournament cancelled: {reason}"[:2000])
    t.status, t.status_reason, t.finished_at = Status.CANCELLED, reason[:2000], now
    _snapshot(t)
    t.save()
