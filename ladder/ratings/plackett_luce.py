"""The Plackett-Luce rating model on the Elo scale (pure numpy: no Django, no I/O).

Each bot has a strength ``theta`` (natural units).  A table's finishing order is drawn by picking
the winner with probability ``exp(theta_i) / sum(exp(theta))`` among those left, then second
among the rest, and so on.  For two players this is exactly Elo's expectation::

    P(a beats b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))   with   R = 1500 + 400 / ln(10) * theta

Shared places use Breslow's rule: every tied player "wins" the stage among all players placed at
or below the tie, which for two players is Elo's half point.

The fit is a maximum a posteriori estimate over the whole match history (a Gaussian prior keeps a
bot that won or lost everything finite), found by Newton's method, so it does not depend on the
order of matches.  Its 95% interval comes from a bootstrap over matches.  Between refits a
one-step Bayesian update per match (the same likelihood, Gaussian beliefs) gives live ratings.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO_SCALE = 400.0 / math.log(10.0)
ELO_BASE = 1500.0
PRIOR_SD = 2.0  # natural units: about 350 Elo
DRIFT_SD = 0.02  # per match, for live updates: skill may change a little
MAX_NEWTON_STEPS = 50


def to_elo(theta: np.ndarray | float) -> np.ndarray | float:
    return ELO_BASE + ELO_SCALE * theta


def to_theta(elo: np.ndarray | float) -> np.ndarray | float:
    return (elo - ELO_BASE) / ELO_SCALE


def elo_expected(rating_a: float, rating_b: float) -> float:
    """Classic Elo: the expected score of ``a`` against ``b``."""
    return 1.0 / (1.0 + 10.0 ** ((rating_b - rating_a) / 400.0))


def order_probability(ratings: list[float], order: list[int]) -> float:
    """Probability that seats finish in ``order`` (best first) given Elo-scale ratings."""
    strengths = [math.exp(to_theta(r)) for r in ratings]
    probability = 1.0
    remaining = list(order)
    while len(remaining) > 1:
        winner = remaining[0]
        probability *= strengths[winner] / sum(strengths[i] for i in remaining)
        remaining = remaining[1:]
    return probability


@dataclass
class Matches:
    """A ladder's history in array form: one row per match, one column per seat.

    ``players[m, s]`` is the index of the bot in seat ``s`` of match ``m``; ``ranks[m, s]`` its
    place (1 = best, ties share).  All matches of one ladder have the same table size.
    """

    players: np.ndarray  # (M, n) int
    ranks: np.ndarray  # (M, n) int
    num_players: int  # number of distinct bots (indices 0..num_players-1)

    def __post_init__(self) -> None:
        self.players = np.asarray(self.players, dtype=np.int64)
        self.ranks = np.asarray(self.ranks, dtype=np.int64)
        if self.players.shape != self.ranks.shape or self.players.ndim != 2:
            raise ValueError("players and ranks must be (matches, seats) arrays of one shape")
        # risk[m, j, k]: is seat k still unplaced when seat j's place is decided?
        self.risk = (self.ranks[:, None, :] >= self.ranks[:, :, None]).astype(float)

    def __len__(self) -> int:
        return self.players.shape[0]

    def subset(self, rows: np.ndarray) -> Matches:
        return Matches(self.players[rows], self.ranks[rows], self.num_players)


def _stage_probabilities(theta: np.ndarray, data: Matches) -> tuple[np.ndarray, np.ndarray]:
    """q[m, j, k]: probability seat k takes stage j; and log of each stage's denominator."""
    seat_theta = theta[data.players]
    shift = seat_theta.max(axis=1, keepdims=True)
    expo = np.exp(seat_theta - shift)  # (M, n)
    denom = np.einsum("mjk,mk->mj", data.risk, expo)  # (M, n)
    q = data.risk * (expo[:, None, :] / denom[:, :, None])  # (M, n, n)
    return q, np.log(denom) + shift


def log_likelihood(theta: np.ndarray, data: Matches, weights: np.ndarray | None = None) -> float:
    """Log-probability of every observed finishing order (no prior)."""
    _, log_denom = _stage_probabilities(theta, data)
    per_match = (theta[data.players] - log_denom).sum(axis=1)
    if weights is not None:
        per_match = per_match * weights
    return float(per_match.sum())


# Beyond this many bots the Hessian is never formed (10,000 bots would be 800 MB per copy and an
# hour to invert): Newton steps use Hessian-vector products, and the Laplace deviation comes from
# the diagonal (see ``posterior_sd``).
DENSE_LIMIT = 2000


@dataclass
class Curvature:
    """The negative log-posterior's Hessian, kept as one small block per match.

    ``blocks[m]`` is match m's (seats x seats) curvature; the Hessian is their sum scattered to
    the seated bots plus the prior's ``1 / prior_var`` on the diagonal.  Products with it cost
    one pass over the matches, so a ladder of any size needs memory only in its match count.
    """

    blocks: np.ndarray  # (M, n, n)
    players: np.ndarray  # (M, n)
    size: int
    prior_precision: float | np.ndarray

    @property
    def diagonal(self) -> np.ndarray:
        n = self.players.shape[1]
        own = self.blocks[:, np.arange(n), np.arange(n)]
        diag = np.bincount(self.players.ravel(), own.ravel(), minlength=self.size)
        return diag + self.prior_precision

    def matvec(self, vector: np.ndarray) -> np.ndarray:
        per_seat = np.einsum("mkl,ml->mk", self.blocks, vector[self.players])
        product = np.bincount(self.players.ravel(), per_seat.ravel(), minlength=self.size)
        return product + self.prior_precision * vector

    def dense(self) -> np.ndarray:
        pairs = (self.players[:, :, None] * self.size + self.players[:, None, :]).ravel()
        flat = np.bincount(pairs, self.blocks.ravel(), minlength=self.size * self.size)
        hessian: np.ndarray = flat.reshape(self.size, self.size)
        hessian[np.diag_indices(self.size)] += self.prior_precision
        return hessian


Prior = float | np.ndarray  # one value for every bot, or one per bot


def _evaluate(
    theta: np.ndarray,
    data: Matches,
    weights: np.ndarray | None,
    prior_var: Prior,
    prior_mean: Prior = 0.0,
) -> tuple[float, np.ndarray, Curvature]:
    """Log-posterior, its gradient, and the curvature of its negative (positive definite).

    The prior is Gaussian around ``prior_mean`` (0 for a fresh ladder; a season that carries
    ratings over centres each bot on its rating at the season's start)."""
    size = data.num_players
    q, log_denom = _stage_probabilities(theta, data)
    per_match = (theta[data.players] - log_denom).sum(axis=1)
    taken = q.sum(axis=1)  # (M, n): expected stage wins of each seat
    seat_grad = 1.0 - taken
    block = -np.einsum("mjk,mjl->mkl", q, q, optimize=True)  # (M, n, n)
    n = data.players.shape[1]
    block[:, np.arange(n), np.arange(n)] += taken
    if weights is not None:
        per_match = per_match * weights
        seat_grad = seat_grad * weights[:, None]
        block = block * weights[:, None, None]
    offset = theta - prior_mean
    value = float(per_match.sum()) - float(np.sum(offset * offset / prior_var)) / 2
    grad: np.ndarray = np.bincount(data.players.ravel(), seat_grad.ravel(), minlength=size)
    grad -= offset / prior_var
    return value, grad, Curvature(block, data.players, size, 1.0 / prior_var)


def _solve_spd(curvature: Curvature, rhs: np.ndarray, rtol: float = 1e-10) -> np.ndarray:
    """Solve ``H @ x = rhs`` for the (symmetric positive definite) Hessian ``H``.

    Conjugate gradients with a Jacobi preconditioner on Hessian-vector products: the Hessian is
    diagonally dominant (a bot's own curvature outweighs what it shares with any one opponent),
    so this converges in a few dozen products, each one pass over the matches.
    """
    inverse_diagonal = 1.0 / curvature.diagonal
    x = np.zeros_like(rhs)
    residual = rhs.copy()
    z = inverse_diagonal * residual
    direction = z.copy()
    rz = float(residual @ z)
    target = rtol * float(rhs @ rhs)
    for _ in range(min(4 * len(rhs), 2000)):
        if float(residual @ residual) <= target:
            return x
        product = curvature.matvec(direction)
        alpha = rz / float(direction @ product)
        x += alpha * direction
        residual -= alpha * product
        z = inverse_diagonal * residual
        rz_next = float(residual @ z)
        direction = z + (rz_next / rz) * direction
        rz = rz_next
    if curvature.size <= DENSE_LIMIT:
        return np.linalg.solve(curvature.dense(), rhs)
    return x


def fit(
    data: Matches,
    *,
    weights: np.ndarray | None = None,
    start: np.ndarray | None = None,
    prior_sd: Prior = PRIOR_SD,
    prior_mean: Prior = 0.0,
    tol: float = 1e-5,
    max_steps: int = MAX_NEWTON_STEPS,
) -> np.ndarray:
    """Maximum a posteriori strengths (natural units) by damped Newton steps.

    The log-posterior is concave, so Newton's method converges in a handful of steps; a step
    that would lower it is halved.  ``tol`` is in natural units (1e-5 is 0.002 Elo).
    """
    prior_var = np.square(prior_sd)
    if start is None:
        theta = np.zeros(data.num_players) + prior_mean
    else:
        theta = np.array(start, dtype=float)
    if len(data) == 0:
        return theta
    value, grad, curvature = _evaluate(theta, data, weights, prior_var, prior_mean)
    for _ in range(max_steps):
        step = _solve_spd(curvature, grad)
        scale = 1.0
        while True:
            candidate = theta + scale * step
            new_value, new_grad, new_curvature = _evaluate(
                candidate, data, weights, prior_var, prior_mean
            )
            if new_value >= value - 1e-9 * abs(value) or scale < 1e-4:
                break
            scale /= 2
        theta, value, grad, curvature = candidate, new_value, new_grad, new_curvature
        if np.max(np.abs(scale * step)) < tol:
            break
    return theta


@dataclass
class FitResult:
    theta: np.ndarray  # point estimate, natural units
    low: np.ndarray  # 2.5% bootstrap quantile
    high: np.ndarray  # 97.5% bootstrap quantile
    sd: np.ndarray  # bootstrap standard deviation
    games: np.ndarray  # matches played per bot

    @property
    def elo(self) -> np.ndarray:
        return np.asarray(to_elo(self.theta))


def posterior_sd(data: Matches, theta: np.ndarray, prior_sd: Prior = PRIOR_SD) -> np.ndarray:
    """Standard deviations from the curvature of the log-posterior at ``theta`` (Laplace).

    Results only say how bots compare, so the uncertainty of a common shift of every rating
    (fixed by the prior alone) is projected out: these are the deviations of each bot's
    strength relative to the ladder's mean.

    Up to ``DENSE_LIMIT`` bots this inverts the Hessian.  Beyond, a bot's deviation given its
    opponents' strengths (``1 / sqrt(H_ii)``) stands in: on a ladder that size every bot meets
    hundreds of different opponents, each of whom it shares little curvature with, so the two
    differ by a few percent (``benchmarks/ratings_refit.py`` prints both); and refits with a
    bootstrap take the wider of this and the bootstrap's spread.
    """
    _, _, curvature = _evaluate(theta, data, None, np.square(prior_sd))
    if data.num_players > DENSE_LIMIT:
        return 1.0 / np.sqrt(curvature.diagonal)
    cov = np.linalg.inv(curvature.dense())
    centred = cov - cov.mean(axis=0, keepdims=True)
    centred -= centred.mean(axis=1, keepdims=True)
    return np.sqrt(np.clip(np.diag(centred), 0.0, None))


def fit_with_interval(
    data: Matches,
    *,
    samples: int = 100,
    seed: int = 0,
    prior_sd: Prior = PRIOR_SD,
    prior_mean: Prior = 0.0,
    bootstrap_steps: int = 2,
) -> FitResult:
    """The full-history fit plus a 95% interval from a bootstrap over matches.

    Each bootstrap replicate reweights matches by how often they were drawn (multinomial) and
    refits starting from the full fit; ``bootstrap_steps`` Newton steps from there are enough
    because the replicate's optimum is close (a one-step bootstrap is already second order).

    A bootstrap cannot see uncertainty the data never shows: a bot that won every game wins
    every game in every resample, so its percentile interval collapses.  The interval is
    therefore never narrower than the posterior's own (Laplace) 95% interval.
    """
    theta = fit(data, prior_sd=prior_sd, prior_mean=prior_mean)
    games = np.bincount(data.players.ravel(), minlength=data.num_players)
    if len(data) == 0:
        sd = np.zeros(data.num_players) + prior_sd
        return FitResult(theta, theta - 1.96 * sd, theta + 1.96 * sd, sd, games)
    laplace = posterior_sd(data, theta, prior_sd)
    low, high, sd = theta - 1.96 * laplace, theta + 1.96 * laplace, laplace
    if samples > 0:
        rng = np.random.default_rng(seed)
        replicates = np.empty((samples, data.num_players))
        count = len(data)
        for b in range(samples):
            weights = np.bincount(rng.integers(0, count, count), minlength=count).astype(float)
            replicates[b] = fit(
                data,
                weights=weights,
                start=theta,
                prior_sd=prior_sd,
                prior_mean=prior_mean,
                max_steps=bootstrap_steps,
            )
        boot_low, boot_high = np.percentile(replicates, [2.5, 97.5], axis=0)
        low, high = np.minimum(low, boot_low), np.maximum(high, boot_high)
        sd = np.maximum(sd, replicates.std(axis=0))
    return FitResult(theta, low, high, sd, games)


def live_update(
    mu: np.ndarray, sd: np.ndarray, ranks: np.ndarray, *, drift_sd: float = DRIFT_SD
) -> tuple[np.ndarray, np.ndarray]:
    """One match's Bayesian update of Gaussian beliefs (mu, sd in natural units), per seat.

    One Newton step of the match's Plackett-Luce likelihood from the prior belief (the
    Laplace approximation), the way Weng and Lin's online ranking works; the result feeds the
    matchmaker until the next full refit replaces it.
    """
    mu = np.asarray(mu, dtype=float)
    var = np.asarray(sd, dtype=float) ** 2 + drift_sd**2
    ranks = np.asarray(ranks)
    risk = ranks[None, :] >= ranks[:, None]
    expo = np.exp(mu - mu.max())
    weighted = risk * expo[None, :]
    q = weighted / weighted.sum(axis=1, keepdims=True)
    taken = q.sum(axis=0)
    grad = 1.0 - taken
    curvature = taken - (q * q).sum(axis=0)
    new_var = 1.0 / (1.0 / var + curvature)
    return mu + new_var * grad, np.sqrt(new_var)


def spearman(a: np.ndarray, b: np.ndarray) -> float:
    """Spearman rank correlation (no tie correction: strengths are continuous)."""
    ra = np.argsort(np.argsort(a)).astype(float)
    rb = np.argsort(np.argsort(b)).astype(float)
    ra -= ra.mean()
    rb -= rb.mean()
    denominator = math.sqrt(float(ra @ ra) * float(rb @ rb))
    return float(ra @ rb) / denominator if denominator else 0.0
