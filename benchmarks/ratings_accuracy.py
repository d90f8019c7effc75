"""Rating accuracy on simulated ladders: our Plackett-Luce fit vs pairwise Elo and TrueSkill.

Each simulated ladder has bots with known true strengths; tables of ``k`` random bots finish in a
Plackett-Luce order (Gumbel noise on the true strength, so ties never happen).  Every method sees
the same training matches in the same order; we print

- the held-out winner log-loss: mean ``-log P(actual winner)`` on matches none of them saw
  (lower is better), and
- the rank agreement: Spearman correlation of the estimated and the true strengths.

Elo is pairwise with K=16 (each table counts as every pair of its players, win/loss by place);
TrueSkill is the ``trueskill`` package's multiplayer update with default settings, and its winner
probability is estimated by sampling performances (mu + N(0, sigma^2 + beta^2)).

Run: ``.venv/bin/python -m benchmarks.ratings_accuracy``
"""

from __future__ import annotations

import argparse
import math
import time
from itertools import combinations

import numpy as np
import trueskill

from ladder.ratings import plackett_luce as pl


def simulate(
    rng: np.random.Generator, bots: int, matches: int, table: int, spread: float, noise: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    truth = rng.normal(0.0, spread, bots)
    players = np.array([rng.choice(bots, table, replace=False) for _ in range(matches)])
    if noise == "gumbel":  # exactly the Plackett-Luce model
        noisy = truth[players] + rng.gumbel(size=players.shape)
    else:  # Thurstone's normal performances: TrueSkill's own model, not ours
        noisy = truth[players] + rng.normal(0.0, 1.28, size=players.shape)
    ranks = np.argsort(np.argsort(-noisy, axis=1), axis=1) + 1
    return truth, players, ranks


def elo_k16(players: np.ndarray, ranks: np.ndarray, bots: int) -> np.ndarray:
    ratings = np.full(bots, 1500.0)
    for seats, places in zip(players, ranks, strict=True):
        delta = np.zeros(len(seats))
        for a, b in combinations(range(len(seats)), 2):
            expected = 1.0 / (1.0 + 10 ** ((ratings[seats[b]] - ratings[seats[a]]) / 400.0))
            score = 1.0 if places[a] < places[b] else 0.0 if places[a] > places[b] else 0.5
            delta[a] += 16 * (score - expected)
            delta[b] -= 16 * (score - expected)
        ratings[seats] += delta
    return ratings


def trueskill_fit(
    players: np.ndarray, ranks: np.ndarray, bots: int
) -> tuple[np.ndarray, np.ndarray, float]:
    env = trueskill.TrueSkill(draw_probability=0.0)
    ratings = [env.create_rating() for _ in range(bots)]
    for seats, places in zip(players, ranks, strict=True):
        groups = [(ratings[s],) for s in seats]
        updated = env.rate(groups, ranks=[int(p) - 1 for p in places])
        for s, (new,) in zip(seats, updated, strict=True):
            ratings[s] = new
    mu = np.array([r.mu for r in ratings])
    sigma = np.array([r.sigma for r in ratings])
    return mu, sigma, float(env.beta)


def winner_logloss_softmax(theta: np.ndarray, players: np.ndarray, ranks: np.ndarray) -> float:
    """-log P(winner) when the winner is drawn with probability softmax(theta) (PL and Elo)."""
    seat_theta = theta[players]
    seat_theta = seat_theta - seat_theta.max(axis=1, keepdims=True)
    log_p = seat_theta - np.log(np.exp(seat_theta).sum(axis=1, keepdims=True))
    winners = np.argmin(ranks, axis=1)
    return float(-log_p[np.arange(len(players)), winners].mean())


def winner_logloss_trueskill(
    mu: np.ndarray,
    sigma: np.ndarray,
    beta: float,
    players: np.ndarray,
    ranks: np.ndarray,
    rng: np.random.Generator,
    samples: int = 4000,
) -> float:
    sd = np.sqrt(sigma[players] ** 2 + beta**2)
    draws = mu[players][:, None, :] + sd[:, None, :] * rng.normal(
        size=(len(players), samples, players.shape[1])
    )
    winners_drawn = draws.argmax(axis=2)
    actual = np.argmin(ranks, axis=1)
    p = (winners_drawn == actual[:, None]).mean(axis=1)
    return float(-np.log(np.clip(p, 1.0 / samples, 1.0)).mean())


def run(
    seed: int, bots: int, train: int, test: int, table: int, spread: float, noise: str
) -> dict[str, tuple[float, float, float]]:
    rng = np.random.default_rng(seed)
    truth, players, ranks = simulate(rng, bots, train + test, table, spread, noise)
    tr, te = slice(0, train), slice(train, train + test)
    results: dict[str, tuple[np.ndarray, float]] = {}
    start = time.perf_counter()
    theta = pl.fit(pl.Matches(players[tr], ranks[tr], bots))
    results["Plackett-Luce fit"] = (theta, time.perf_counter() - start)
    start = time.perf_counter()
    elo = elo_k16(players[tr], ranks[tr], bots)
    results["Elo K=16 (pairwise)"] = (np.asarray(pl.to_theta(elo)), time.perf_counter() - start)
    start = time.perf_counter()
    mu, sigma, beta = trueskill_fit(players[tr], ranks[tr], bots)
    ts_seconds = time.perf_counter() - start
    out = {}
    for name, (estimate, seconds) in results.items():
        out[name] = (
            winner_logloss_softmax(estimate, players[te], ranks[te]),
            pl.spearman(estimate, truth),
            seconds,
        )
    out["TrueSkill"] = (
        winner_logloss_trueskill(mu, sigma, beta, players[te], ranks[te], rng),
        pl.spearman(mu, truth),
        ts_seconds,
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--bots", type=int, default=40)
    parser.add_argument("--test", type=int, default=1000)
    args = parser.parse_args()
    print(
        f"{args.bots} bots, true strengths N(0, spread) in natural units, "
        f"{args.seeds} seeds each, {args.test} held-out matches"
    )
    cases = [
        (2, 400, 1.0, "gumbel"),
        (2, 2000, 1.0, "gumbel"),
        (4, 400, 1.0, "gumbel"),
        (4, 2000, 1.0, "gumbel"),
        (4, 2000, 0.5, "gumbel"),
        (5, 1000, 1.5, "gumbel"),
        (2, 1000, 1.0, "normal"),
        (4, 1000, 1.0, "normal"),
    ]
    all_good = True
    for table, train, spread, noise in cases:
        totals: dict[str, np.ndarray] = {}
        for seed in range(args.seeds):
            for name, values in run(
                seed, args.bots, train, args.test, table, spread, noise
            ).items():
                totals.setdefault(name, np.zeros(3))
                totals[name] += np.array(values) / args.seeds
        print(f"\n{table}-player tables, {train} training matches, spread {spread}, {noise} noise")
        print(f"  {'method':<24} {'winner log-loss':>16} {'Spearman':>9} {'seconds':>8}")
        for name, (loss, rho, seconds) in totals.items():
            print(f"  {name:<24} {loss:>16.4f} {rho:>9.3f} {seconds:>8.3f}")
        ours = totals["Plackett-Luce fit"]
        others = [totals["Elo K=16 (pairwise)"], totals["TrueSkill"]]
        verdict = all(ours[0] <= o[0] + 1e-9 and ours[1] >= o[1] - 1e-9 for o in others)
        all_good &= verdict
        print(f"  fit at least as good as Elo and TrueSkill on both measures: {verdict}")
    print(f"\n(uniform guess log-loss for k players: ln k, e.g. {math.log(4):.4f} for 4)")
    print(f"fit at least as good in every case: {all_good}")


if __name__ == "__main__":
    main()
