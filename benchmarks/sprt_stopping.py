"""When the version-test SPRT stops on one-sided data: pairs needed, by Elo band.

Run: ``.venv/bin/python benchmarks/sprt_stopping.py``.  Pure arithmetic (no clock): the figures
are exact for the code as it is, and docs/ladder.md quotes the default band's.
"""

from __future__ import annotations

from ladder.versus import sprt

BANDS = ((0.0, 10.0), (0.0, 20.0), (0.0, 40.0))
CELLS = {"every pair won (2 points)": 4, "every pair split (1 point)": 2}


def pairs_to_stop(cell: int, *, elo0: float, elo1: float, limit: int = 100_000) -> int | None:
    bounds = sprt.wald_bounds(alpha=0.05, beta=0.05)
    for n in range(1, limit):
        counts = [0] * 5
        counts[cell] = n
        llr = sprt.pentanomial_llr(counts, elo0=elo0, elo1=elo1)
        if sprt.decide(llr, bounds) is not sprt.Decision.CONTINUE:
            return n
    return None


def main() -> None:
    print("alpha = beta = 0.05; pairs until the SPRT stops")
    for label, cell in CELLS.items():
        for elo0, elo1 in BANDS:
            n = pairs_to_stop(cell, elo0=elo0, elo1=elo1)
            games = None if n is None else 2 * n
            print(f"  {label:28s} [{elo0:g}, {elo1:g}] Elo: {n} pairs ({games} games)")


if __name__ == "__main__":
    main()
