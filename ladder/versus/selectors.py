"""Reads for version tests: only the owner (and staff) ever see a test or its matches."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.db.models import QuerySet

from ladder.accounts.models import User
from ladder.versus import sprt
from ladder.versus.models import VersionTest, VersionTestGame


def visible_tests(user: User | AnonymousUser | None) -> QuerySet[VersionTest]:
    """The user's own tests; staff see all; anonymous visitors none."""
    qs = VersionTest.objects.select_related("bot", "candidate", "baseline", "ladder")
    if getattr(user, "is_staff", False):
        return qs
    if not isinstance(user, User) or not user.is_authenticated:
        return qs.none()
    return qs.filter(owner=user)


def test_for(user: User | AnonymousUser | None, test_id: int) -> VersionTest | None:
    """The test if the user may see it; None alike for a missing test and someone else's."""
    return visible_tests(user).filter(pk=test_id).first()


def tests_of_bot(user: User | AnonymousUser | None, bot_id: int) -> QuerySet[VersionTest]:
    return visible_tests(user).filter(bot_id=bot_id)


@dataclass(frozen=True)
class Progress:
    """What a test's page and the API report beside the stored counters."""

    lower_bound: float
    upper_bound: float
    games_counted: int
    games_in_flight: int
    score: float | None


def progress(test: VersionTest) -> Progress:
    bounds = sprt.wald_bounds(alpha=test.alpha, beta=test.beta)
    estimate = sprt.elo_estimate(test.pairs)
    in_flight = VersionTestGame.objects.filter(test=test, counted=False).count()
    return Progress(
        lower_bound=bounds.lower,
        upper_bound=bounds.upper,
        games_counted=test.games_counted,
        games_in_flight=in_flight if test.status == VersionTest.Status.RUNNING else 0,
        score=None if estimate is None else estimate.score,
    )


def test_matches(test: VersionTest) -> QuerySet[VersionTestGame]:
    return VersionTestGame.objects.filter(test=test).select_related("match")
