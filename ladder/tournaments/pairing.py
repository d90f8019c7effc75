"""Who sits at which table, in which seat: pure Python, no Django (so it is tested on its own).

Entrants are opaque integers (the service passes entrant row ids), listed in seed order (best
ladder rating first) wherever order matters.  A *table* is a tuple of entrants in seat order.

Every format produces one :class:`RoundPlan` per round: the tables and the entrants with a bye.
:func:`table_games` then expands a table into the games it plays that round, grouped in blocks
that share a seed (a duplicate block is the same seed replayed in every seat rotation).  The rules
and their guarantees are written up in ``docs/tournaments.md``.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

Table = tuple[int, ...]

ROUND_ROBIN = "round_robin"
SWISS = "swiss"
ELIMINATION = "elimination"
FORMATS = (ROUND_ROBIN, SWISS, ELIMINATION)

# A complete round robin (every k-subset a table) above this many tables uses the balanced
# design instead: 3-player tables switch at 12 entrants (220 tables), 4-player at 10 (210).
FULL_DESIGN_MAX_TABLES = 200
# Backtracking steps the repeat-free search may take before it settles for fewest repeats.
SEARCH_BUDGET = 50_000
# Cost of one repeated meeting against squared score differences at a table (scores are
# placement points, so no realistic spread outweighs one repeat).
REPEAT_PENALTY = 1_000_000.0


class PairingError(ValueError):
    """A field that cannot be paired under the rules (too few entrants, bad parameters)."""


@dataclass(frozen=True)
class RoundPlan:
    tables: list[Table]
    byes: list[int] = field(default_factory=list)


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def meetings_of(tables: Iterable[Sequence[int]]) -> Counter[tuple[int, int]]:
    """How often each pair sat at a table together."""
    counts: Counter[tuple[int, int]] = Counter()
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            counts[pair_key(a, b)] += 1
    return counts


def rotations(table: Sequence[int]) -> list[Table]:
    """The k cyclic seat rotations: over them every entrant sits in every seat exactly once."""
    k = len(table)
    return [tuple(table[(i + r) % k] for i in range(k)) for r in range(k)]


def _check(entrants: Sequence[int], k: int) -> None:
    if k < 2:
        raise PairingError("a table needs at least 2 players")
    if len(set(entrants)) != len(entrants):
        raise PairingError("an entrant is listed twice")
    if len(entrants) < k:
        raise PairingError(f"{len(entrants)} entrants cannot fill a {k}-player table")


# --- round robin ----------------------------------------------------------------------------


def uses_full_design(n: int, k: int) -> bool:
    """Whether a round robin of n entrants plays every k-subset (else the balanced design)."""
    return k == 2 or math.comb(n, k) <= FULL_DESIGN_MAX_TABLES


def round_robin_rounds(entrants: Sequence[int], k: int) -> list[RoundPlan]:
    """The whole round-robin schedule.

    Two-player tables: the circle method, every pair once, n-1 rounds (n even) or n rounds with
    one bye each (n odd).  k >= 3 with at most ``FULL_DESIGN_MAX_TABLES`` tables: every k-subset
    once (each pair meets C(n-2, k-2) times), packed into rounds where nobody plays twice; the
    entrants left out of a round are idle, not awarded a bye, since everyone plays the same number
    of tables.  Larger fields: :func:`balanced_rounds`.
    """
    entrants = list(entrants)
    _check(entrants, k)
    if k == 2:
        return _circle_rounds(entrants)
    if not uses_full_design(len(entrants), k):
        return balanced_rounds(entrants, k)
    remaining = list(itertools.combinations(entrants, k))
    rounds: list[RoundPlan] = []
    while remaining:
        # Tables of the entrants with most tables left go first, which packs the rounds tightly.
        left = Counter(e for table in remaining for e in table)
        remaining.sort(key=lambda t: -sum(left[e] for e in t))
        busy: set[int] = set()
        tables: list[Table] = []
        rest = []
        for table in remaining:
            if busy.isdisjoint(table):
                tables.append(table)
                busy.update(table)
            else:
                rest.append(table)
        rounds.append(RoundPlan(tables=tables))
        remaining = rest
    return rounds


def _circle_rounds(entrants: list[int]) -> list[RoundPlan]:
    ghost = None if len(entrants) % 2 == 0 else -1
    ring: list[int | None] = [*entrants, ghost] if ghost is not None else list(entrants)
    m = len(ring)
    rounds = []
    for _ in range(m - 1):
        tables: list[Table] = []
        byes: list[int] = []
        for i in range(m // 2):
            a, b = ring[i], ring[m - 1 - i]
            if a == ghost or b == ghost:
                byes.append(b if a == ghost else a)  # type: ignore[arg-type]
            else:
                tables.append((a, b))  # type: ignore[arg-type]
        rounds.append(RoundPlan(tables=tables, byes=byes))
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def balanced_rounds(
    entrants: Sequence[int], k: int, num_rounds: int | None = None
) -> list[RoundPlan]:
    """A round robin for fields too large for every k-subset.

    ``ceil((n-1)/(k-1))`` rounds (enough for every entrant to face n-1 opponents once); each round
    is paired like a Swiss round with all scores equal, so no pair meets twice while the search
    finds a round without a repeat, and byes go to whoever has had fewest (so byes differ by at
    most one between entrants).
    """
    entrants = list(entrants)
    _check(entrants, k)
    n = len(entrants)
    num_rounds = num_rounds or math.ceil((n - 1) / (k - 1))
    meetings: Counter[tuple[int, int]] = Counter()
    byes: Counter[int] = Counter()
    plans = []
    for _ in range(num_rounds):
        plan = swiss_round(entrants, k, scores={}, meetings=meetings, bye_counts=byes)
        meetings.update(meetings_of(plan.tables))
        byes.update(plan.byes)
        plans.append(plan)
    return plans


# --- Swiss ----------------------------------------------------------------------------------


def swiss_round(
    entrants: Sequence[int],
    k: int,
    *,
    scores: Mapping[int, float],
    meetings: Mapping[tuple[int, int], int],
    bye_counts: Mapping[int, int],
    budget: int = SEARCH_BUDGET,
) -> RoundPlan:
    """One Swiss round: tables of similar scores, avoiding repeated meetings.

    ``entrants`` in seed order.  The ``n mod k`` byes go to the entrants with fewest byes, then
    lowest score, then lowest seed.  The rest are sorted by score (then seed) and a depth-first
    search looks for a partition with no pair that has met before, filling the best-placed
    entrant's table first from the entrants closest below it; when one exists within ``budget``
    steps it is used, so a repeat is only ever paired when the search proved (or could not find)
    otherwise.  A local search then swaps entrants between tables to bring scores closer, never
    accepting a swap that adds a repeat.
    """
    entrants = list(entrants)
    _check(entrants, k)
    seed_pos = {e: i for i, e in enumerate(entrants)}
    nbyes = len(entrants) % k
    by_bye = sorted(
        entrants, key=lambda e: (bye_counts.get(e, 0), scores.get(e, 0.0), -seed_pos[e])
    )
    byes = sorted(by_bye[:nbyes], key=seed_pos.__getitem__)
    bye_set = set(byes)
    players = sorted(
        (e for e in entrants if e not in bye_set), key=lambda e: (-scores.get(e, 0.0), seed_pos[e])
    )
    tables = _repeat_free_partition(players, k, meetings, budget)
    if tables is None:
        tables = [tuple(players[i : i + k]) for i in range(0, len(players), k)]
    tables = _improve(tables, scores, meetings)
    tables.sort(key=lambda t: (-max(scores.get(e, 0.0) for e in t), min(seed_pos[e] for e in t)))
    return RoundPlan(tables=[tuple(sorted(t, key=seed_pos.__getitem__)) for t in tables], byes=byes)


def _repeat_free_partition(
    players: list[int], k: int, meetings: Mapping[tuple[int, int], int], budget: int
) -> list[Table] | None:
    steps = 0

    def met(a: int, b: int) -> bool:
        return meetings.get(pair_key(a, b), 0) > 0

    def search(remaining: list[int]) -> list[Table] | None:
        nonlocal steps
        if not remaining:
            return []
        first, rest = remaining[0], remaining[1:]
        candidates = [e for e in rest if not met(first, e)]
        for partners in itertools.combinations(candidates, k - 1):
            steps += 1
            if steps > budget:
                return None
            if any(met(a, b) for a, b in itertools.combinations(partners, 2)):
                continue
            chosen = set(partners)
            found = search([e for e in rest if e not in chosen])
            if found is not None:
                return [(first, *partners), *found]
            if steps > budget:
                return None
        return None

    return search(players)


def _table_cost(
    table: Sequence[int], scores: Mapping[int, float], meetings: Mapping[tuple[int, int], int]
) -> float:
    cost = 0.0
    for a, b in itertools.combinations(table, 2):
        cost += REPEAT_PENALTY * meetings.get(pair_key(a, b), 0)
        cost += (scores.get(a, 0.0) - scores.get(b, 0.0)) ** 2
    return cost


def _improve(
    tables: list[Table], scores: Mapping[int, float], meetings: Mapping[tuple[int, int], int]
) -> list[Table]:
    """Swap entrants between tables while the total cost strictly falls (first improvement)."""
    rows = [list(t) for t in tables]
    costs = [_table_cost(t, scores, meetings) for t in rows]
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(rows)), 2):
            for a in range(len(rows[i])):
                for b in range(len(rows[j])):
                    ti, tj = rows[i][:], rows[j][:]
                    ti[a], tj[b] = tj[b], ti[a]
                    ci, cj = _table_cost(ti, scores, meetings), _table_cost(tj, scores, meetings)
                    if ci + cj < costs[i] + costs[j] - 1e-9:
                        rows[i], rows[j], costs[i], costs[j] = ti, tj, ci, cj
                        improved = True
    return [tuple(t) for t in rows]


def default_swiss_rounds(n: int, k: int) -> int:
    """Enough rounds for a clear winner: ceil(log_k n) + 1, at least 3, at most n - 1."""
    return max(1, min(n - 1, max(3, math.ceil(math.log(n, k)) + 1)))


# --- single elimination ---------------------------------------------------------------------


def elimination_round(entrants: Sequence[int], k: int) -> RoundPlan:
    """One elimination round of entrants listed in seed order.

    The ``m mod k`` best seeds get a bye (they advance without playing); the others are dealt to
    the tables in snake order (1, 2, ..., T, T, ..., 2, 1, ...), so every table gets a similar mix
    of strong and weak seeds and the top seeds meet as late as possible.
    """
    entrants = list(entrants)
    _check(entrants, k)
    nbyes = len(entrants) % k
    byes, playing = entrants[:nbyes], entrants[nbyes:]
    ntables = len(playing) // k
    tables: list[list[int]] = [[] for _ in range(ntables)]
    for i, e in enumerate(playing):
        row, col = divmod(i, ntables)
        tables[col if row % 2 == 0 else ntables - 1 - col].append(e)
    return RoundPlan(tables=[tuple(t) for t in tables], byes=byes)


def is_final(plan: RoundPlan) -> bool:
    return len(plan.tables) == 1 and not plan.byes


def elimination_advance(
    plan: RoundPlan,
    entrants: Sequence[int],
    k: int,
    advance: int,
    table_points: Mapping[int, float],
) -> list[int]:
    """Who plays the next round, in seed order (``entrants`` is the whole field in seed order).

    The top ``advance`` of each table by points at that table this round advance (ties: better
    seed), plus the byes.  Should that leave fewer than k (and more than one), the best
    non-advancing players of this round by the same order fill the table ("lucky losers"), so a
    final table is always full.
    """
    if not 1 <= advance < k:
        raise PairingError(f"the top 1 to {k - 1} of a {k}-player table can advance")
    seed_pos = {e: i for i, e in enumerate(entrants)}

    def order(e: int) -> tuple[float, int]:
        return (-table_points.get(e, 0.0), seed_pos[e])

    going = set(plan.byes)
    losers = []
    for table in plan.tables:
        ranked = sorted(table, key=order)
        going.update(ranked[:advance])
        losers.extend(ranked[advance:])
    if 1 < len(going) < k:
        going.update(sorted(losers, key=order)[: k - len(going)])
    return sorted(going, key=seed_pos.__getitem__)


def elimination_sizes(n: int, k: int, advance: int) -> list[int]:
    """Entrants per round, first to final (the same arithmetic as the real rounds)."""
    if n < k:
        raise PairingError(f"{n} entrants cannot fill a {k}-player table")
    sizes = [n]
    while True:
        m = sizes[-1]
        nbyes, ntables = m % k, m // k
        if ntables == 1 and nbyes == 0:
            return sizes
        nxt = ntables * advance + nbyes
        sizes.append(k if 1 < nxt < k else nxt)


# --- seats ----------------------------------------------------------------------------------


def seat_counts_of(tables: Iterable[Sequence[int]], k: int) -> dict[int, list[int]]:
    counts: dict[int, list[int]] = {}
    for table in tables:
        for seat, e in enumerate(table):
            counts.setdefault(e, [0] * k)[seat] += 1
    return counts


def balanced_seating(
    table: Sequence[int], games: int, seat_counts: Mapping[int, Sequence[int]]
) -> Table:
    """The seat order for the table's first game, the others rotating from it.

    Chooses among all k! orders the one that, after this round's ``games`` rotated games, leaves
    the smallest sum of squared seat counts (then the largest single count, then the first order
    in the table's own order), so entrants who sat often in a seat are moved away from it.
    """
    k = len(table)
    best: tuple[tuple[int, int], Table] | None = None
    for order in itertools.permutations(table):
        after = {e: list(seat_counts.get(e, [0] * k)) for e in table}
        for g in range(games):
            for seat, e in enumerate(rotations(order)[g % k]):
                after[e][seat] += 1
        key = (sum(c * c for v in after.values() for c in v), max(max(v) for v in after.values()))
        if best is None or key < best[0]:
            best = (key, order)
    if best is None:  # permutations() yields at least one order, even of an empty table
        raise ValueError("no seat order to choose from")
    return best[1]


def table_games(
    table: Sequence[int],
    fmt: str,
    games: int,
    duplicate: bool,
    seat_counts: Mapping[int, Sequence[int]],
) -> list[list[Table]]:
    """The games one table plays in a round, as blocks of seatings that share one seed.

    Round robin: ``games`` sets of all k rotations; with ``duplicate`` each set is one block (the
    same deal in every seat), else every rotation has its own seed.  Swiss and elimination:
    ``games`` games rotating from :func:`balanced_seating`; with ``duplicate`` each game becomes a
    block of all k rotations of one seed.
    """
    k = len(table)
    if games < 1:
        raise PairingError("a table plays at least one game")
    if fmt == ROUND_ROBIN:
        sets = [rotations(table) for _ in range(games)]
        return sets if duplicate else [[seating] for s in sets for seating in s]
    first = balanced_seating(table, 1 if duplicate else games, seat_counts)
    rots = rotations(first)
    if duplicate:
        return [rots for _ in range(games)]
    return [[rots[g % k]] for g in range(games)]
