"""Fast random orderings for ``determinize``: one draw of the state's generator per call.

:meth:`engine.rng.Rng.shuffle` spends one pure-Python 64-bit draw per card, which made
redealing a deck the bulk of a determinization.  Here one draw of the :class:`~engine.rng.Rng`
seeds SHAKE-128, whose output gives every item an independent 64-bit key; sorting by key is a
uniformly random order (a tie, of chance about n^2 / 2^65, keeps the original order), done in C.
The same generator state always gives the same orders, on every platform.
"""

from __future__ import annotations

import hashlib
import sys
from array import array
from collections.abc import Sequence
from typing import TypeVar

from engine.rng import Rng

T = TypeVar("T")


def random_orders(rng: Rng, sizes: Sequence[int]) -> list[list[int]]:
    """For each ``n`` in ``sizes``, a uniformly random ordering of ``range(n)``, independent."""
    total = sum(sizes)
    seed = rng.next_u64().to_bytes(8, "big")
    keys = array("Q", hashlib.shake_128(seed).digest(8 * total))
    if sys.byteorder == "big":
        keys.byteswap()  # the stream is read little-endian everywhere
    orders = []
    start = 0
    for n in sizes:
        part = keys[start : start + n]
        orders.append(sorted(range(n), key=part.__getitem__))
        start += n
    return orders


def shuffled(items: Sequence[T], rng: Rng) -> list[T]:
    """The items in a uniformly random order (a new list)."""
    (order,) = random_orders(rng, (len(items),))
    return [items[i] for i in order]
