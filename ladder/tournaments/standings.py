"""Tournament standings from finished games: pure Python + numpy, no Django.

Points, tie-breaks, the bootstrap and the cross-table are defined precisely in
``docs/tournaments.md``; the short version:

- placement points: place p of k earns k - p; tied places share the mean of the points they
  span; forfeited seats are already placed (sharing) last by the match record;
- a bye is worth the mean points of a game, (k - 1) / 2, for each game the table would have played;
- tie-breaks in order: opponents' score (mean points per game of the opponents met, once per
  meeting), Buchholz (sum over one's games of the opponents' mean tournament total), direct
  encounter (among entrants still tied: games finished ahead of each other), then seed;
- elimination ranks first by the last round reached, then by points at that round's table;
- the bootstrap resamples games (whole duplicate blocks together) with replacement and recomputes
  the standings; P(first) is the share of replicates an entrant ranks first, the rank interval the
  central 95% of its ranks.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

import numpy as np

EPS = 1e-9
DEFAULT_SAMPLES = 200


@dataclass(frozen=True)
class GameResult:
    """One finished match as the standings see it."""

    unit: int  # bootstrap unit: the duplicate block (or the match alone)
    round: int
    table: int
    entrants: tuple[int, ...]  # in seat order
    places: tuple[int, ...]  # place per seat: 1 best, ties share, forfeits last
    forfeits: tuple[bool, ...] = ()


@dataclass(frozen=True)
class Bye:
    round: int
    entrant: int
    games: int = 1  # games the table would have played (points per game each)


@dataclass
class Row:
    entrant: int
    rank: int
    points: float
    games: float
    byes: int
    forfeits: int
    opponents_score: float
    buchholz: float
    direct: float
    stage: int | None = None  # elimination: last round reached
    stage_points: float | None = None
    p_first: float | None = None
    rank_low: int | None = None
    rank_high: int | None = None

    def as_dict(self) -> dict:
        return asdict(self)


def placement_points(places: Sequence[int]) -> list[float]:
    """Points per seat for one game: place p of k earns k - p, ties share the mean."""
    k = len(places)
    counts: dict[int, int] = {}
    for p in places:
        counts[p] = counts.get(p, 0) + 1
    out = []
    for p in places:
        # Competition ranking: the t seats tied at p occupy places p..p+t-1 (never past k).
        span = range(p, min(p + counts[p], k + 1))
        out.append(sum(k - q for q in span) / len(span) if span else 0.0)
    return out


def bye_points(k: int, games: int) -> float:
    return games * (k - 1) / 2


class _Arrays:
    """Games as arrays so a bootstrap replicate is a few vectorised sums."""

    def __init__(self, entrants: Sequence[int], games: Sequence[GameResult]) -> None:
        self.index = {e: i for i, e in enumerate(entrants)}
        self.n = len(entrants)
        self.games = list(games)
        self.units = sorted({g.unit for g in self.games})
        unit_index = {u: i for i, u in enumerate(self.units)}
        self.unit_of = np.array([unit_index[g.unit] for g in self.games], dtype=np.int64)
        self.seat_entrant: list[np.ndarray] = []
        self.seat_points: list[np.ndarray] = []
        by_k: dict[int, list[int]] = {}
        for gi, g in enumerate(self.games):
            by_k.setdefault(len(g.entrants), []).append(gi)
        self.groups: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for _k, ids in by_k.items():
            e = np.array([[self.index[x] for x in self.games[i].entrants] for i in ids])
            p = np.array([placement_points(self.games[i].places) for i in ids], dtype=float)
            self.groups.append((np.array(ids), e, p))


# points, games, played, opponents' average, Buchholz: one value per entrant index each.
Totals = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _totals(
    arr: _Arrays, weights: np.ndarray, bye_pts: np.ndarray, bye_games: np.ndarray
) -> Totals:
    points = bye_pts.copy()
    played = np.zeros(arr.n)
    for ids, e, p in arr.groups:
        w = weights[ids][:, None]
        points += np.bincount(e.ravel(), weights=(w * p).ravel(), minlength=arr.n)
        played += np.bincount(
            e.ravel(), weights=np.broadcast_to(w, e.shape).ravel(), minlength=arr.n
        )
    games = played + bye_games
    per_game = np.divide(points, games, out=np.zeros(arr.n), where=games > 0)
    opp_sum = np.zeros(arr.n)
    opp_count = np.zeros(arr.n)
    buchholz = np.zeros(arr.n)
    for ids, e, _p in arr.groups:
        w = weights[ids][:, None]
        k = e.shape[1]
        others_avg = per_game[e].sum(axis=1, keepdims=True) - per_game[e]
        others_tot = points[e].sum(axis=1, keepdims=True) - points[e]
        opp_sum += np.bincount(e.ravel(), weights=(w * others_avg).ravel(), minlength=arr.n)
        opp_count += np.bincount(
            e.ravel(), weights=np.broadcast_to(w * (k - 1), e.shape).ravel(), minlength=arr.n
        )
        buchholz += np.bincount(
            e.ravel(), weights=(w * others_tot / (k - 1)).ravel(), minlength=arr.n
        )
    opp = np.divide(opp_sum, opp_count, out=np.zeros(arr.n), where=opp_count > 0)
    return points, games, played, opp, buchholz


def _stages(
    arr: _Arrays, entrants: Sequence[int], byes: Sequence[Bye], weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Elimination: last round reached and (weighted) points at that round's table."""
    stage = np.zeros(arr.n, dtype=np.int64)
    for g in arr.games:
        for e in g.entrants:
            i = arr.index[e]
            stage[i] = max(stage[i], g.round)
    for b in byes:
        # A bye in round r means the entrant reached round r + 1 (it plays there or wins).
        i = arr.index[b.entrant]
        stage[i] = max(stage[i], b.round + 1)
    stage_points = np.zeros(arr.n)
    for gi, g in enumerate(arr.games):
        pts = placement_points(g.places)
        for e, p in zip(g.entrants, pts, strict=True):
            i = arr.index[e]
            if g.round == stage[i]:
                stage_points[i] += weights[gi] * p
    return stage, stage_points


def _order(
    arr: _Arrays,
    entrants: Sequence[int],
    seeds: Mapping[int, int],
    weights: np.ndarray,
    points: np.ndarray,
    opp: np.ndarray,
    buchholz: np.ndarray,
    stage: np.ndarray | None,
    stage_points: np.ndarray | None,
) -> tuple[list[int], np.ndarray]:
    """Entrant indices best first, and the direct-encounter score used inside tied groups."""
    n = arr.n

    def primary(i: int) -> tuple:
        lead = (
            (-int(stage[i]), -round(float(stage_points[i]), 9))
            if stage is not None and stage_points is not None
            else ()
        )
        return (
            *lead,
            -round(float(points[i]), 9),
            -round(float(opp[i]), 9),
            -round(float(buchholz[i]), 9),
        )

    ordered = sorted(range(n), key=primary)
    direct = np.zeros(n)
    result: list[int] = []
    for _key, group in itertools.groupby(ordered, key=primary):
        members = list(group)
        if len(members) > 1:
            pos = set(members)
            for gi, g in enumerate(arr.games):
                idx = [arr.index[e] for e in g.entrants]
                if sum(1 for i in idx if i in pos) < 2:
                    continue
                for (sa, a), (sb, b) in itertools.combinations(enumerate(idx), 2):
                    if a in pos and b in pos:
                        pa, pb = g.places[sa], g.places[sb]
                        w = weights[gi]
                        if pa < pb:
                            direct[a] += w
                        elif pb < pa:
                            direct[b] += w
                        else:
                            direct[a] += w / 2
                            direct[b] += w / 2
            members.sort(key=lambda i: (-round(float(direct[i]), 9), seeds[entrants[i]]))
        result.extend(members)
    return result, direct


def _bye_arrays(arr: _Arrays, byes: Sequence[Bye], k: int) -> tuple[np.ndarray, np.ndarray]:
    pts = np.zeros(arr.n)
    games = np.zeros(arr.n)
    for b in byes:
        pts[arr.index[b.entrant]] += bye_points(k, b.games)
        games[arr.index[b.entrant]] += b.games
    return pts, games


def compute(
    entrants: Sequence[int],
    games: Sequence[GameResult],
    byes: Sequence[Bye] = (),
    *,
    k: int,
    seeds: Mapping[int, int] | None = None,
    elimination: bool = False,
    samples: int = 0,
    rng_seed: int = 0,
) -> list[Row]:
    """The standings, best first; with ``samples`` > 0 also P(first) and a 95% rank interval.

    ``seeds`` maps entrant to seed number (1 = best); the final tie-break.  Every entrant is
    listed, also those without a game yet.
    """
    entrants = list(entrants)
    seeds = dict(seeds) if seeds else {e: i + 1 for i, e in enumerate(entrants)}
    arr = _Arrays(entrants, games)
    bye_pts, bye_games = _bye_arrays(arr, byes, k)
    ones = np.ones(len(arr.games))
    order, direct, extra = _standings_once(
        arr, entrants, seeds, byes, bye_pts, bye_games, ones, elimination
    )
    points, played, opp, buchholz, stage, stage_points = extra
    forfeits = np.zeros(arr.n, dtype=np.int64)
    for g in arr.games:
        for e, f in zip(g.entrants, g.forfeits or (False,) * len(g.entrants), strict=True):
            forfeits[arr.index[e]] += int(bool(f))
    bye_count = np.zeros(arr.n, dtype=np.int64)
    for b in byes:
        bye_count[arr.index[b.entrant]] += 1
    rows = []
    for rank, i in enumerate(order, start=1):
        rows.append(
            Row(
                entrant=entrants[i],
                rank=rank,
                points=round(float(points[i]), 6),
                games=round(float(played[i]), 6),
                byes=int(bye_count[i]),
                forfeits=int(forfeits[i]),
                opponents_score=round(float(opp[i]), 6),
                buchholz=round(float(buchholz[i]), 6),
                direct=round(float(direct[i]), 6),
                stage=int(stage[i]) if stage is not None else None,
                stage_points=(
                    round(float(stage_points[i]), 6) if stage_points is not None else None
                ),
            )
        )
    if samples > 0 and arr.n:
        boot = bootstrap_ranks(
            arr, entrants, seeds, byes, bye_pts, bye_games, elimination, samples, rng_seed
        )
        for row in rows:
            if not row.games:
                # Resampling no games says nothing about this entrant (a bye alone once read
                # "P(first) 100%"): no probability and no interval until it has played.
                continue
            i = arr.index[row.entrant]
            ranks = boot[:, i]
            row.p_first = round(float(np.mean(ranks == 1)), 4)
            row.rank_low = int(np.quantile(ranks, 0.025, method="inverted_cdf"))
            row.rank_high = int(np.quantile(ranks, 0.975, method="inverted_cdf"))
    return rows


# points, played, opponents' average, Buchholz, and (elimination only) stage and stage points.
Figures = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None
]


def _standings_once(
    arr: _Arrays,
    entrants: Sequence[int],
    seeds: Mapping[int, int],
    byes: Sequence[Bye],
    bye_pts: np.ndarray,
    bye_games: np.ndarray,
    weights: np.ndarray,
    elimination: bool,
) -> tuple[list[int], np.ndarray, Figures]:
    """One ranking: entrant indices best first, direct-encounter scores, and the figures."""
    points, _games, played, opp, buchholz = _totals(arr, weights, bye_pts, bye_games)
    stage: np.ndarray | None = None
    stage_points: np.ndarray | None = None
    if elimination:
        stage, stage_points = _stages(arr, entrants, byes, weights)
    order, direct = _order(
        arr, entrants, seeds, weights, points, opp, buchholz, stage, stage_points
    )
    return order, direct, (points, played, opp, buchholz, stage, stage_points)


def bootstrap_ranks(
    arr: _Arrays,
    entrants: Sequence[int],
    seeds: Mapping[int, int],
    byes: Sequence[Bye],
    bye_pts: np.ndarray,
    bye_games: np.ndarray,
    elimination: bool,
    samples: int,
    rng_seed: int,
) -> np.ndarray:
    """Ranks (samples x entrants) over replicates that redraw whole units with replacement.

    A unit is a duplicate block (every seat rotation of one deal) or a single game otherwise, so
    the luck a duplicate block cancels is never split by the resampling.  Byes are not games and
    stay as they are.  Seeded: the same results always give the same intervals.
    """
    rng = np.random.default_rng(rng_seed)
    nunits = len(arr.units)
    out = np.zeros((samples, arr.n), dtype=np.int64)
    for s in range(samples):
        if nunits:
            unit_w = rng.multinomial(nunits, np.full(nunits, 1.0 / nunits)).astype(float)
            weights = unit_w[arr.unit_of]
        else:
            weights = np.zeros(0)
        order, _direct, _extra = _standings_once(
            arr, entrants, seeds, byes, bye_pts, bye_games, weights, elimination
        )
        for rank, i in enumerate(order, start=1):
            out[s, i] = rank
    return out


def crosstable(entrants: Sequence[int], games: Sequence[GameResult]) -> dict[int, dict[int, dict]]:
    """For each ordered pair (a, b) that met: games together, a ahead, a behind, tied, and the
    placement points a scored in those games."""
    table: dict[int, dict[int, dict]] = {e: {} for e in entrants}
    for g in games:
        pts = placement_points(g.places)
        for (sa, a), (sb, b) in itertools.permutations(enumerate(g.entrants), 2):
            cell = table.setdefault(a, {}).setdefault(
                b, {"games": 0, "ahead": 0, "behind": 0, "tied": 0, "points": 0.0}
            )
            cell["games"] += 1
            pa, pb = g.places[sa], g.places[sb]
            cell["ahead" if pa < pb else "behind" if pb < pa else "tied"] += 1
            cell["points"] += pts[sa]
    return table
