"""Speed of the history-wide refit: 100,000 matches over 1,000 bots (target <= 2 s).

Prints the point fit alone (the target), the Laplace interval, and the cost per bootstrap
replicate, for 3- and 5-player tables.  The database side of a refit (reading 100,000 matches
and writing the ratings) is measured by ``benchmarks/api_load.py`` on a populated database.

Run: ``.venv/bin/python -m benchmarks.ratings_refit``
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ladder.ratings import plackett_luce as pl


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--bots", type=int, default=1_000)
    parser.add_argument("--replicates", type=int, default=10)
    args = parser.parse_args()
    for table in (3, 5):
        rng = np.random.default_rng(table)
        truth = rng.normal(0, 1, args.bots)
        players = (
            np.argsort(rng.random((args.matches, args.bots)), axis=1)[:, :table]
            if args.bots <= 64
            else np.stack(
                [rng.choice(args.bots, table, replace=False) for _ in range(args.matches)]
            )
        )
        noisy = truth[players] + rng.gumbel(size=players.shape)
        ranks = np.argsort(np.argsort(-noisy, axis=1), axis=1) + 1
        data = pl.Matches(players, ranks, args.bots)
        start = time.perf_counter()
        theta = pl.fit(data)
        fit_seconds = time.perf_counter() - start
        start = time.perf_counter()
        exact = pl.posterior_sd(data, theta)
        laplace_seconds = time.perf_counter() - start
        # Past pl.DENSE_LIMIT bots the deviation is read off the Hessian's diagonal: how far is
        # that from the exact (inverted) one on a ladder small enough to invert?
        _, _, curvature = pl._evaluate(theta, data, None, pl.PRIOR_SD**2)
        ratio = (1.0 / np.sqrt(curvature.diagonal)) / exact
        start = time.perf_counter()
        count = len(data)
        for _ in range(args.replicates):
            weights = np.bincount(rng.integers(0, count, count), minlength=count).astype(float)
            pl.fit(data, weights=weights, start=theta, max_steps=2)
        per_replicate = (time.perf_counter() - start) / args.replicates
        print(
            f"{table}-player tables, {args.matches} matches, {args.bots} bots: "
            f"fit {fit_seconds:.2f} s (target <= 2 s, Spearman vs truth "
            f"{pl.spearman(theta, truth):.3f}), Laplace interval {laplace_seconds:.2f} s, "
            f"bootstrap {per_replicate:.2f} s per replicate; diagonal deviation / exact: "
            f"median {np.median(ratio):.3f}, min {ratio.min():.3f}, max {ratio.max():.3f}"
        )


if __name__ == "__main__":
    main()
