"""The matchmaker: keeps the queue of ranked matches filled to the workers' capacity.

For each new table it picks a ladder (weighted by the ladder's settings), then the version
furthest behind the ladder's game target, new and uncertain versions first; its opponents are
drawn at random among the ``k`` versions nearest in rating.  Two versions of one bot never share a
table, two bots of one owner only when there are not enough other owners; seats are shuffled.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Q

from ladder.bots.models import BotVersion
from ladder.bots.selectors import ranked_versions
from ladder.ladders.models import Ladder
from ladder.ladders.selectors import schedulable_ladders
from ladder.matches.models import Match, MatchSeat
from ladder.matches.services import create_match, new_seed
from ladder.ratings import plackett_luce as pl
from ladder.ratings.models import Rating

NEAREST_K = 6  # opponents are sampled among this many nearest in rating (at least 5)
WAITING = (Match.Status.NEW, Match.Status.QUEUED)


@dataclass
class Candidate:
    version: BotVersion
    mu: float
    sd: float
    games: int  # played plus already scheduled on this ladder

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
    versions = playing_versions(ladder.game)
    ids = [v.pk for v in versions]
    ratings = {
        r.bot_version_id: r for r in Rating.objects.filter(ladder=ladder, bot_version_id__in=ids)
    }
    scheduled = dict(
        MatchSeat.objects.filter(
            match__ladder=ladder,
            match__ranked=True,
            match__status__in=[*WAITING, Match.Status.RUNNING],
            bot_version_id__in=ids,
        )
        .values_list("bot_version_id")
        .annotate(n=Count("id"))
    )
    out = []
    for version in versions:
        rating = ratings.get(version.pk)
        out.append(
            Candidate(
                version=version,
                mu=rating.mu if rating else 0.0,
                sd=rating.sd if rating else pl.PRIOR_SD,
                games=(rating.games if rating else 0) + scheduled.get(version.pk, 0),
            )
        )
    return out


def _neediest(pool: list[Candidate], target: int, rng: random.Random) -> Candidate:
    """Furthest behind the game target (played + scheduled); among equals the most uncertain,
    then the newest.  Past the target this keeps spreading games evenly."""

    def key(c: Candidate) -> tuple:
        return (c.games - target, -c.sd, -c.version.pk, rng.random())

    return min(pool, key=key)


def pick_table(ladder: Ladder, pool: list[Candidate], rng: random.Random) -> list[Candidate] | None:
    """One table for ``ladder`` from ``pool``, seats shuffled; None if too few distinct bots."""
    need = ladder.num_players
    if len({c.bot_id for c in pool}) < need:
        return None
    first = _neediest(pool, ladder.target_games, rng)
    others = [c for c in pool if c.bot_id != first.bot_id]
    # Avoid a second bot of one owner while enough bots of other owners exist.
    other_owners = {c.owner_id for c in others if c.owner_id != first.owner_id}
    if len(other_owners) >= need - 1:
        others = [c for c in others if c.owner_id != first.owner_id]
    others.sort(key=lambda c: (abs(c.mu - first.mu), c.version.pk))
    nearest = others[: max(NEAREST_K, need - 1)]
    table = [first]
    while len(table) < need:
        owners = {c.owner_id for c in table}
        open_ = [c for c in nearest if c not in table]
        fresh = [c for c in open_ if c.owner_id not in owners]
        if not fresh and len(other_owners - owners) > 0:
            # The nearest are all of seated owners: take the nearest bot of a new owner.
            fresh = [c for c in others if c.owner_id not in owners][:1]
        table.append(rng.choice(fresh or open_))
    rng.shuffle(table)
    return table


def _choose_ladder(ladders: list[Ladder], rng: random.Random) -> Ladder:
    return rng.choices(ladders, weights=[ladder.schedule_weight for ladder in ladders])[0]


def waiting_ranked_matches() -> int:
    return Match.objects.filter(Q(status__in=WAITING), ranked=True, kind=Match.Kind.LADDER).count()


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
    overfill the queue together; the matches reach the workers when it commits.
    """
    if not _only_matchmaker():
        return []
    rng = rng or random.SystemRandom()  # unseeded: pass a seeded generator to replay a run
    capacity = settings.MONSOON_QUEUE_TARGET if capacity is None else capacity
    missing = capacity - waiting_ranked_matches()
    if missing <= 0:
        return []
    pools = {ladder.pk: (ladder, candidates(ladder)) for ladder in schedulable_ladders()}
    playable = [
        ladder
        for ladder, pool in pools.values()
        if len({c.bot_id for c in pool}) >= ladder.num_players
    ]
    created: list[int] = []
    while playable and len(created) < missing:
        ladder = _choose_ladder(playable, rng)
        table = pick_table(ladder, pools[ladder.pk][1], rng)
        if table is None:
            playable.remove(ladder)
            continue
        match = create_match(ladder, [c.version for c in table], seed=new_seed(rng))
        for seat in table:
            seat.games += 1
        created.append(match.pk)
    return created
