"""What ``benchmarks.time_to_rank`` computes from what it watched: rank intervals and where the
time went.  Plain data in, plain data out (no Django), so the definitions can be read and tested
on their own.

A version's *rank interval* in one snapshot of the standings is the ranks its shown 95% interval
(``low`` .. ``high``, Elo: mean +- 1.96 sd) spans among the other bots' means: its best rank is
one more than the number of others rated above ``high``, its worst one more than the number
rated at or above ``low``.  It is *within +-1 rank* of a final rank ``f`` when
``best >= f - 1`` and ``worst <= f + 1``: the ranking the bot author sees can no longer put it
two places away from where it ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Shown:
    """One version's row of the standings as a user sees it."""

    rating: float
    low: float
    high: float
    games: int


@dataclass(frozen=True)
class Snapshot:
    """The standings at ``seconds`` after the upload: version id -> its row."""

    seconds: float
    rows: Mapping[int, Shown]


def rank_of(version_id: int, rows: Mapping[int, Shown]) -> int:
    """1-based place by rating, ties broken by version id (the standings' own order)."""
    me = rows[version_id]
    return 1 + sum(
        1
        for other, shown in rows.items()
        if other != version_id
        and (shown.rating > me.rating or (shown.rating == me.rating and other < version_id))
    )


def rank_interval(version_id: int, rows: Mapping[int, Shown]) -> tuple[int, int]:
    """(best, worst) rank the version's 95% interval spans among the others' means."""
    me = rows[version_id]
    others = [shown.rating for other, shown in rows.items() if other != version_id]
    best = 1 + sum(1 for rating in others if rating > me.high)
    worst = 1 + sum(1 for rating in others if rating >= me.low)
    return best, worst


def within(interval: tuple[int, int], final_rank: int, slack: int = 1) -> bool:
    best, worst = interval
    return best >= final_rank - slack and worst <= final_rank + slack


@dataclass(frozen=True)
class Convergence:
    first_within: float | None
    """Seconds after upload when the interval was first within +-1 of the final rank."""
    settled: float | None
    """Seconds after upload from which it stayed within until the end of the run."""
    games_at_settled: int | None


def convergence(
    version_id: int, snapshots: Sequence[Snapshot], final_rank: int, slack: int = 1
) -> Convergence:
    """When the version's rank interval first came, and then stayed, within the slack."""
    first: float | None = None
    settled: Snapshot | None = None
    for snap in snapshots:
        if version_id not in snap.rows:
            settled = None
            continue
        if within(rank_interval(version_id, snap.rows), final_rank, slack):
            if first is None:
                first = snap.seconds
            if settled is None:
                settled = snap
        else:
            settled = None
    return Convergence(
        first_within=first,
        settled=settled.seconds if settled else None,
        games_at_settled=settled.rows[version_id].games if settled else None,
    )


@dataclass(frozen=True)
class Span:
    """One match of the version, seconds after the upload (each None if it never got there)."""

    created: float
    queued: float | None
    started: float | None
    finished: float | None
    rated: float | None


@dataclass(frozen=True)
class Breakdown:
    """Where the seconds from ``begin`` to ``end`` went, each instant counted once, in this order
    of precedence: a match of the version being played; its result recorded but not yet rated;
    a match of it waiting in the queue; no match of it anywhere (waiting for the matchmaker)."""

    playing: float
    rating: float
    queued: float
    matchmaker: float


def breakdown(spans: Sequence[Span], begin: float, end: float, step: float = 0.01) -> Breakdown:
    """Split ``[begin, end)`` into playing, rating, queued and matchmaker time (see
    :class:`Breakdown`), sampling every ``step`` seconds."""
    totals = {"playing": 0.0, "rating": 0.0, "queued": 0.0, "matchmaker": 0.0}
    ticks = max(0, int((end - begin) / step))
    for i in range(ticks):
        t = begin + (i + 0.5) * step
        totals[_state_at(spans, t)] += step
    return Breakdown(**totals)


def _state_at(spans: Sequence[Span], t: float) -> str:
    def inside(a: float | None, b: float | None) -> bool:
        return a is not None and a <= t and (b is None or t < b)

    if any(inside(s.started, s.finished) for s in spans):
        return "playing"
    if any(inside(s.finished, s.rated) for s in spans):
        return "rating"
    if any(inside(s.created, s.started) for s in spans):
        return "queued"
    return "matchmaker"
