"""Writes for matches: creation, the worker's claim, result recording, failures, cancels.

The result record the match runner hands to :func:`record_result` is a plain dict::

    {
        "scores":   [12, 9, 9, 3],              # final score per seat
        "ranking":  [1, 2, 2, 4],               # place per seat (1 = best, ties share),
                                                #   forfeited seats already placed last
        "forfeits": [None, None, None, "timeout after 2.0 s"],   # reason per seat or None
        "log":      {...},                      # the game log (engine/log.py format)
        "stderr":   ["", "", "", "Traceback ..."],  # per seat, shown to the owner only
    }

Recording is idempotent: the match row is locked, and a match that already has a result (or was
cancelled) is left untouched; the outcome says so.

Ratings depend on matches, never the reverse (an import contract checks it): the ratings app
registers its live update with :func:`on_result_recorded` from its ``AppConfig.ready``, and
:func:`record_result` calls every registered handler inside the recording transaction.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from engine.log import viewer_decision
from engine.registry import get_game
from ladder.accounts.models import User, Visitor
from ladder.bots.models import BotVersion
from ladder.bots.selectors import visible_bots
from ladder.core.errors import Conflict, NotAllowed, RateLimited, ServiceError
from ladder.core.hooks import after_commit
from ladder.core.resend import stamp_unsent
from ladder.ladders.models import Ladder
from ladder.matches import logstore
from ladder.matches.models import Match, MatchLog, MatchProgress, MatchSeat

Status = Match.Status
MAX_SEED = 2**63 - 1


class InvalidResult(ServiceError):
    """A result record that does not fit its match; nothing is recorded."""


@dataclass(frozen=True)
class RecordOutcome:
    match_id: int
    recorded: bool
    message: str


ResultHandler = Callable[[Match, list[int]], None]
_result_handlers: list[ResultHandler] = []


def on_result_recorded(handler: ResultHandler) -> ResultHandler:
    """Have ``handler(match, places)`` called for every result, inside its recording transaction.

    Registering one handler twice keeps one copy.  A handler that raises rolls the whole result
    back, so a result is never stored without what its handlers write (the live rating update).
    """
    if handler not in _result_handlers:
        _result_handlers.append(handler)
    return handler


def result_places(ranking: Sequence[int], forfeits: Sequence[str | None]) -> list[int]:
    """The places a result records: forfeited seats share last place, the others keep their order.

    ``ranking`` is the match's place per seat (1 = best); a seat with a forfeit reason counts
    as beaten by every seat that did not forfeit, whatever its score.
    """
    n = len(ranking)
    forfeited = [bool(reason) for reason in forfeits]
    places = []
    for seat in range(n):
        if forfeited[seat]:
            places.append(1 + sum(1 for other in range(n) if not forfeited[other]))
        else:
            better = sum(
                1 for other in range(n) if not forfeited[other] and ranking[other] < ranking[seat]
            )
            places.append(1 + better)
    return places


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
            after_commit("MONSOON_ENQUEUE_MATCH", match.pk)
    return match


def enqueue_match(match_id: int) -> bool:
    """new -> queued (and hand it to the workers); False if it was not new."""
    with transaction.atomic():
        changed = Match.objects.filter(pk=match_id, status=Status.NEW).update(
            status=Status.QUEUED, queued_at=timezone.now()
        )
        if changed:
            after_commit("MONSOON_ENQUEUE_MATCH", match_id)
    return bool(changed)


def hold_matches(match_ids: Sequence[int]) -> int:
    """queued -> new for matches that must wait (a paused tournament); returns how many moved.

    A worker that still receives the id of a held match fails to claim it (claims need
    ``queued``); :func:`enqueue_match` hands it out again.
    """
    return Match.objects.filter(pk__in=list(match_ids), status=Status.QUEUED).update(
        status=Status.NEW, queued_at=None
    )


def claim_match(match_id: int, worker: str, *, lease_seconds: int = 600) -> bool:
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


def _check_record(n: int, record: object) -> dict[str, Any]:
    """The record's fields, checked against a match of ``n`` seats."""
    if not isinstance(record, dict):
        raise InvalidResult("a result record must be a dict")
    scores: Any = record.get("scores")
    ranking: Any = record.get("ranking")
    forfeits = record.get("forfeits") or [None] * n
    stderr = record.get("stderr") or [""] * n
    for name, value in (
        ("scores", scores),
        ("ranking", ranking),
        ("forfeits", forfeits),
        ("stderr", stderr),
    ):
        if not isinstance(value, list) or len(value) != n:
            raise InvalidResult(f"'{name}' must be a list with one entry per seat ({n})")
    if not all(isinstance(s, int | float) and not isinstance(s, bool) for s in scores):
        raise InvalidResult("'scores' must be numbers")
    if not all(isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= n for r in ranking):
        raise InvalidResult(f"'ranking' must be places from 1 to {n}")
    if not all(f is None or isinstance(f, str) for f in forfeits):
        raise InvalidResult("'forfeits' entries must be a reason or None")
    if not all(isinstance(s, str) for s in stderr):
        raise InvalidResult("'stderr' entries must be text")
    log = record.get("log")
    if log is not None and not isinstance(log, dict):
        raise InvalidResult("'log' must be a game log object")
    return {
        "scores": scores,
        "ranking": ranking,
        "forfeits": forfeits,
        "stderr": stderr,
        "log": log,
    }


def record_result(match_id: int, record: dict[str, Any]) -> RecordOutcome:
    """Store a match's result and rate it; recording a match twice changes nothing.

    The workers call this once the sandboxed match has ended (bot failures are forfeits inside the
    record).  Raises :class:`InvalidResult` for a malformed record; returns an outcome saying
    whether anything was recorded.
    """
    with transaction.atomic():
        try:
            match = Match.objects.select_for_update().get(pk=match_id)
        except Match.DoesNotExist:
            raise ServiceError(f"there is no match {match_id}") from None
        if match.status == Status.FINISHED:
            return RecordOutcome(match_id, False, f"match {match_id} already has a result")
        if match.status in (Status.CANCELLED, Status.FAILED):
            return RecordOutcome(match_id, False, f"match {match_id} is {match.status}; ignored")
        seats = list(match.seats.order_by("seat"))
        clean = _check_record(len(seats), record)
        places = result_places(clean["ranking"], clean["forfeits"])
        cap = settings.MONSOON_STDERR_MAX_BYTES
        for seat in seats:
            seat.score = clean["scores"][seat.seat]
            seat.place = places[seat.seat]
            seat.forfeit_reason = clean["forfeits"][seat.seat] or ""
            seat.stderr = clean["stderr"][seat.seat][-cap:]
        for seat in seats:  # a few rows: plain UPDATEs cost less than bulk_update's CASEs
            seat.save(update_fields=["score", "place", "forfeit_reason", "stderr"])
        if clean["log"] is not None:
            # The object is written before the row commits: a rollback leaves at most an
            # orphan object that the next attempt overwrites, never a row without its log.
            stored = logstore.store(match.pk, clean["log"])
            MatchLog.objects.create(
                match=match,
                name=stored.name,
                codec=stored.codec,
                size=stored.size,
                stored_size=stored.stored_size,
            )
        MatchProgress.objects.filter(match=match).delete()  # the log now tells it all
        match.status = Status.FINISHED
        match.finished_at = timezone.now()
        match.lease_expires_at = None
        match.save(update_fields=["status", "finished_at", "lease_expires_at"])
        for handler in _result_handlers:
            handler(match, places)
        after_commit("MONSOON_MATCH_OVER", match.pk)
    return RecordOutcome(match_id, True, f"match {match_id} recorded")


def record_infrastructure_failure(match_id: int, reason: str) -> str:
    """A run that died for reasons not the bots' (worker killed, storage error...).

    Never a result: the match goes back to the queue until it has used its attempts, then
    ``failed``.  Returns the new status.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status not in (Status.RUNNING, Status.QUEUED):
            return match.status
        MatchProgress.objects.filter(match=match).delete()  # the next run starts afresh
        match.attempts += 1
        match.worker = ""
        match.lease_expires_at = None
        match.status_reason = reason[:2000]
        if match.attempts >= settings.MONSOON_MATCH_MAX_ATTEMPTS:
            match.status = Status.FAILED
            match.finished_at = timezone.now()
            after_commit("MONSOON_MATCH_OVER", match.pk)
        else:
            match.status = Status.QUEUED
            match.queued_at = timezone.now()
            after_commit("MONSOON_ENQUEUE_MATCH", match.pk)
        match.save()
        return match.status


def requeue_expired_leases(*, now: datetime | None = None) -> list[int]:
    """Running matches whose lease ran out count as an infrastructure failure each."""
    now = now or timezone.now()
    expired = list(
        Match.objects.filter(status=Status.RUNNING, lease_expires_at__lt=now).values_list(
            "pk", flat=True
        )
    )
    for match_id in expired:
        record_infrastructure_failure(match_id, "the worker's lease expired")
    return expired


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
        MatchProgress.objects.filter(match_id=match_id).delete()
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
        # One user's concurrent requests queue on their user row, so the count is exact (without
        # the lock, 40 parallel requests got 21-22 challenges against a limit of 20).
        get_user_model().objects.select_for_update().only("pk").get(pk=user.pk)
        since = timezone.now() - timedelta(hours=1)
        recent = Match.objects.filter(
            kind=Match.Kind.CHALLENGE, requested_by=user, created_at__gte=since
        )
        if recent.count() >= settings.MONSOON_CHALLENGES_PER_HOUR:
            oldest = recent.order_by("created_at").values_list("created_at", flat=True).first()
            wait = 60 if oldest is None else (oldest - since).total_seconds()
            raise RateLimited(
                f"at most {settings.MONSOON_CHALLENGES_PER_HOUR} challenges an hour; try again "
                "later",
                retry_after=max(1, math.ceil(wait)),
            )
        return create_match(
            ladder, versions, kind=Match.Kind.CHALLENGE, ranked=False, requested_by=user, seed=seed
        )
