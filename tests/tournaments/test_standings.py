"""Points, tie-breaks, the bootstrap and the cross-table on their own (no database)."""

from __future__ import annotations

import pytest

from ladder.tournaments.standings import Bye, GameResult, compute, crosstable, placement_points
from tests.helpers import present


def game(unit, entrants, places, round_=1, table=0, forfeits=()):
    return GameResult(
        unit=unit,
        round=round_,
        table=table,
        entrants=tuple(entrants),
        places=tuple(places),
        forfeits=tuple(forfeits),
    )


@pytest.mark.parametrize(
    "places,points",
    [
        ([1, 2, 3], [2, 1, 0]),
        ([1, 1, 3], [1.5, 1.5, 0]),
        ([1, 2, 2, 4], [3, 1.5, 1.5, 0]),
        ([2, 1], [0, 1]),
        ([1, 1, 1, 1, 1], [2, 2, 2, 2, 2]),
    ],
)
def test_placement_points(places, points):
    assert placement_points(places) == points


def test_points_byes_and_forfeits():
    # Forfeited seats share last place (the match record's places), whatever their score.
    games = [
        game(1, (1, 2, 3), (1, 2, 3)),
        game(2, (2, 3, 4), (2, 1, 2), forfeits=(True, False, True)),
    ]
    rows = {r.entrant: r for r in compute([1, 2, 3, 4], games, [Bye(1, 4, games=1)], k=3)}
    assert rows[1].points == 2 and rows[1].games == 1
    assert rows[2].points == 1 + 0.5 and rows[2].forfeits == 1
    assert rows[3].points == 0 + 2
    assert rows[4].points == 1 + 0.5 and rows[4].byes == 1  # the bye is worth (k-1)/2


def test_tie_breaks_in_order():
    # 1 and 2 both end on 2 points; 1 met the stronger opposition (opponents' score decides).
    games = [
        game(1, (1, 5, 6), (1, 2, 3)),  # 1: 2, 5: 1, 6: 0
        game(2, (2, 7, 8), (1, 2, 3)),  # 2: 2, 7: 1, 8: 0
        game(3, (5, 6, 3), (1, 2, 3)),  # 5 and 6 score again: 1's opponents are stronger
    ]
    rows = compute([1, 2, 3, 5, 6, 7, 8], games, k=3)
    order = [r.entrant for r in rows]
    assert order.index(1) < order.index(2)
    one, two = (next(r for r in rows if r.entrant == e) for e in (1, 2))
    assert one.points == two.points and one.opponents_score > two.opponents_score


def test_buchholz_after_opponents_score():
    # 1 and 2 each beat one opponent with the same mean per game (2/3), but 2's opponent played
    # twice as many games: opponents' score ties, Buchholz (totals) puts 2 ahead.
    games = [
        game(1, (1, 3), (1, 2)),
        game(2, (3, 9), (1, 2)),
        game(3, (3, 9), (1, 2)),
        game(4, (2, 4), (1, 2)),
        game(8, (4, 8), (2, 1)),
    ]
    games += [game(10 + i, (4, 9), (1, 2)) for i in range(4)]
    rows = {r.entrant: r for r in compute([1, 2, 3, 4, 8, 9], games, k=2)}
    assert rows[1].points == rows[2].points == 1
    assert rows[1].opponents_score == rows[2].opponents_score == round(2 / 3, 6)
    assert rows[1].buchholz == 2 and rows[2].buchholz == 4
    assert rows[2].rank < rows[1].rank


def test_direct_encounter_then_seed():
    # 1 and 2: 2 points each from the same kind of schedule (opponents' score and Buchholz
    # equal), but 2 beat 1 where they met: 2 goes first despite the worse seed.
    games = [
        game(1, (2, 1), (1, 2)),
        game(2, (1, 3), (1, 2)),
        game(3, (2, 3), (1, 2)),
        game(4, (1, 4), (1, 2)),
        game(5, (4, 2), (1, 2)),
    ]
    rows = compute([1, 2, 3, 4], games, k=2, seeds={1: 1, 2: 2, 3: 3, 4: 4})
    by = {r.entrant: r for r in rows}
    assert (by[1].points, by[1].opponents_score, by[1].buchholz) == (
        by[2].points,
        by[2].opponents_score,
        by[2].buchholz,
    )
    assert [r.entrant for r in rows][:2] == [2, 1]
    assert by[2].direct == 1 and by[1].direct == 0


def test_seed_is_the_last_tie_break():
    games = [game(1, (1, 2), (1, 1))]
    rows = compute([1, 2], games, k=2, seeds={1: 2, 2: 1})
    assert [r.entrant for r in rows] == [2, 1]


def test_elimination_ranks_by_round_reached_first():
    games = [
        game(1, (1, 2, 3), (1, 2, 3), round_=1),
        game(2, (4, 5, 6), (1, 2, 3), round_=1),
        game(3, (7, 1, 4), (3, 2, 1), round_=2),
    ]
    rows = compute([1, 2, 3, 4, 5, 6, 7], games, [Bye(1, 7, games=0)], k=3, elimination=True)
    assert [r.entrant for r in rows][:3] == [4, 1, 7]
    assert rows[0].stage == 2 and rows[0].stage_points == 2
    # 7 took a bye, so it reached round 2 with no points from round 1.
    assert next(r for r in rows if r.entrant == 7).points == 0


def test_bootstrap_is_seeded_and_sane():
    games = [game(i, (1, 2, 3), (1, 2, 3)) for i in range(10)]
    games += [game(10 + i, (1, 2, 3), (2, 1, 3)) for i in range(3)]
    a = compute([1, 2, 3], games, k=3, samples=300, rng_seed=7)
    b = compute([1, 2, 3], games, k=3, samples=300, rng_seed=7)
    assert [r.as_dict() for r in a] == [r.as_dict() for r in b]
    rows = {r.entrant: r for r in a}
    assert present(rows[1].p_first) > 0.9 and rows[3].p_first == 0
    assert rows[3].rank_low == rows[3].rank_high == 3  # always last
    assert rows[1].rank_low == 1 and rows[2].rank_high == 2
    assert abs(sum(present(r.p_first) for r in a) - 1) < 1e-9


def test_bootstrap_resamples_duplicate_blocks_whole():
    # Each block is a duplicate pair in which 1 and 2 each win once: resampled whole, no
    # replicate can separate them on points, so direct encounter/seeds decide every time.
    games = []
    for block in range(20):
        games.append(game(block, (1, 2), (1, 2)))
        games.append(game(block, (2, 1), (1, 2)))
    rows = {r.entrant: r for r in compute([1, 2], games, k=2, samples=200, rng_seed=1)}
    assert rows[1].p_first == 1.0  # tied in every replicate: seed 1 first
    # Resampling single games instead would split the blocks and give 2 a share of firsts.
    split = [
        GameResult(unit=i, round=g.round, table=g.table, entrants=g.entrants, places=g.places)
        for i, g in enumerate(games)
    ]
    rows = {r.entrant: r for r in compute([1, 2], split, k=2, samples=200, rng_seed=1)}
    assert 0.2 < present(rows[2].p_first) < 0.8


def test_crosstable():
    games = [game(1, (1, 2, 3), (1, 2, 3)), game(2, (2, 1, 3), (1, 1, 3))]
    table = crosstable([1, 2, 3], games)
    assert table[1][2] == {"games": 2, "ahead": 1, "behind": 0, "tied": 1, "points": 3.5}
    assert table[2][1] == {"games": 2, "ahead": 0, "behind": 1, "tied": 1, "points": 2.5}
    assert table[3][1]["behind"] == 2
