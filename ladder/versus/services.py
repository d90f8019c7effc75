"""Writes for version tests: start, count each finished match, stop, cancel.

Design (docs/ladder.md, "Version tests"):

- Both versions sit at one table of the bot's game: the smallest table the game allows (two
  players where the game has a two-player ladder), or a table size the owner picks.  Seats beyond
  the two go to copies of the baseline, a fixed reference that both versions face alike.
- A pair is two matches with one seed: the candidate and the baseline swap seats between them,
  and successive pairs walk through every pair of seats, so neither version keeps a favoured
  seat.  Matches are unranked (kind ``versus``): ratings never see them.
- :func:`match_over` (called by ``ladder.lifecycle.flow`` once a match is over; :func:`sweep`, a
  beat task, is the backstop for a missed call) claims the match's game with a
  conditional update, so a result reported twice is counted once, and folds a finished pair into
  the pentanomial, re-tests, and either stops or tops the test up to
  ``MONSOON_VERSUS_PAIRS_IN_FLIGHT`` pairs in flight.  A pair with a failed or cancelled match is
  void (never counted) and replaced; too many void pairs cancel the test.
"""

from __future__ import annotations

import itertools
import math
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from engine.registry import get_game
from ladder.accounts.models import User
from ladder.bots.models import BotVersion
from ladder.core.errors import Conflict, NotAllowed, RateLimited, ServiceError
from ladder.core.quotas import hold_quota, lock_user
from ladder.ladders.models import Ladder
from ladder.matches.models import Match
from ladder.matches.selectors import ranking_of
from ladder.matches.services import cancel_match, create_match, new_seed
from ladder.versus import sprt
from ladder.versus.models import VersionTest, VersionTestGame

Status = VersionTest.Status
TESTABLE = (BotVersion.Status.ACTIVE, BotVersion.Status.RETIRED)

DEFAULT_ELO0 = 0.0
DEFAULT_ELO1 = 20.0
DEFAULT_ALPHA = 0.05
DEFAULT_BETA = 0.05
MAX_ABS_ELO = 800.0
RUNNING_RETRY_AFTER = 60
"""Seconds a client is told to wait when its one running test is still running (a poll hint)."""


class NotFound(ServiceError):
    """A test (or version) that does not exist or is not the user's: the same answer for both."""

    status_code = 404
    code = "not_found"


def start_test(
    *,
    user: User | AnonymousUser,
    candidate_id: int,
    baseline_id: int,
    players: int | None = None,
    elo0: float = DEFAULT_ELO0,
    elo1: float = DEFAULT_ELO1,
    alpha: float = DEFAULT_ALPHA,
    beta: float = DEFAULT_BETA,
    max_games: int | None = None,
) -> VersionTest:
    """Start testing ``candidate`` against ``baseline`` (two validated versions of one of the
    user's bots) and queue its first pairs.  Refusals say why; over the per-user limits, a 429."""
    if not isinstance(user, User) or not user.is_authenticated:
        raise NotAllowed("log in to test your versions")
    candidate = _own_validated_version(user, candidate_id, "candidate")
    baseline = _own_validated_version(user, baseline_id, "baseline")
    if candidate.pk == baseline.pk:
        raise ServiceError("the candidate and the baseline must be different versions")
    if candidate.bot_id != baseline.bot_id:
        raise ServiceError("the candidate and the baseline must be versions of the same bot")
    ladder = _table(candidate.bot.game, players)
    max_games = settings.MONSOON_VERSUS_DEFAULT_MAX_GAMES if max_games is None else max_games
    _check_parameters(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, max_games=max_games)
    with transaction.atomic():
        _check_limits(user)  # exact under concurrency: it locks the user's row first
        test = VersionTest.objects.create(
            owner=user,
            bot=candidate.bot,
            candidate=candidate,
            baseline=baseline,
            ladder=ladder,
            elo0=elo0,
            elo1=elo1,
            alpha=alpha,
            beta=beta,
            max_games=max_games,
        )
        _top_up(test)
    return test


def cancel_test(*, user: User, test_id: int) -> VersionTest:
    """Stop a running test (the owner or staff); its matches still waiting are cancelled."""
    with transaction.atomic():
        test = _lock(test_id)
        if not (user.is_staff or test.owner_id == user.pk):
            raise NotFound(f"there is no version test {test_id}")
        if test.status != Status.RUNNING:
            raise Conflict(f"version test {test_id} is already {test.status}")
        _finish(test, Status.CANCELLED, f"cancelled by {user.username}")
    return test


def match_over(*, match_id: int) -> None:
    """Count a finished (or void a failed) version-test match,
    then stop the test or keep its pairs flowing.  Safe to call any number of times."""
    link = VersionTestGame.objects.filter(match_id=match_id).values("test_id").first()
    if link is None:
        return  # not a version-test match
    with transaction.atomic():
        test = _lock(link["test_id"])
        # The claim: only the first call for an ended match turns ``counted`` true.
        claimed = VersionTestGame.objects.filter(
            match_id=match_id, counted=False, match__status__in=Match.Status.over()
        ).update(counted=True)
        if not claimed:
            return
        game = VersionTestGame.objects.select_related("match").get(match_id=match_id)
        _score(game)
        if test.status != Status.RUNNING:
            return
        if game.void:
            _void_sibling(game)
        if _fold_pair(test, game.pair):
            _advance(test)


def sweep() -> list[int]:
    """The backstop for a missed call (a process killed between a result's commit and its
    :func:`match_over`): every ended, uncounted match of a running test is counted now.
    Returns those match ids; counting is idempotent, so a sweep racing the hook is harmless."""
    missed = list(
        VersionTestGame.objects.filter(
            counted=False, test__status=Status.RUNNING, match__status__in=Match.Status.over()
        )
        .order_by("match_id")
        .values_list("match_id", flat=True)
    )
    for match_id in missed:
        match_over(match_id=match_id)
    return missed


# --- internals (call with the test row locked) -----------------------------------------------


def _lock(test_id: int) -> VersionTest:
    try:
        return VersionTest.objects.select_for_update().get(pk=test_id)
    except VersionTest.DoesNotExist:
        raise NotFound(f"there is no version test {test_id}") from None


def _own_validated_version(user: User, version_id: int, role: str) -> BotVersion:
    # Another user's version is answered exactly like a missing one: its id must not leak.
    version = (
        BotVersion.objects.select_related("bot").filter(pk=version_id, bot__owner=user).first()
    )
    if version is None:
        raise NotFound(f"no such version of yours: {version_id} (the {role})")
    # Uploading a version retires the one before it: a retired version passed validation too.
    if version.status not in TESTABLE:
        raise Conflict(
            f"{version.label} (the {role}) is {version.status}; only validated (active or "
            "retired) versions can be tested"
        )
    return version


def _table(game: str, players: int | None) -> Ladder:
    spec = get_game(game)
    tables = Ladder.objects.filter(game=game, num_players__gte=2).order_by("num_players")
    ladder = tables.first() if players is None else tables.filter(num_players=players).first()
    if ladder is None:
        raise ServiceError(
            f"{game} is for {spec.min_players}-{spec.max_players} players, not {players}"
        )
    return ladder


def _check_parameters(
    *, elo0: float, elo1: float, alpha: float, beta: float, max_games: int
) -> None:
    for name, value in (("elo0", elo0), ("elo1", elo1)):
        if not (math.isfinite(value) and abs(value) <= MAX_ABS_ELO):
            raise ServiceError(f"{name} must be a number from -{MAX_ABS_ELO:g} to {MAX_ABS_ELO:g}")
    if not elo1 > elo0:
        raise ServiceError("elo1 (the gain worth having) must be greater than elo0")
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not (math.isfinite(value) and 0.001 <= value <= 0.2):
            raise ServiceError(f"{name} must be from 0.001 to 0.2")
    cap = settings.MONSOON_VERSUS_MAX_GAMES
    if not (2 <= max_games <= cap and max_games % 2 == 0):
        raise ServiceError(f"max_games must be an even number from 2 to {cap}")


def _check_limits(user: User) -> None:
    lock_user(user)
    running = VersionTest.objects.filter(owner=user, status=Status.RUNNING)
    allowed = settings.MONSOON_VERSUS_RUNNING_PER_USER
    if running.count() >= allowed:
        first = running.order_by("id").values_list("pk", flat=True).first()
        raise RateLimited(
            f"you may run {allowed} version test(s) at a time; test {first} is still running "
            "(wait for it or cancel it)",
            retry_after=RUNNING_RETRY_AFTER,
        )
    hold_quota(
        user,
        VersionTest.objects.filter(owner=user),
        limit=settings.MONSOON_VERSUS_PER_DAY,
        window=timedelta(days=1),
        what="version tests",
    )


def _seats(pair: int, players: int) -> tuple[int, int]:
    """The two seats of a pair: successive pairs walk through every pair of seats."""
    choices = list(itertools.combinations(range(players), 2))
    return choices[pair % len(choices)]


def _start_pair(test: VersionTest) -> None:
    pair = test.next_pair
    first, second = _seats(pair, test.ladder.num_players)
    seed = new_seed()
    for leg, (candidate_seat, baseline_seat) in enumerate(((first, second), (second, first))):
        versions = [test.baseline] * test.ladder.num_players
        versions[candidate_seat] = test.candidate
        match = create_match(
            test.ladder,
            versions,
            kind=Match.Kind.VERSUS,
            ranked=False,
            requested_by=test.owner,
            seed=seed,
        )
        VersionTestGame.objects.create(
            test=test,
            match=match,
            pair=pair,
            leg=leg,
            candidate_seat=candidate_seat,
            baseline_seat=baseline_seat,
        )
    test.next_pair = pair + 1
    test.save(update_fields=["next_pair"])


def _pairs_in_flight(test: VersionTest) -> int:
    return (
        VersionTestGame.objects.filter(test=test, counted=False).values("pair").distinct().count()
    )


def _top_up(test: VersionTest) -> None:
    """Start pairs until the in-flight budget is used or the cap is covered."""
    max_pairs = test.max_games // 2
    in_flight = _pairs_in_flight(test)
    while (
        in_flight < settings.MONSOON_VERSUS_PAIRS_IN_FLIGHT
        and test.pair_count + in_flight < max_pairs
    ):
        _start_pair(test)
        in_flight += 1


def _score(game: VersionTestGame) -> None:
    """The candidate's score in one ended match, or void when the match has no result."""
    match = game.match
    ranking = ranking_of(match)
    if match.status != Match.Status.FINISHED or ranking is None:
        game.void = True
    else:
        game.score = sprt.game_score(ranking[game.candidate_seat], ranking[game.baseline_seat])
    game.save(update_fields=["void", "score"])


def _void_sibling(game: VersionTestGame) -> None:
    """A pair with a failed match can never count: its other match, if still waiting, is
    cancelled and claimed here (no ``match_over`` follows a cancel), so the pair leaves the
    flight."""
    sibling = VersionTestGame.objects.filter(test_id=game.test_id, pair=game.pair).exclude(
        pk=game.pk
    )
    for other in sibling.filter(counted=False):
        if cancel_match(other.match_id, reason="the other match of its pair failed"):
            VersionTestGame.objects.filter(pk=other.pk, counted=False).update(
                counted=True, void=True
            )


def _fold_pair(test: VersionTest, pair: int) -> bool:
    """Once both games of ``pair`` are counted, add it to the pentanomial (or to the void);
    True if it was folded in now."""
    legs = list(VersionTestGame.objects.filter(test=test, pair=pair).order_by("leg"))
    if len(legs) != 2 or not all(leg.counted for leg in legs):
        return False
    first, second = legs
    if first.void or second.void or first.score is None or second.score is None:
        test.void_pairs += 1
    else:
        cell = sprt.pair_outcome(first.score, second.score)
        pairs = list(test.pairs)
        pairs[cell] += 1
        test.pairs = pairs
    test.save(update_fields=["pairs", "void_pairs"])
    return True


def _advance(test: VersionTest) -> None:
    """Re-test after a pair: stop at a bound, at the cap or after too many void pairs; else
    keep the pairs flowing."""
    test.llr = sprt.pentanomial_llr(test.pairs, elo0=test.elo0, elo1=test.elo1)
    estimate = sprt.elo_estimate(test.pairs)
    if estimate is not None:
        test.elo, test.elo_low, test.elo_high = estimate.elo, estimate.low, estimate.high
    test.save(update_fields=["llr", "elo", "elo_low", "elo_high"])
    decision = sprt.decide(test.llr, sprt.wald_bounds(alpha=test.alpha, beta=test.beta))
    if decision is sprt.Decision.ACCEPT_H1:
        _finish(test, Status.ACCEPTED, "the log-likelihood ratio reached the upper bound")
    elif decision is sprt.Decision.ACCEPT_H0:
        _finish(test, Status.REJECTED, "the log-likelihood ratio reached the lower bound")
    elif test.games_counted >= test.max_games:
        _finish(test, Status.INCONCLUSIVE, f"{test.max_games} games played without a decision")
    elif test.void_pairs > _void_allowance(test):
        _finish(test, Status.CANCELLED, f"{test.void_pairs} pairs had a failed match")
    else:
        _top_up(test)


def _void_allowance(test: VersionTest) -> int:
    return max(3, test.max_games // 20)


def _finish(test: VersionTest, status: str, reason: str) -> None:
    test.status = status
    test.status_reason = reason
    test.finished_at = timezone.now()
    test.save(update_fields=["status", "status_reason", "finished_at"])
    waiting = VersionTestGame.objects.filter(test=test, counted=False).values_list(
        "match_id", flat=True
    )
    for match_id in waiting:
        cancel_match(match_id, reason=f"version test {test.pk} ended: {reason}")
