"""A small, fully specified pseudo-random generator owned by each game state.

Python's :mod:`random` is reproducible for ``random()`` but its derived methods
(``shuffle``, ``randrange``) have changed between releases.  A game log is only
seed + actions, so every draw must be identical on every machine and every
Python version: we implement SplitMix64 and our own rejection sampling.
"""

from __future__ import annotations

try:  # the interpreter's own SHA-256 (the same digest): a bot need not load OpenSSL to start
    from _sha256 import sha256  # type: ignore[import-not-found,unused-ignore]  # Python 3.11
except ImportError:  # pragma: no cover - other Python versions
    from hashlib import sha256

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (bots import this module)
if TYPE_CHECKING:
    from collections.abc import MutableSequence, Sequence
    from typing import TypeVar

    T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
_SPAN = 1 << 64


class Rng:
    """SplitMix64: a 64-bit state, trivially cloned, serialised as one integer."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    @classmethod
    def derive(cls, seed: int, *labels: str | int) -> Rng:
        """An independent stream for ``seed`` and ``labels`` (e.g. a bot's own dice)."""
        text = ":".join([str(seed), *map(str, labels)]).encode()
        return cls(int.from_bytes(sha256(text).digest()[:8], "big"))

    def copy(self) -> Rng:
        return Rng(self.state)

    def next_u64(self) -> int:
        self.state = state = (self.state + _GOLDEN) & _MASK
        z = ((state ^ (state >> 30)) * _MIX1) & _MASK
        z = ((z ^ (z >> 27)) * _MIX2) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias.

        :meth:`next_u64` is inlined here and in :meth:`shuffle`: search bots draw
        millions of numbers, and a method call per draw was a third of the cost. The
        stream of numbers is exactly the one :meth:`next_u64` gives.
        """
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _SPAN - _SPAN % n
        state = self.state
        while True:
            state = (state + _GOLDEN) & _MASK
            z = ((state ^ (state >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            z ^= z >> 31
            if z < limit:
                self.state = state
                return z % n

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in ``[low, high]`` (both ends included, like a die)."""
        return low + self.below(high - low + 1)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates in place (each swap index drawn as :meth:`below` draws it)."""
        state = self.state
        for i in range(len(seq) - 1, 0, -1):
            n = i + 1
            limit = _SPAN - _SPAN % n
            while True:
                state = (state + _GOLDEN) & _MASK
                z = ((state ^ (state >> 30)) * _MIX1) & _MASK
                z = ((z ^ (z >> 27)) * _MIX2) & _MASK
                z ^= z >> 31
                if z < limit:
                    break
            j = z % n
            seq[i], seq[j] = seq[j], seq[i]
        self.state = state
