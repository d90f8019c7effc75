"""The statistics of a version test: a pentanomial GSPRT and the Elo estimate (pure functions).

A version test plays *pairs* of games: both games of a pair share a seed, and the candidate and
the baseline swap seats between them.  Each game gives the candidate 1 (placed above the
baseline), 1/2 (same place) or 0, so a pair scores 0, 1/2, 1, 3/2 or 2: five outcomes, the
*pentanomial*.  Counting pairs rather than games keeps what the shared seed and the seat swap
cancel out (a lucky deal, a favoured seat) out of the variance, so the test stops sooner.

The sequential test is the generalised SPRT engine-testing fleets use: the hypotheses are
"the candidate's expected game score is ``s0``" (H0, from ``elo0``) against "it is ``s1``" (H1,
from ``elo1``), on logistic Elo, ``s = 1 / (1 + 10 ** (-elo / 400))``.  Under each hypothesis
the pair outcome distribution is the one of greatest likelihood given the observed counts and
the constraint that its mean is ``s``; the log-likelihood ratio of the two is compared with
Wald's bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.

The constrained maximum-likelihood distribution has the form ``p_i = q_i / (1 + lam * (a_i - s))``
(``q`` the observed frequencies, ``a`` the outcome values scaled to [0, 1]), where ``lam`` is the
root of ``sum q_i (a_i - s) / (1 + lam (a_i - s)) = 0``; that sum falls as ``lam`` grows, so a
bisection finds it.  With only two outcomes (win or loss) this reduces to Wald's classic test,
``W log(s1/s0) + L log((1-s1)/(1-s0))``, which the unit tests check.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

PAIR_OUTCOMES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A pair's score (0, 1/2, 1, 3/2 or 2 game points) as a share of its two games."""

EMPTY_CELL = 1e-3
"""Stand-in count for a pentanomial cell never seen, so that a run of, say, only won pairs still
has a finite likelihood ratio under a hypothesis whose mean needs the other outcomes."""

Z_95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


class Decision(Enum):
    CONTINUE = "continue"
    ACCEPT_H1 = "accept_h1"
    ACCEPT_H0 = "accept_h0"


@dataclass(frozen=True)
class Bounds:
    lower: float
    upper: float


@dataclass(frozen=True)
class EloEstimate:
    """Elo difference (candidate minus baseline) and its 95% interval; None where unbounded
    (every game won or lost: the data say "more than this", not how much)."""

    elo: float | None
    low: float | None
    high: float | None
    score: float


def elo_to_score(elo: float) -> float:
    """Expected game score of a player ``elo`` points stronger (logistic Elo)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    """The inverse of :func:`elo_to_score`, for a score strictly between 0 and 1."""
    if not 0.0 < score < 1.0:
        raise ValueError(f"a score of {score} has no finite Elo difference")
    return -400.0 * math.log10(1.0 / score - 1.0)


def wald_bounds(*, alpha: float, beta: float) -> Bounds:
    """Stop for H0 at or below ``lower``, for H1 at or above ``upper``."""
    if not (0.0 < alpha < 0.5 and 0.0 < beta < 0.5):
        raise ValueError("alpha and beta must lie strictly between 0 and 0.5")
    return Bounds(lower=math.log(beta / (1.0 - alpha)), upper=math.log((1.0 - beta) / alpha))


def constrained_mle(
    frequencies: Sequence[float], outcomes: Sequence[float], *, mean: float
) -> list[float]:
    """The distribution on ``outcomes`` of greatest likelihood for ``frequencies`` whose mean is
    ``mean``.  Every frequency must be positive and ``mean`` strictly inside the outcomes'
    range."""
    if len(frequencies) != len(outcomes) or not frequencies:
        raise ValueError("one frequency per outcome is needed")
    if any(q <= 0.0 for q in frequencies):
        raise ValueError("every frequency must be positive (regularise empty cells first)")
    if not min(outcomes) < mean < max(outcomes):
        raise ValueError(f"mean {mean} is not strictly inside the outcomes' range")
    total = math.fsum(frequencies)
    q = [f / total for f in frequencies]
    d = [a - mean for a in outcomes]
    # 1 + lam * d_i > 0 for every i bounds lam on both sides.
    lo = -1.0 / max(d)
    hi = -1.0 / min(d)
    lo, hi = lo + (hi - lo) * 1e-15, hi - (hi - lo) * 1e-15

    def slope(lam: float) -> float:
        return math.fsum(qi * di / (1.0 + lam * di) for qi, di in zip(q, d, strict=True))

    for _ in range(200):
        mid = (lo + hi) / 2.0
        if slope(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2.0
    p = [qi / (1.0 + lam * di) for qi, di in zip(q, d, strict=True)]
    norm = math.fsum(p)
    return [pi / norm for pi in p]


def log_likelihood_ratio(
    counts: Sequence[float], outcomes: Sequence[float], *, s0: float, s1: float
) -> float:
    """log L(H1) - log L(H0) for ``counts`` of each outcome (all positive)."""
    n = math.fsum(counts)
    if n <= 0.0:
        return 0.0
    p0 = constrained_mle(counts, outcomes, mean=s0)
    p1 = constrained_mle(counts, outcomes, mean=s1)
    return math.fsum(c * math.log(a / b) for c, a, b in zip(counts, p1, p0, strict=True))


def regularised(pentanomial: Sequence[int]) -> list[float]:
    """The pair counts with :data:`EMPTY_CELL` in place of every zero."""
    return [float(c) if c > 0 else EMPTY_CELL for c in pentanomial]


def pentanomial_llr(pentanomial: Sequence[int], *, elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for pair counts
    ``[0, 1/2, 1, 3/2, 2 points]``; 0 before the first pair."""
    _check_pentanomial(pentanomial)
    if sum(pentanomial) == 0:
        return 0.0
    return log_likelihood_ratio(
        regularised(pentanomial),
        PAIR_OUTCOMES,
        s0=elo_to_score(elo0),
        s1=elo_to_score(elo1),
    )


def decide(llr: float, bounds: Bounds) -> Decision:
    if llr >= bounds.upper:
        return Decision.ACCEPT_H1
    if llr <= bounds.lower:
        return Decision.ACCEPT_H0
    return Decision.CONTINUE


def elo_estimate(pentanomial: Sequence[int]) -> EloEstimate | None:
    """The candidate's mean game score as an Elo difference, with a 95% interval from the
    spread of pair scores (normal approximation); None before the first pair."""
    _check_pentanomial(pentanomial)
    n = sum(pentanomial)
    if n == 0:
        return None
    mean = math.fsum(c * a for c, a in zip(pentanomial, PAIR_OUTCOMES, strict=True)) / n
    variance = (
        math.fsum(c * (a - mean) ** 2 for c, a in zip(pentanomial, PAIR_OUTCOMES, strict=True)) / n
    )
    if mean in (0.0, 1.0):
        # No spread to measure: every pair was won (or lost).  Then the share of fully won pairs
        # is at least 0.025 ** (1 / n) with 97.5% confidence, and the mean score at least that.
        bound = _elo_or_none(0.025 ** (1.0 / n)) if n > 0 else None
        if mean == 1.0:
            return EloEstimate(elo=None, low=bound, high=None, score=mean)
        return EloEstimate(elo=None, low=None, high=None if bound is None else -bound, score=mean)
    half_width = Z_95 * math.sqrt(variance / n)
    return EloEstimate(
        elo=_elo_or_none(mean),
        low=_elo_or_none(mean - half_width) if mean - half_width > 0.0 else None,
        high=_elo_or_none(mean + half_width) if mean + half_width < 1.0 else None,
        score=mean,
    )


def _elo_or_none(score: float) -> float | None:
    return score_to_elo(score) + 0.0 if 0.0 < score < 1.0 else None


def _check_pentanomial(pentanomial: Sequence[int]) -> None:
    if len(pentanomial) != len(PAIR_OUTCOMES) or any(c < 0 for c in pentanomial):
        raise ValueError("a pentanomial is five non-negative pair counts")


def pair_outcome(first: float, second: float) -> int:
    """The pentanomial cell (0..4) of a pair whose games gave the candidate ``first`` and
    ``second`` (each 0, 0.5 or 1)."""
    for score in (first, second):
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game scores 0, 0.5 or 1, not {score}")
    return round((first + second) * 2)


def game_score(candidate_place: int, baseline_place: int) -> float:
    """1 when the candidate finished above the baseline, 1/2 on the same place, else 0."""
    if candidate_place < baseline_place:
        return 1.0
    if candidate_place == baseline_place:
        return 0.5
    return 0.0
