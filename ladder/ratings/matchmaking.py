"""The matchmaker: keeps the queue of ranked matches filled to the workers' capacity.

For each new table it picks a ladder (weighted by the ladder's settings), then the neediest
version: one whose rank cannot be trusted yet (:meth:`Pool.unsettled`) before any other, then the
fewest games, the most uncertain and the newest; its opponents are drawn at random among the
``k`` versions nearest in rating.  The queue holds enough matches to keep the fleet's slots
busy until the next run (:func:`ladder.ratings.pace.queue_capacity`).  Two versions of one bot
never share a table, two bots of one owner only when there are not enough other owners; seats
are shuffled.
"""

from __future__ import annotations

import bisect
import heapq
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from django.db import connection, transaction
from django.db.models import Count, QuerySet

from ladder.bots.models import BotVersion
from ladder.bots.selectors import ranked_versions
from ladder.ladders.models import Ladder
from ladder.ladders.selectors import schedulable_ladders
from ladder.matches.models import Match, MatchSeat
from ladder.matches.services import create_match, enqueue_match, hold_matches, new_seed
from ladder.ratings import plackett_luce as pl
from ladder.ratings.models import Rating
from ladder.ratings.pace import queue_capacity
from ladder.ratings.services import PROVISIONAL_MIN_GAMES

NEAREST_K = 6  # opponents are sampled among this many nearest in rating (at least 5)
WAITING = (Match.Status.NEW, Match.Status.QUEUED)
# Expected information (natural units^-2) one scheduled game adds to a version's rating: a game
# against an equal opponent gives 1/4 (logistic), nearest-in-rating opponents are a little off.
GAME_INFORMATION = 0.2


@dataclass
class Candidate:
    version: BotVersion
    mu: float
    sd: float
    games: int  # played plus already scheduled on this ladder
    scheduled: int = 0  # of those games, the ones waiting or being played

    @property
    def bot_id(self) -> int:
        return self.version.bot_id

    @property
    def owner_id(self) -> int:
        return self.version.bot.owner_id


def playing_versions(game: str) -> list[BotVersion]:
    """The latest active version of each public bot of ``game``."""
    latest: dict[int, BotVersion] = {}
    for version in ranked_versions(game).select_related("bot"):
        held = latest.get(version.bot_id)
        if held is None or version.number > held.number:
            latest[version.bot_id] = version
    return sorted(latest.values(), key=lambda v: v.pk)


def candidates(ladder: Ladder) -> list[Candidate]:
    """Every playing version of the ladder's game with its rating and games so far.

    Ratings and scheduled seats are read for the whole ladder and matched up here: filtering
    them by a list of 10,000 version ids cost more than reading the few extra rows.
    """
    versions = playing_versions(ladder.game)
    ratings = {
        version_id: (mu, sd, games)
        for version_id, mu, sd, games in Rating.objects.filter(ladder=ladder).values_list(
            "bot_version_id", "mu", "sd", "games"
        )
    }
    scheduled = dict(
        MatchSeat.objects.filter(
            match__ladder=ladder,
            match__ranked=True,
            match__status__in=[*WAITING, Match.Status.RUNNING],
        )
        .order_by()
        .values_list("bot_version_id")
        .annotate(n=Count("id"))
    )
    out = []
    for version in versions:
        mu, sd, games = ratings.get(version.pk, (0.0, pl.PRIOR_SD, 0))
        waiting = scheduled.get(version.pk, 0)
        out.append(
            Candidate(version=version, mu=mu, sd=sd, games=games + waiting, scheduled=waiting)
        )
    return out


def projected_sd(candidate: Candidate) -> float:
    """The version's sd once the games already scheduled for it are played, each expected to
    add :data:`GAME_INFORMATION` (natural units)."""
    return float((candidate.sd**-2 + GAME_INFORMATION * candidate.scheduled) ** -0.5)


class Pool:
    """A ladder's candidates, indexed once per fill so that each table costs little.

    With 10,000 bots, scanning and sorting every candidate for each table took 180 ms a table
    (``benchmarks/scale.py``); here the neediest comes off a heap and the nearest in rating are
    read outwards from the first bot's place in a list sorted by rating.
    """

    def __init__(self, candidates: list[Candidate], *, target_games: int | None = None) -> None:
        self.candidates = candidates
        self.target_games = target_games
        self.by_mu = sorted(candidates, key=lambda c: (c.mu, c.version.pk))
        self._mus = [c.mu for c in self.by_mu]
        self._place = {c.version.pk: i for i, c in enumerate(self.by_mu)}
        self.bot_count = len({c.bot_id for c in candidates})
        self.owners = {c.owner_id for c in candidates}
        self._heap = [self._entry(c) for c in candidates]
        heapq.heapify(self._heap)
        self._by_pk = {c.version.pk: c for c in candidates}

    def unsettled(self, c: Candidate) -> bool:
        """Whether the version's rank is still in doubt once its scheduled games are played.

        In doubt: under ``PROVISIONAL_MIN_GAMES`` games, or more than one other version's mean
        above it, or more than one below, inside its projected 95% interval (the ranking could
        still put it two places from where it belongs).  Only means the ladder can tell apart
        from its own count: further than the 95% half-width a version has after the ladder's
        ``target_games`` (:meth:`resolution`), so bots among equals are not in doubt for ever.
        Such a version goes before every other, so a new version plays until its author can
        believe its rank, not only until it has as many games as the least-played bot; the
        projection stops it taking a whole large queue to itself in one run.
        """
        if c.games < PROVISIONAL_MIN_GAMES:
            return True
        half = 1.96 * projected_sd(c)
        near = self.resolution()
        if half <= near:
            return False
        above = bisect.bisect_right(self._mus, c.mu + half) - bisect.bisect_right(
            self._mus, c.mu + near
        )
        below = bisect.bisect_left(self._mus, c.mu - near) - bisect.bisect_left(
            self._mus, c.mu - half
        )
        return above > 1 or below > 1

    def resolution(self) -> float:
        """The 95% half-width (natural units) of a version's rating after the ladder's target
        games, each adding :data:`GAME_INFORMATION`: closer means are equals to the ladder."""
        if not self.target_games:
            return 0.0
        return 1.96 * float((GAME_INFORMATION * self.target_games) ** -0.5)

    def _entry(self, c: Candidate) -> tuple[bool, int, float, int]:
        # In doubt first; then furthest behind in games; among equals the most uncertain, then
        # the newest.
        return (not self.unsettled(c), c.games, -c.sd, -c.version.pk)

    def neediest(self) -> Candidate:
        while True:
            _, games, _, negative_pk = self._heap[0]
            candidate = self._by_pk[-negative_pk]
            if candidate.games == games:
                return candidate
            heapq.heappop(self._heap)  # stale: this candidate has been seated since

    def seated(self, candidate: Candidate) -> None:
        """Count a new scheduled game for ``candidate`` (its old heap entry goes stale)."""
        candidate.games += 1
        candidate.scheduled += 1
        heapq.heappush(self._heap, self._entry(candidate))

    def nearest(self, first: Candidate) -> Iterator[Candidate]:
        """Every other candidate by distance in rating from ``first``, ties by version id."""
        at = self._place[first.version.pk]
        left, right = at - 1, at + 1
        by_mu = self.by_mu
        while left >= 0 or right < len(by_mu):
            gap_left = first.mu - by_mu[left].mu if left >= 0 else math.inf
            gap_right = by_mu[right].mu - first.mu if right < len(by_mu) else math.inf
            gap = min(gap_left, gap_right)
            same = []
            while left >= 0 and first.mu - by_mu[left].mu == gap:
                same.append(by_mu[left])
                left -= 1
            while right < len(by_mu) and by_mu[right].mu - first.mu == gap:
                same.append(by_mu[right])
                right += 1
            yield from sorted(same, key=lambda c: c.version.pk)


def pick_table(ladder: Ladder, pool: Pool, rng: random.Random) -> list[Candidate] | None:
    """One table for ``ladder`` from ``pool``, seats shuffled; None if too few distinct bots."""
    need = ladder.num_players
    if pool.bot_count < need:
        return None
    first = pool.neediest()
    # Avoid a second bot of one owner while enough bots of other owners exist.
    other_owners = pool.owners - {first.owner_id}
    spread_owners = len(other_owners) >= need - 1

    def eligible(c: Candidate) -> bool:
        return c.bot_id != first.bot_id and not (spread_owners and c.owner_id == first.owner_id)

    nearest = list(islice(filter(eligible, pool.nearest(first)), max(NEAREST_K, need - 1)))
    table = [first]
    while len(table) < need:
        owners = {c.owner_id for c in table}
        open_ = [c for c in nearest if c not in table]
        fresh = [c for c in open_ if c.owner_id not in owners]
        if not fresh and len(other_owners - owners) > 0:
            # The nearest are all of seated owners: take the nearest bot of a new owner.
            new_owner = (c for c in pool.nearest(first) if eligible(c) and c.owner_id not in owners)
            fresh = list(islice(new_owner, 1))
        table.append(rng.choice(fresh or open_))
    rng.shuffle(table)
    return table


def _choose_ladder(ladders: list[Ladder], rng: random.Random) -> Ladder:
    return rng.choices(ladders, weights=[ladder.schedule_weight for ladder in ladders])[0]


def waiting_ranked_matches() -> int:
    """Ranked ladder matches queued for the workers (held ones wait in ``new``, not counted)."""
    return Match.objects.filter(
        status=Match.Status.QUEUED, ranked=True, kind=Match.Kind.LADDER
    ).count()


def _ladder_tables(ladder: Ladder, status: str) -> QuerySet[Match]:
    return Match.objects.filter(ladder=ladder, status=status, ranked=True, kind=Match.Kind.LADDER)


def make_way(ladder: Ladder, pool: Pool) -> None:
    """Put the tables of versions in doubt ahead of the waiting established ones.

    While a version of the ladder with fewer than its ``target_games`` is in doubt
    (:meth:`Pool.unsettled`), the queued tables that seat none are held (``queued -> new``,
    ``hold_matches``: a worker that still receives such an id fails to claim it and takes the
    next), so the tables created now are the next played instead of waiting behind a full
    queue.  Once none is in doubt, the held tables are queued again, oldest first, before any
    new one.  Past its target a version never makes others wait, so held tables cannot pile up
    for ever behind a bot whose rank stays in doubt.
    """
    target = ladder.target_games
    doubt = [c.version.pk for c in pool.candidates if c.games < target and pool.unsettled(c)]
    if doubt:
        hold_matches(
            list(
                _ladder_tables(ladder, Match.Status.QUEUED)
                .exclude(seats__bot_version_id__in=doubt)
                .values_list("pk", flat=True)
            )
        )
        return
    for match_id in (
        _ladder_tables(ladder, Match.Status.NEW).order_by("pk").values_list("pk", flat=True)
    ):
        enqueue_match(match_id)


MATCHMAKER_LOCK = 0x4D4F4E53  # "MONS": one matchmaker at a time (PostgreSQL advisory lock)


def _only_matchmaker() -> bool:
    """Take the matchmaker's transaction-scoped lock; False if another run holds it."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [MATCHMAKER_LOCK])
        return bool(cursor.fetchone()[0])


@transaction.atomic
def fill_queue(capacity: int | None = None, rng: random.Random | None = None) -> list[int]:
    """Create ranked matches until ``capacity`` wait in the queue; returns the new match ids.

    Runs in one transaction under an advisory lock, so a beat task and a manual run never
    overfill the queue together; the matches reach the workers when it commits.  The candidate
    pools are built on every run, even with a full queue: a version in doubt that appeared
    since makes way for its tables (:func:`make_way`).
    """
    if not _only_matchmaker():
        return []
    rng = rng or random.SystemRandom()  # unseeded: pass a seeded generator to replay a run
    capacity = queue_capacity() if capacity is None else capacity
    if capacity <= 0:
        return []
    pools = {
        ladder.pk: (ladder, Pool(candidates(ladder), target_games=ladder.target_games))
        for ladder in schedulable_ladders()
    }
    for ladder, pool in pools.values():
        make_way(ladder, pool)
    missing = capacity - waiting_ranked_matches()
    if missing <= 0:
        return []
    playable = [ladder for ladder, pool in pools.values() if pool.bot_count >= ladder.num_players]
    created: list[int] = []
    while playable and len(created) < missing:
        ladder = _choose_ladder(playable, rng)
        table = pick_table(ladder, pools[ladder.pk][1], rng)
        if table is None:
            playable.remove(ladder)
            continue
        match = create_match(ladder, [c.version for c in table], seed=new_seed(rng))
        for seat in table:
            pools[ladder.pk][1].seated(seat)
        created.append(match.pk)
    return created
