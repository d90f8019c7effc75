"""Pairing and seating on their own (no database)."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ladder.tournaments import pairing as p


def all_tables(plans):
    return [t for plan in plans for t in plan.tables]


def partitions(players, k):
    """Every way to split players into tables of k (brute force for the property tests)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for partners in itertools.combinations(rest, k - 1):
        left = [e for e in rest if e not in partners]
        for more in partitions(left, k):
            yield [(first, *partners), *more]


# --- round robin ----------------------------------------------------------------------------


@pytest.mark.parametrize("n,k", [(4, 2), (7, 2), (5, 3), (7, 3), (8, 4), (9, 4), (6, 5)])
def test_full_round_robin_plays_every_table_once_and_nobody_twice_a_round(n, k):
    plans = p.round_robin_rounds(list(range(n)), k)
    tables = all_tables(plans)
    assert sorted(tuple(sorted(t)) for t in tables) == list(itertools.combinations(range(n), k))
    for plan in plans:
        seated = [e for t in plan.tables for e in t]
        assert len(seated) == len(set(seated))
    # Pairs meet equally often: C(n-2, k-2) each.
    assert set(p.meetings_of(tables).values()) == {math.comb(n - 2, k - 2)}


def test_two_player_round_robin_is_the_circle_method():
    plans = p.round_robin_rounds(list(range(7)), 2)
    assert len(plans) == 7 and all(len(plan.byes) == 1 for plan in plans)
    assert sorted(b for plan in plans for b in plan.byes) == list(range(7))
    plans = p.round_robin_rounds(list(range(8)), 2)
    assert len(plans) == 7 and all(len(plan.tables) == 4 and not plan.byes for plan in plans)


@pytest.mark.parametrize("n,k", [(13, 3), (16, 4), (21, 3)])
def test_balanced_design_for_large_fields(n, k):
    assert not p.uses_full_design(n, k)
    plans = p.round_robin_rounds(list(range(n)), k)
    assert len(plans) == math.ceil((n - 1) / (k - 1))
    byes = Counter(b for plan in plans for b in plan.byes)
    assert max(byes.values(), default=0) - min((byes[e] for e in range(n)), default=0) <= 1
    for plan in plans:
        assert len(plan.tables) == n // k and len(plan.byes) == n % k
    meetings = p.meetings_of(all_tables(plans))
    # Pairs meet about equally often: at most twice, and most pairs have met.
    assert max(meetings.values()) <= 2
    assert len(meetings) >= 0.8 * math.comb(n, 2)


def test_rotations_give_every_entrant_every_seat_once():
    rots = p.rotations((10, 20, 30, 40))
    for e in (10, 20, 30, 40):
        assert sorted(r.index(e) for r in rots) == [0, 1, 2, 3]


# --- Swiss ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "n,k,tables,byes",
    [(7, 3, 2, 1), (8, 3, 2, 2), (5, 2, 2, 1), (11, 4, 2, 3), (9, 3, 3, 0), (3, 3, 1, 0)],
)
def test_table_counts_and_byes_for_awkward_fields(n, k, tables, byes):
    plan = p.swiss_round(list(range(n)), k, scores={}, meetings={}, bye_counts={})
    assert len(plan.tables) == tables and len(plan.byes) == byes
    seated = [e for t in plan.tables for e in t] + plan.byes
    assert sorted(seated) == list(range(n))
    assert all(len(t) == k for t in plan.tables)


def test_byes_go_to_those_with_fewest_then_lowest_score():
    scores = {0: 5, 1: 4, 2: 3, 3: 2, 4: 1, 5: 0, 6: 0}
    plan = p.swiss_round(list(range(7)), 3, scores=scores, meetings={}, bye_counts={6: 1})
    assert plan.byes == [5]


def test_swiss_groups_by_score():
    scores = {e: float(10 - e) for e in range(9)}
    plan = p.swiss_round(list(range(9)), 3, scores=scores, meetings={}, bye_counts={})
    assert plan.tables == [(0, 1, 2), (3, 4, 5), (6, 7, 8)]


def test_swiss_avoids_a_repeat_when_it_can():
    scores = {e: float(10 - e) for e in range(6)}
    meetings = {p.pair_key(0, 1): 1}
    plan = p.swiss_round(list(range(6)), 3, scores=scores, meetings=meetings, bye_counts={})
    for table in plan.tables:
        assert not {0, 1} <= set(table)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_no_repeated_pairing_while_a_fresh_one_exists(data):
    k = data.draw(st.sampled_from([2, 3]))
    n = data.draw(st.integers(min_value=k, max_value=9 if k == 3 else 10))
    entrants = list(range(n))
    pairs = list(itertools.combinations(entrants, 2))
    met = data.draw(st.sets(st.sampled_from(pairs), max_size=len(pairs)))
    meetings = {pair: 1 for pair in met}
    scores = {e: data.draw(st.integers(0, 6)) for e in entrants}
    plan = p.swiss_round(entrants, k, scores=scores, meetings=meetings, bye_counts={})
    players = [e for e in entrants if e not in plan.byes]
    fresh_exists = any(
        all(p.pair_key(a, b) not in met for t in part for a, b in itertools.combinations(t, 2))
        for part in partitions(players, k)
    )
    repeats = sum(
        meetings.get(p.pair_key(a, b), 0)
        for t in plan.tables
        for a, b in itertools.combinations(t, 2)
    )
    if fresh_exists:
        assert repeats == 0


def test_a_swiss_event_never_repeats_while_unplayed_pairs_allow():
    # 9 entrants, 3-player tables: 4 rounds of 3 tables can meet every pair exactly once
    # (a resolvable design exists); the search must not repeat in any of them.
    entrants = list(range(9))
    meetings: Counter = Counter()
    for _ in range(4):
        plan = p.swiss_round(entrants, 3, scores={}, meetings=meetings, bye_counts={})
        meetings.update(p.meetings_of(plan.tables))
    assert max(meetings.values()) == 1 and len(meetings) == 36


# --- seats ----------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", [p.SWISS, p.ELIMINATION])
def test_games_in_multiples_of_k_balance_seats_exactly(fmt):
    blocks = p.table_games((1, 2, 3), fmt, 3, False, {})
    seatings = [s for b in blocks for s in b]
    counts = p.seat_counts_of(seatings, 3)
    assert all(c == [1, 1, 1] for c in counts.values())


@settings(max_examples=30, deadline=None)
@given(n=st.integers(6, 12), rounds=st.integers(3, 9), seed=st.integers(0, 1000))
def test_swiss_seat_balance_over_an_event(n, rounds, seed):
    """One game a table a round: every entrant's seat counts stay within one of each other
    after each round where that is possible at all, and within two always."""
    import random

    rng = random.Random(seed)
    k = 3
    entrants = list(range(n))
    meetings: Counter = Counter()
    seat_counts: dict[int, list[int]] = {}
    scores = {e: 0.0 for e in entrants}
    for _ in range(rounds):
        plan = p.swiss_round(entrants, k, scores=scores, meetings=meetings, bye_counts={})
        for table in plan.tables:
            ((seating,),) = p.table_games(table, p.SWISS, 1, False, seat_counts)
            for seat, e in enumerate(seating):
                seat_counts.setdefault(e, [0] * k)[seat] += 1
            for e in table:
                scores[e] += rng.choice([0, 1, 2])
        meetings.update(p.meetings_of(plan.tables))
    for counts in seat_counts.values():
        assert max(counts) - min(counts) <= 2


def test_duplicate_gives_each_entrant_every_seat_of_the_same_seed():
    for fmt in (p.ROUND_ROBIN, p.SWISS, p.ELIMINATION):
        blocks = p.table_games((7, 8, 9, 10), fmt, 2, True, {})
        assert len(blocks) == 2
        for block in blocks:
            assert len(block) == 4
            for e in (7, 8, 9, 10):
                assert sorted(s.index(e) for s in block) == [0, 1, 2, 3]


def test_round_robin_without_duplicate_plays_each_rotation_separately():
    blocks = p.table_games((1, 2, 3), p.ROUND_ROBIN, 2, False, {})
    assert len(blocks) == 6 and all(len(b) == 1 for b in blocks)


# --- elimination ----------------------------------------------------------------------------


def test_elimination_seven_at_three_player_tables():
    entrants = [10, 11, 12, 13, 14, 15, 16]  # seed order
    plan = p.elimination_round(entrants, 3)
    assert plan.byes == [10] and len(plan.tables) == 2
    # Snake seeding: seeds 2 and 3 at different tables, 2 with 5th-best... i.e. 11 with 14, 15.
    assert sorted(map(sorted, plan.tables)) == [[11, 14, 15], [12, 13, 16]]
    points = {11: 1.0, 14: 3.0, 15: 0.0, 12: 2.0, 13: 2.0, 16: 0.0}
    nxt = p.elimination_advance(plan, entrants, 3, 1, points)
    assert nxt == [10, 12, 14]  # bye, the 12/13 tie goes to the better seed, 14 won its table
    assert p.elimination_sizes(7, 3, 1) == [7, 3]


def test_elimination_lucky_loser_fills_the_final():
    entrants = [1, 2, 3, 4]
    plan = p.elimination_round(entrants, 3)
    assert plan.byes == [1] and plan.tables == [(2, 3, 4)]
    nxt = p.elimination_advance(plan, entrants, 3, 1, {2: 0.0, 3: 2.0, 4: 1.0})
    assert nxt == [1, 3, 4]
    assert p.elimination_sizes(4, 3, 1) == [4, 3]


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 40), k=st.integers(2, 5), data=st.data())
def test_elimination_always_ends_in_one_full_final(n, k, data):
    if n < k:
        with pytest.raises(p.PairingError):
            p.elimination_sizes(n, k, 1)
        return
    advance = data.draw(st.integers(1, k - 1))
    sizes = p.elimination_sizes(n, k, advance)
    assert sizes[-1] == k and all(a > b for a, b in itertools.pairwise(sizes))
    field = list(range(n))
    rounds = 0
    while True:
        plan = p.elimination_round(field, k)
        rounds += 1
        assert len(field) == sizes[rounds - 1]
        if p.is_final(plan):
            break
        points = {e: float(data.draw(st.integers(0, 4))) for t in plan.tables for e in t}
        field = p.elimination_advance(plan, list(range(n)), k, advance, points)
    assert rounds == len(sizes)


def test_too_few_entrants_refused():
    with pytest.raises(p.PairingError):
        p.swiss_round([1, 2], 3, scores={}, meetings={}, bye_counts={})
