"""Reproducible pseudo-random generators, for draws that must replay identically from a seed.

Matchmaking runs seeded from the command line and tournament match seeds derived from the
tournament's seed are meant to repeat exactly; nothing secret is ever drawn from them.  This is
the one place that builds such a generator (ruff's S311 is waived for this file alone); draws
that need not repeat use ``random.SystemRandom``.
"""

from __future__ import annotations

import random


def seeded_random(seed: int | str) -> random.Random:
    """A Mersenne Twister generator seeded with ``seed``: the same seed, the same draws."""
    return random.Random(seed)
