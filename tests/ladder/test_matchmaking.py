"""Matchmaking rules: neediest first, nearest opponents, no same-bot or same-owner tables."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.accounts.services import create_user
from ladder.ladders.models import Ladder
from ladder.matches.models import Match
from ladder.ratings import matchmaking
from ladder.ratings.models import Rating
from tests.factories import ladder_for, make_active_version, make_bot


@pytest.fixture
def only_three_player_batavia(db):
    Ladder.objects.exclude(game="batavia", num_players=3).update(schedule_enabled=False)
    return ladder_for(players=3)


def field_of(owner_names, bots_each=1):
    versions = []
    for name in owner_names:
        owner = create_user(name)
        for i in range(bots_each):
            versions.append(make_active_version(make_bot(owner, f"{name}-{i}")))
    return versions


def seats_of(match_id):
    return list(Match.objects.get(pk=match_id).seats.select_related("bot_version__bot"))


def test_fills_queue_to_capacity_and_no_further(only_three_player_batavia):
    field_of(["ann", "ben", "cat", "dan", "eve"])
    created = matchmaking.fill_queue(capacity=4, rng=random.Random(1))
    assert len(created) == 4
    assert matchmaking.fill_queue(capacity=4, rng=random.Random(2)) == []
    assert all(m.ranked and m.status == Match.Status.QUEUED for m in Match.objects.all())


def test_never_two_versions_of_one_bot_and_avoids_same_owner(only_three_player_batavia):
    versions = field_of(["ann", "ben", "cat", "dan"], bots_each=2)
    # Give one bot a retired version too: it must never sit beside its successor.
    make_active_version(versions[0].bot, b"print('v2')\n")
    for match_id in matchmaking.fill_queue(capacity=30, rng=random.Random(3)):
        seats = seats_of(match_id)
        bots = [s.bot_version.bot_id for s in seats]
        owners = [s.bot_version.bot.owner_id for s in seats]
        assert len(set(bots)) == 3
        assert len(set(owners)) == 3  # four owners exist, so never two of one owner


def test_same_owner_allowed_when_not_enough_owners(only_three_player_batavia):
    field_of(["ann", "ben"], bots_each=2)
    created = matchmaking.fill_queue(capacity=5, rng=random.Random(4))
    assert len(created) == 5
    for match_id in created:
        assert len({s.bot_version.bot_id for s in seats_of(match_id)}) == 3


def test_only_latest_active_version_of_public_bots_plays(only_three_player_batavia):
    versions = field_of(["ann", "ben", "cat", "dan"])
    newer = make_active_version(versions[0].bot, b"print('v2')\n")
    hidden = versions[1].bot
    hidden.is_public = False
    hidden.save()
    played: Counter[int] = Counter()
    for match_id in matchmaking.fill_queue(capacity=10, rng=random.Random(5)):
        played.update(s.bot_version_id for s in seats_of(match_id))
    assert versions[0].pk not in played and newer.pk in played
    assert versions[1].pk not in played


def test_newest_most_uncertain_version_goes_first(only_three_player_batavia):
    ladder = only_three_player_batavia
    versions = field_of(["ann", "ben", "cat", "dan", "eve", "fay", "gus"])
    for v in versions[:-1]:
        Rating.objects.create(
            ladder=ladder,
            bot_version=v,
            mu=0.0,
            sd=0.3,
            rating=1500,
            low=1400,
            high=1600,
            games=ladder.target_games,
        )
    newcomer = versions[-1]
    for seed in range(5):
        Match.objects.all().delete()
        first = matchmaking.fill_queue(capacity=1, rng=random.Random(seed))
        assert newcomer.pk in [s.bot_version_id for s in seats_of(first[0])]


def test_opponents_come_from_the_nearest_in_rating(only_three_player_batavia):
    ladder = only_three_player_batavia
    versions = field_of([f"p{i:02d}" for i in range(16)])
    for i, v in enumerate(versions):
        # The newcomer (last) is rated near the bottom; everyone else has played enough.
        games = 0 if v is versions[-1] else ladder.target_games
        Rating.objects.create(
            ladder=ladder,
            bot_version=v,
            mu=i * 0.5 if games else 0.1,
            sd=0.2,
            rating=1500,
            low=1400,
            high=1600,
            games=games,
        )
    # Nearest to mu=0.1 are p00..p05 (mu 0, 0.5, ..., 2.5): opponents must come from them.
    allowed = {v.pk for v in versions[: matchmaking.NEAREST_K]}
    for seed in range(10):
        Match.objects.all().delete()
        [match_id] = matchmaking.fill_queue(capacity=1, rng=random.Random(seed))
        others = {s.bot_version_id for s in seats_of(match_id)} - {versions[-1].pk}
        assert others <= allowed


def test_seats_are_shuffled(only_three_player_batavia):
    versions = field_of(["ann", "ben", "cat"])
    first_seat: Counter[int] = Counter()
    for match_id in matchmaking.fill_queue(capacity=30, rng=random.Random(6)):
        first_seat[seats_of(match_id)[0].bot_version_id] += 1
    assert set(first_seat) == {v.pk for v in versions}


def test_ladder_settings_choose_player_counts(db):
    Ladder.objects.update(schedule_enabled=False)
    Ladder.objects.filter(game="batavia", num_players=4).update(schedule_enabled=True)
    field_of(["ann", "ben", "cat", "dan", "eve"])
    created = matchmaking.fill_queue(capacity=3, rng=random.Random(7))
    assert len(created) == 3
    assert {Match.objects.get(pk=m).ladder.num_players for m in created} == {4}


def test_too_few_bots_schedules_nothing(only_three_player_batavia):
    field_of(["ann", "ben"])
    assert matchmaking.fill_queue(capacity=3, rng=random.Random(8)) == []


def test_management_command(only_three_player_batavia, capsys):
    field_of(["ann", "ben", "cat"])
    call_command("matchmake", capacity=2, seed=1)
    assert "2 match(es) queued" in capsys.readouterr().out
    assert Match.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_second_matchmaker_waits_its_turn():
    import threading

    from django.db import connection, transaction

    Ladder.objects.exclude(game="batavia", num_players=3).update(schedule_enabled=False)
    field_of(["ann", "ben", "cat"])
    held, release = threading.Event(), threading.Event()

    def hold_the_lock():
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [matchmaking.MATCHMAKER_LOCK])
            held.set()
            release.wait(10)
        connection.close()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    held.wait(10)
    try:
        assert matchmaking.fill_queue(capacity=3, rng=random.Random(1)) == []
    finally:
        release.set()
        holder.join()
    assert len(matchmaking.fill_queue(capacity=3, rng=random.Random(1))) == 3


def test_games_spread_evenly_once_everyone_reached_the_target(only_three_player_batavia):
    ladder = only_three_player_batavia
    versions = field_of(["ann", "ben", "cat", "dan", "eve", "fay"])
    for v in versions:
        Rating.objects.create(
            ladder=ladder,
            bot_version=v,
            mu=0.0,
            sd=0.3,
            rating=1500,
            low=1400,
            high=1600,
            games=ladder.target_games + 10,
        )
    seats: Counter[int] = Counter()
    for match_id in matchmaking.fill_queue(capacity=12, rng=random.Random(2)):
        seats.update(s.bot_version_id for s in seats_of(match_id))
    # 36 seats over six bots: each is first at a table twice, opponents are random among the
    # nearest; without the rotation one bot would sit at all 12 tables.
    assert len(seats) == 6 and max(seats.values()) <= 9 and min(seats.values()) >= 4


def _stand_in(pk: int, mu: float, games: int, sd: float) -> matchmaking.Candidate:
    """A candidate without the database: the pool reads only pk, bot, owner, mu, sd, games."""
    bot = SimpleNamespace(owner_id=pk % 3)
    version = SimpleNamespace(pk=pk, bot_id=pk, bot=bot)
    return matchmaking.Candidate(version=version, mu=mu, sd=sd, games=games)  # type: ignore[arg-type]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([-1.0, 0.0, 0.0, 0.5, 2.0]),
            st.integers(0, 3),
            st.sampled_from([0.5, 2.0]),
        ),
        min_size=2,
        max_size=30,
    ),
    st.data(),
)
def test_the_indexed_pool_orders_as_a_full_sort_would(rows, data):
    # The pool answers from indexes what a scan of every candidate used to: the neediest is the
    # unsettled, then the fewest games, then the highest sd, then the newest; the nearest go by
    # rating gap, then id.
    pool_rows = [_stand_in(pk, mu, games, sd) for pk, (mu, games, sd) in enumerate(rows, start=1)]
    pool = matchmaking.Pool(pool_rows)
    for _ in range(data.draw(st.integers(0, 5))):
        pool.seated(data.draw(st.sampled_from(pool_rows)))
    neediest = min(pool_rows, key=lambda c: (not pool.unsettled(c), c.games, -c.sd, -c.version.pk))
    assert pool.neediest() is neediest
    first = data.draw(st.sampled_from(pool_rows))
    expected = sorted(
        (c for c in pool_rows if c is not first),
        key=lambda c: (abs(c.mu - first.mu), c.version.pk),
    )
    assert list(pool.nearest(first)) == expected


# --- new versions and the pace of the queue (issue 29: time to a trustworthy rank) ---------


def _rate(ladder, version, *, games, sd=0.3, mu=0.0):
    Rating.objects.create(
        ladder=ladder,
        bot_version=version,
        mu=mu,
        sd=sd,
        rating=1500,
        low=1400,
        high=1600,
        games=games,
    )


def _spread_field(ladder, count, *, gap):
    """``count - 1`` established versions with settled ratings ``gap`` apart (natural units),
    few games each, and a newcomer without a rating (last)."""
    versions = field_of([f"p{i:02d}" for i in range(count)])
    for i, v in enumerate(versions[:-1]):
        _rate(ladder, v, games=6, sd=0.05, mu=i * gap)
    return versions


def test_a_new_version_is_seated_until_its_rank_can_be_trusted(only_three_player_batavia):
    # The established bots have fewer games than the queue holds, but settled ratings; ordering
    # by games alone gave the newcomer its first six tables and then shared the rest out.
    versions = _spread_field(only_three_player_batavia, 10, gap=0.3)
    created = matchmaking.fill_queue(capacity=20, rng=random.Random(11))
    assert len(created) == 20
    assert all(versions[-1].pk in {s.bot_version_id for s in seats_of(m)} for m in created)


def test_a_new_version_gets_only_the_tables_that_settle_it(only_three_player_batavia):
    # Its priority lasts until the tables already scheduled for it are expected to settle its
    # rank (about 23 games here): a large queue is not handed to one newcomer.
    versions = _spread_field(only_three_player_batavia, 10, gap=0.3)
    created = matchmaking.fill_queue(capacity=100, rng=random.Random(12))
    seated = sum(versions[-1].pk in {s.bot_version_id for s in seats_of(m)} for m in created)
    assert 15 <= seated <= 35


def test_versions_the_ladder_cannot_tell_apart_are_not_in_doubt(only_three_player_batavia):
    # Bots among equals would be in doubt for ever: means closer than the ladder's resolution
    # (the interval a version has after the target games) do not count.
    ladder = only_three_player_batavia
    field = _spread_field(ladder, 8, gap=0.05)
    crowd, newcomer = field[:-1], field[-1]
    Rating.objects.filter(bot_version__in=crowd).update(sd=1.0)
    pool = matchmaking.Pool(matchmaking.candidates(ladder), target_games=ladder.target_games)
    assert [c.version.pk for c in pool.candidates if pool.unsettled(c)] == [newcomer.pk]
    spread = matchmaking.Pool(matchmaking.candidates(ladder), target_games=None)
    assert all(spread.unsettled(c) for c in spread.candidates)


def test_a_version_in_doubt_goes_before_a_version_with_fewer_games():
    settled = _stand_in(1, 0.0, games=6, sd=0.05)
    in_doubt = _stand_in(2, 0.2, games=30, sd=1.5)
    others = [_stand_in(pk, 0.1 * pk, games=40, sd=0.05) for pk in range(3, 8)]
    pool = matchmaking.Pool([settled, in_doubt, *others])
    assert pool.neediest() is in_doubt


def _worker(slots, *, queues=("matches", "validation"), stopped=False):
    from django.utils import timezone

    from ladder.fleet.models import WorkerNode

    now = timezone.now()
    return WorkerNode.objects.create(
        name=f"w{WorkerNode.objects.count()}@host",
        hostname="host",
        pid=1,
        slots=slots,
        queues=list(queues),
        sandbox="bwrap",
        started_at=now,
        last_seen=now,
        stopped_at=now if stopped else None,
    )


def _finished(ladder, versions, count, seconds):
    from datetime import timedelta

    from django.utils import timezone

    from ladder.matches.services import create_match

    now = timezone.now()
    for _ in range(count):
        match = create_match(ladder, versions, queue=False)
        Match.objects.filter(pk=match.pk).update(
            status=Match.Status.FINISHED,
            started_at=now - timedelta(seconds=seconds),
            finished_at=now,
        )


def test_the_queue_keeps_the_fleets_slots_busy_until_the_next_run(
    only_three_player_batavia, settings
):
    # Matches of 1 s on two slots, the matchmaker every 10 s: 20 matches keep both busy until
    # it runs again, where the fixed target of 8 left them idle most of the time.
    settings.MONSOON_QUEUE_TARGET = 8
    settings.MONSOON_MATCHMAKE_SECONDS = 10
    versions = field_of(["ann", "ben", "cat", "dan"])
    _finished(only_three_player_batavia, versions[:3], 5, seconds=1.0)
    assert matchmaking.queue_capacity() == 8  # no worker is up: the target alone
    _worker(2)
    _worker(4, stopped=True)
    _worker(4, queues=("validation",))
    assert matchmaking.queue_capacity() == 20
    assert len(matchmaking.fill_queue(rng=random.Random(13))) == 20


def test_the_queue_is_never_below_the_target_nor_above_ten_times_it(
    only_three_player_batavia, settings
):
    settings.MONSOON_QUEUE_TARGET = 8
    settings.MONSOON_MATCHMAKE_SECONDS = 10
    versions = field_of(["ann", "ben", "cat"])
    _worker(2)
    assert matchmaking.queue_capacity() == 8  # no match played yet: nothing to go by
    _finished(only_three_player_batavia, versions, 3, seconds=60)
    assert matchmaking.queue_capacity() == 8
    _finished(only_three_player_batavia, versions, 20, seconds=0.001)
    assert matchmaking.queue_capacity() == 80
    settings.MONSOON_QUEUE_TARGET = 0  # the matchmaker switched off stays off
    assert matchmaking.queue_capacity() == 0


def test_tables_of_a_version_in_doubt_go_before_the_waiting_ones(only_three_player_batavia):
    # A full queue of established tables no longer stands between a new version and its games:
    # they are held (queued -> new) while it is in doubt, and queued again, before any new
    # table, once it is not.
    ladder = only_three_player_batavia
    field = _spread_field(ladder, 8, gap=1.0)
    established, newcomer = field[:-1], field[-1]
    newcomer.bot.is_public = False  # not playing yet
    newcomer.bot.save()
    Rating.objects.filter(bot_version__in=established).update(games=ladder.target_games)
    waiting = matchmaking.fill_queue(capacity=4, rng=random.Random(14))
    assert len(waiting) == 4
    newcomer.bot.is_public = True
    newcomer.bot.save()
    first = matchmaking.fill_queue(capacity=4, rng=random.Random(15))
    assert len(first) == 4
    assert all(newcomer.pk in {s.bot_version_id for s in seats_of(m)} for m in first)
    statuses = dict(Match.objects.values_list("pk", "status"))
    assert {statuses[m] for m in waiting} == {Match.Status.NEW}
    assert {statuses[m] for m in first} == {Match.Status.QUEUED}
    # The newcomer's tables are played and its rank settles: the held tables go back first.
    Match.objects.filter(pk__in=first).update(status=Match.Status.FINISHED)
    Rating.objects.create(
        ladder=ladder, bot_version=newcomer, mu=20.0, sd=0.05, rating=1500, low=1490,
        high=1510, games=ladder.target_games,
    )  # fmt: skip
    assert matchmaking.fill_queue(capacity=4, rng=random.Random(16)) == []
    statuses = dict(Match.objects.values_list("pk", "status"))
    assert {statuses[m] for m in waiting} == {Match.Status.QUEUED}
