"""Writes for matches: creation, the worker's claim, storing a result, failures, cancels.

What a result sets in motion (ratings, tournaments, version tests) is not decided here but in
:mod:`ladder.lifecycle.flow`, which calls :func:`save_result` and then each consequence in turn;
this module knows no app that depends on matches (an import contract checks it).

Storing is idempotent: the match row is locked, and a match that already has a result (or was
cancelled) is left untouched; the outcome says so.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine.log import viewer_decision
from engine.registry import get_game
from ladder.accounts.models import User, Visitor
from ladder.bots.models import BotVersion
from ladder.bots.selectors import visible_bots
from ladder.core.errors import Conflict, NotAllowed, ServiceError
from ladder.core.quotas import hold_quota
from ladder.core.resend import stamp_unsent
from ladder.ladders.models import Ladder
from ladder.lifecycle import queue as enqueue
from ladder.lifecycle.types import InvalidResult, MatchResult
from ladder.matches import logstore
from ladder.matches.models import Match, MatchLog, MatchProgress, MatchSeat

Status = Match.Status
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class RecordOutcome:
    match_id: int
    recorded: bool
    message: str


@dataclass(frozen=True)
class SavedResult:
    """What :func:`save_result` did: the outcome, and the match and places when it stored one."""

    outcome: RecordOutcome
    match: Match | None = None
    places: tuple[int, ...] = ()


def new_seed(rng: random.Random | None = None) -> int:
    return (rng or random.SystemRandom()).randint(0, MAX_SEED)


def create_match(
    ladder: Ladder,
    versions: Sequence[BotVersion],
    *,
    kind: str = Match.Kind.LADDER,
    ranked: bool = True,
    requested_by: User | None = None,
    seed: int | None = None,
    variant: str | None = None,
    queue: bool = True,
) -> Match:
    """A match with its seats in the given order, queued for the workers after commit."""
    if len(versions) != ladder.num_players:
        raise ServiceError(f"{ladder} needs {ladder.num_players} bots, not {len(versions)}")
    for version in versions:
        if version.bot.game != ladder.game:
            raise ServiceError(f"{version.label} plays {version.bot.game}, not {ladder.game}")
    spec = get_game(ladder.game)
    variant = variant or ladder.variant
    if variant not in spec.variants:
        raise ServiceError(f"{ladder.game} has no variant {variant!r}")
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            ladder=ladder,
            game=ladder.game,
            variant=variant,
            seed=new_seed() if seed is None else seed,
            kind=kind,
            ranked=ranked,
            requested_by=requested_by,
            status=Status.QUEUED if queue else Status.NEW,
            queued_at=now if queue else None,
        )
        MatchSeat.objects.bulk_create(
            MatchSeat(match=match, seat=i, bot_version=v) for i, v in enumerate(versions)
        )
        if queue:
            enqueue.match_after_commit(match.pk)
    return match


def enqueue_match(match_id: int) -> bool:
    """new -> queued (and hand it to the workers); False if it was not new."""
    with transaction.atomic():
        changed = Match.objects.filter(pk=match_id, status=Status.NEW).update(
            status=Status.QUEUED, queued_at=timezone.now()
        )
        if changed:
            enqueue.match_after_commit(match_id)
    return bool(changed)


def hold_matches(match_ids: Sequence[int]) -> int:
    """queued -> new for matches that must wait (a paused tournament); returns how many moved.

    A worker that still receives the id of a held match fails to claim it (claims need
    ``queued``); :func:`enqueue_match` hands it out again.
    """
    return Match.objects.filter(pk__in=list(match_ids), status=Status.QUEUED).update(
        status=Status.NEW, queued_at=None
    )


def claim_match(match_id: int, *, worker: str, lease_seconds: int = 600) -> bool:
    """queued -> running for exactly one worker (a conditional UPDATE)."""
    now = timezone.now()
    return bool(
        Match.objects.filter(pk=match_id, status=Status.QUEUED).update(
            status=Status.RUNNING,
            worker=worker[:200],
            started_at=now,
            lease_expires_at=now + timedelta(seconds=lease_seconds),
        )
    )


def save_result(match_id: int, *, result: MatchResult) -> SavedResult:
    """Store a result in the match's seats and log and mark it finished; twice changes nothing.

    Call inside the transaction that also applies the result's consequences
    (``ladder.lifecycle.flow.record_result``): the match row stays locked until it commits.
    Raises :class:`InvalidResult` for a result that does not fit the match.
    """
    try:
        match = Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise ServiceError(f"there is no match {match_id}") from None
    if match.status == Status.FINISHED:
        return SavedResult(RecordOutcome(match_id, False, f"match {match_id} already has a result"))
    if match.status in (Status.CANCELLED, Status.FAILED):
        return SavedResult(
            RecordOutcome(match_id, False, f"match {match_id} is {match.status}; ignored")
        )
    seats = list(match.seats.order_by("seat"))
    if len(result.scores) != len(seats):
        raise InvalidResult(
            f"the result has {len(result.scores)} seats; the match has {len(seats)}"
        )
    places = result.places
    codes = result.forfeit_codes
    cap = settings.MONSOON_STDERR_MAX_BYTES
    for seat in seats:
        seat.score = result.scores[seat.seat]
        seat.place = places[seat.seat]
        seat.forfeit_code = codes[seat.seat]
        seat.forfeit_reason = result.forfeits[seat.seat] or ""
        seat.stderr = result.stderr[seat.seat][-cap:]
    for seat in seats:  # a few rows: plain UPDATEs cost less than bulk_update's CASEs
        seat.save(update_fields=["score", "place", "forfeit_code", "forfeit_reason", "stderr"])
    if result.log is not None:
        # The object is written before the row commits: a rollback leaves at most an
        # orphan object that the next attempt overwrites, never a row without its log.
        stored = logstore.store(match.pk, result.log)
        MatchLog.objects.create(
            match=match,
            name=stored.name,
            codec=stored.codec,
            size=stored.size,
            stored_size=stored.stored_size,
        )
    match.status = Status.FINISHED
    match.finished_at = timezone.now()
    match.lease_expires_at = None
    match.save(update_fields=["status", "finished_at", "lease_expires_at"])
    return SavedResult(
        RecordOutcome(match_id, True, f"match {match_id} recorded"), match, tuple(places)
    )


def clear_progress(match_id: int) -> None:
    """Drop a match's live progress: once it is over (or starts again) its log tells it all."""
    MatchProgress.objects.filter(match_id=match_id).delete()


def record_infrastructure_failure(match_id: int, *, reason: str) -> str:
    """A run that died for reasons not the bots' (worker killed, storage error...).

    Never a result: the match goes back to the queue (and to the workers) until it has used its
    attempts, then ``failed``.  Returns the new status; a failed match is over, and what that
    sets in motion is ``ladder.lifecycle.flow.record_failure``'s business.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status not in (Status.RUNNING, Status.QUEUED):
            return match.status
        clear_progress(match.pk)  # the next run starts afresh
        match.attempts += 1
        match.worker = ""
        match.lease_expires_at = None
        match.status_reason = reason[:2000]
        if match.attempts >= settings.MONSOON_MATCH_MAX_ATTEMPTS:
            match.status = Status.FAILED
            match.finished_at = timezone.now()
        else:
            match.status = Status.QUEUED
            match.queued_at = timezone.now()
            enqueue.match_after_commit(match.pk)
        match.save()
        return match.status


def expired_leases(*, now: datetime | None = None) -> list[int]:
    """Running matches whose worker stopped renewing its lease (it died, or lost the database)."""
    return list(
        Match.objects.filter(
            status=Status.RUNNING, lease_expires_at__lt=now or timezone.now()
        ).values_list("pk", flat=True)
    )


def renew_lease(match_id: int, *, worker: str, lease_seconds: int) -> bool:
    """The worker that runs a match is still at it; False if the match is no longer its own."""
    return bool(
        Match.objects.filter(pk=match_id, status=Status.RUNNING, worker=worker[:200]).update(
            lease_expires_at=timezone.now() + timedelta(seconds=lease_seconds)
        )
    )


def _check_progress(
    decisions: object, forfeits: object, n: int
) -> tuple[list[dict[str, Any]], list[str | None]]:
    """The published progress, reduced to its public keys; InvalidResult if malformed."""
    if not isinstance(decisions, list) or not all(
        isinstance(d, dict) and isinstance(d.get("seat"), int) and 0 <= d["seat"] < n
        for d in decisions
    ):
        raise InvalidResult("'decisions' must be a list of decisions with a seat each")
    if (
        not isinstance(forfeits, list)
        or len(forfeits) != n
        or not all(f is None or isinstance(f, str) for f in forfeits)
    ):
        raise InvalidResult(f"'forfeits' must hold a reason or None for each of {n} seats")
    public = [viewer_decision(d) for d in decisions]
    return public, forfeits


def publish_progress(match_id: int, *, worker: str, decisions: object, forfeits: object) -> bool:
    """Store how far a running match has got, for live spectators; False if not ours.

    Only the worker holding the match may publish, and only while it runs (the match row is
    locked for the check, so a result recorded meanwhile cannot be followed by a stale row).
    Each publish replaces the previous one: spectators ask for what is new since their last
    step (``selectors.live_progress``).
    """
    with transaction.atomic():
        held = list(
            Match.objects.select_for_update()
            .filter(pk=match_id, status=Status.RUNNING, worker=worker[:200])
            .values_list("pk", flat=True)
        )
        if not held:
            return False
        seats = MatchSeat.objects.filter(match_id=match_id).count()
        public, reasons = _check_progress(decisions, forfeits, seats)
        MatchProgress.objects.update_or_create(
            match_id=match_id,
            defaults={"decisions": public, "forfeits": reasons, "updated_at": timezone.now()},
        )
    return True


def matches_to_resend(*, now: datetime | None = None) -> list[int]:
    """Queued matches whose message may have been lost by the broker, stamped as sent now.

    Nothing in the broker is trusted to survive (a Redis restart may lose every queued
    message); the database holds the queue. Claiming is a conditional update, so a match sent
    twice is still played once.
    """
    return stamp_unsent(
        Match.objects.filter(status=Status.QUEUED),
        sent_field="sent_at",
        since_field="queued_at",
        now=now or timezone.now(),
    )


def cancel_match(match_id: int, *, reason: str = "cancelled by staff") -> bool:
    """Cancel a match that has no result yet; a finished match keeps its result."""
    with transaction.atomic():
        changed = Match.objects.filter(
            pk=match_id, status__in=[Status.NEW, Status.QUEUED, Status.RUNNING]
        ).update(
            status=Status.CANCELLED,
            status_reason=reason,
            finished_at=timezone.now(),
            lease_expires_at=None,
        )
        clear_progress(match_id)
    return bool(changed)


def rerun_match(match_id: int, *, requested_by: Visitor | None = None) -> Match:
    """A fresh match with the same seats, seed and variant (the original keeps its history).

    It is requested by ``requested_by`` when that is a signed-in user, else by whoever
    requested the original.
    """
    original = Match.objects.select_related("ladder").get(pk=match_id)
    versions = [seat.bot_version for seat in original.seats.select_related("bot_version__bot")]
    return create_match(
        original.ladder,
        versions,
        kind=original.kind,
        ranked=original.ranked,
        requested_by=requested_by if isinstance(requested_by, User) else original.requested_by,
        seed=original.seed,
        variant=original.variant,
    )


def create_challenge(user: Visitor, bot_ids: Sequence[int], *, seed: int | None = None) -> Match:
    """An unranked match between chosen bots: at least one the user's own, the others public.

    Seats follow the order given.  Limited to ``MONSOON_CHALLENGES_PER_HOUR`` per user.
    """
    if not isinstance(user, User):
        raise NotAllowed("log in to ask for a challenge")
    if len(set(bot_ids)) != len(bot_ids):
        raise ServiceError("a bot can take only one seat at a table")
    # Another user's private bot is answered exactly like a missing one: its id must not leak.
    bots = {b.pk: b for b in visible_bots(user).filter(pk__in=bot_ids)}
    missing = [i for i in bot_ids if i not in bots]
    if missing:
        raise ServiceError(f"no such bot: {', '.join(map(str, missing))}")
    chosen = [bots[i] for i in bot_ids]
    if not any(b.owner_id == user.pk for b in chosen):
        raise NotAllowed("a challenge must include one of your own bots")
    for bot in chosen:
        if bot.owner_id != user.pk and not bot.is_public:
            raise NotAllowed(f"{bot.name} is private")
    games = {b.game for b in chosen}
    if len(games) != 1:
        raise ServiceError("all bots of a challenge must play the same game")
    game = games.pop()
    ladder = Ladder.objects.filter(game=game, num_players=len(chosen)).first()
    if ladder is None:
        spec = get_game(game)
        raise ServiceError(
            f"{game} is for {spec.min_players}-{spec.max_players} players, not {len(chosen)}"
        )
    versions = []
    for bot in chosen:
        version = (
            bot.versions.filter(status=BotVersion.Status.ACTIVE)
            .select_related("bot")
            .order_by("-number")
            .first()
        )
        if version is None:
            raise Conflict(f"{bot.name} has no active version yet")
        versions.append(version)
    with transaction.atomic():
        # Exact under concurrency (without the lock, 40 parallel requests got 21-22 challenges
        # against a limit of 20).
        hold_quota(
            user,
            Match.objects.filter(kind=Match.Kind.CHALLENGE, requested_by=user),
            limit=settings.MONSOON_CHALLENGES_PER_HOUR,
            window=timedelta(hours=1),
            what="challenges",
        )
        return create_match(
            ladder, versions, kind=Match.Kind.CHALLENGE, ranked=False, requested_by=user, seed=seed
        )
