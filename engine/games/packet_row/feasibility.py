"""Can a set of contracts still be fulfilled with what a player holds?

A fulfilment is decided in small steps (see :mod:`.state`); every step offers only
choices after which the whole shipment can still be completed, so a player who starts
a fulfilment can always finish it.  These two checks decide that.

Goods: ``demand[g]`` units of goods type ``g`` are still owed, summed over all contracts
of the shipment (goods may be split between contracts, so only the sums matter).  A goods
card covers its amount of its type, or of any other type with a trader (one trader per
card).  A single gold nugget covers one unit of any type, a double nugget two units of one
type.  Ships: each destination of the shipment needs its own ship; a ship of another
destination serves with a captain.
"""

from __future__ import annotations

from collections.abc import Sequence


def gold_covers(demand: Sequence[int], singles: int, doubles: int) -> bool:
    """Whether nuggets alone cover ``demand`` (doubles on pairs first is optimal)."""
    pairs = 0
    odd = 0
    total = 0
    for need in demand:
        pairs += need >> 1
        odd += need & 1
        total += need
    if doubles >= pairs:
        return odd <= doubles - pairs + singles
    return total - 2 * doubles <= singles


def goods_feasible(
    demand: Sequence[int],
    goods: Sequence[tuple[int, int]],
    traders: int,
    singles: int,
    doubles: int,
) -> bool:
    """Whether goods cards ``(type, amount)``, traders and nuggets cover ``demand``."""
    need = tuple(demand)
    if gold_covers(need, singles, doubles):
        return True
    cards = sorted(goods, key=lambda card: -card[1])
    # suffix[i]: goods units on cards[i:], for a quick bound
    suffix = [0] * (len(cards) + 1)
    for i in range(len(cards) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + cards[i][1]
    gold_units = singles + 2 * doubles
    seen: set[tuple[int, int, tuple[int, ...]]] = set()

    def search(i: int, trades: int, left: tuple[int, ...]) -> bool:
        if gold_covers(left, singles, doubles):
            return True
        if i == len(cards) or sum(left) > suffix[i] + gold_units:
            return False
        key = (i, trades, left)
        if key in seen:
            return False
        seen.add(key)
        kind, amount = cards[i]
        if left[kind]:
            covered = list(left)
            covered[kind] = max(0, covered[kind] - amount)
            if search(i + 1, trades, tuple(covered)):
                return True
        if trades:
            for target, owed in enumerate(left):
                if owed and target != kind:
                    covered = list(left)
                    covered[target] = max(0, owed - amount)
                    if search(i + 1, trades - 1, tuple(covered)):
                        return True
        return search(i + 1, trades, left)

    return search(0, traders, need)


def ships_feasible(
    ships_by_dest: Sequence[int], captains: int, destinations: Sequence[int]
) -> bool:
    """Whether each destination in ``destinations`` (distinct) can get its own ship.

    A destination with a ship of its own uses it (never worse than a captain); the
    others need a captain each and a spare ship of any destination.
    """
    if sum(ships_by_dest) < len(destinations):
        return False
    lacking = sum(1 for d in destinations if not ships_by_dest[d])
    return lacking <= captains
