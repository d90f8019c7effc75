"""A match's life on the ladder's side, top to bottom: the one place that says what happens.

A match is created queued (``ladder.matches.services.create_match``, called by the matchmaker,
a tournament round, a version test or a challenge), and its id goes to the workers after commit
(:mod:`ladder.lifecycle.queue`). Then, in the order a worker meets them:

1. :func:`claim`: ``queued`` -> ``running`` for exactly one worker, with a lease it renews.
2. :func:`spec`: what to play, typed (:class:`~ladder.lifecycle.types.MatchSpec`).
3. The worker fetches the artifacts, plays the match in its sandbox and publishes live progress
   (``workers/matches/tasks.py``); none of that is the ladder's business.
4. :func:`record_result`: the worker's :class:`~ladder.lifecycle.types.MatchResult`, in one
   transaction: stored, rated, live progress cleared; once it commits, :func:`match_over`.
   Or :func:`record_failure`: the run died for a reason not the bots'; the match is played
   again, or after its last attempt it is over (failed), and :func:`match_over` runs too.
5. :func:`match_over`: a tournament advances its round (or re-runs a failed match), a version
   test counts the game. Both are idempotent, and beat tasks are their backstops for a process
   that died between the commit and this call (``monsoon.tournaments_tick``,
   ``monsoon.versus_sweep``).

Nothing here is looked up by name: the apps that depend on a result are imported and called.
The apps themselves never import this module (an import contract in ``pyproject.toml``).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from ladder.lifecycle.types import MatchResult, MatchSpec, SeatSpec
from ladder.matches import services as matches
from ladder.matches.models import Match, MatchSeat
from ladder.matches.services import RecordOutcome
from ladder.ratings import services as ratings
from ladder.tournaments import services as tournaments
from ladder.versus import services as versus


def claim(*, match_id: int, worker: str, lease_seconds: int) -> bool:
    """Step 1: the match is ``worker``'s to play; False when it was not queued (nothing to do)."""
    return matches.claim_match(match_id, worker=worker, lease_seconds=lease_seconds)


def spec(*, match_id: int) -> MatchSpec:
    """Step 2: everything a worker needs to play the match.

    Each seat names its bot version's artifact by storage name and sha256, so a worker fetches
    it once and caches it by content (``ladder.bots.selectors.artifact_bytes`` reads it).
    """
    # One query (the seats, each row with its match's fields): a worker reads it for every match
    # it plays, between its claim and the first bot's start.
    rows = list(
        MatchSeat.objects.filter(match_id=match_id)
        .order_by("seat")
        .values_list(
            "seat",
            "bot_version_id",
            "bot_version__bot__name",
            "bot_version__number",
            "bot_version__sha256",
            "bot_version__kind",
            "bot_version__command",
            "bot_version__artifact",
            "match__game",
            "match__variant",
            "match__seed",
            "match__ladder__num_players",
            "match__ranked",
            "match__status",
        )
    )
    if not rows:  # every match is created with its seats
        raise Match.DoesNotExist(f"no match {match_id}")
    game, variant, seed, num_players, ranked, status = rows[0][8:]
    return MatchSpec(
        match_id=match_id,
        game=game,
        variant=variant,
        seed=seed,
        num_players=num_players,
        ranked=ranked,
        status=status,
        seats=tuple(
            SeatSpec(
                seat=seat,
                version_id=version_id,
                name=f"{bot_name} v{number}",
                sha256=sha256,
                kind=kind,
                command=tuple(command),
                artifact=artifact,
            )
            for seat, version_id, bot_name, number, sha256, kind, command, artifact, *_ in rows
        ),
    )


def record_result(*, match_id: int, result: MatchResult) -> RecordOutcome:
    """Step 4: a played match's result, and everything it moves; recording twice changes nothing.

    One transaction: a rating is never moved without its result stored, nor the reverse. The
    tournaments and version tests follow after the commit, so they read the result as stored.
    """
    with transaction.atomic():
        saved = matches.save_result(match_id, result=result)
        if saved.match is None:
            return saved.outcome
        ratings.rate_match(match=saved.match, places=list(saved.places))
        matches.clear_progress(match_id)
        transaction.on_commit(lambda: match_over(match_id=match_id))
    return saved.outcome


def record_failure(*, match_id: int, reason: str) -> str:
    """Step 4, when the run died for reasons not the bots' (worker killed, storage, sandbox).

    The match is queued again until it has used its attempts; then it is over, as ``failed``.
    Returns its new status.
    """
    with transaction.atomic():
        status = matches.record_infrastructure_failure(match_id, reason=reason)
        if status == Match.Status.FAILED:
            transaction.on_commit(lambda: match_over(match_id=match_id))
    return status


def reap_expired_leases(*, now: datetime | None = None) -> list[int]:
    """Matches whose worker stopped renewing its lease: each a failure of its run (the reaper)."""
    expired = matches.expired_leases(now=now)
    for match_id in expired:
        record_failure(match_id=match_id, reason="the worker's lease expired")
    return expired


def match_over(*, match_id: int) -> None:
    """Step 5: what a match that is over moves beyond its own rows. Safe to call again.

    A match belongs to at most one of these (its kind says which); each returns at once for a
    match that is not its own.
    """
    tournaments.match_over(match_id=match_id)
    versus.match_over(match_id=match_id)
