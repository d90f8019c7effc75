"""The Plackett-Luce rating model on known cases (pure numpy, no database)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ladder.lifecycle.types import MatchResult
from ladder.ratings import plackett_luce as pl


@pytest.mark.parametrize("difference", [0, 100, 200, 400, -300])
def test_two_player_win_probability_is_classic_elo(difference):
    a, b = 1500 + difference, 1500
    expected = 1 / (1 + 10 ** ((b - a) / 400))
    assert pl.order_probability([a, b], [0, 1]) == pytest.approx(expected)
    assert pl.elo_expected(a, b) == pytest.approx(expected)


def test_four_player_order_probability_by_hand():
    # Ratings 1900, 1700, 1500, 1500 are strengths 10**(r/400) up to a common factor:
    # 10**1 = 10, 10**0.5 = 3.1623, 1, 1.
    ratings = [1900.0, 1700.0, 1500.0, 1500.0]
    g = [10.0, math.sqrt(10.0), 1.0, 1.0]
    by_hand = (g[1] / sum(g)) * (g[0] / (g[0] + g[2] + g[3])) * (g[3] / (g[2] + g[3]))
    # Order: seat 1 first, then seat 0, then seat 3, then seat 2.
    assert pl.order_probability(ratings, [1, 0, 3, 2]) == pytest.approx(by_hand)
    # 3.1623 / 15.1623 = 0.2086;  10 / 12 = 0.8333;  1 / 2 = 0.5;  product 0.0869.
    assert by_hand == pytest.approx(0.0869, abs=1e-4)


def test_log_likelihood_matches_order_probability():
    theta = np.array([0.5, -0.2, 0.1, 0.0])
    data = pl.Matches(
        players=np.array([[0, 1, 2, 3]]), ranks=np.array([[2, 1, 4, 3]]), num_players=4
    )
    elo = [float(pl.to_elo(t)) for t in theta]
    assert pl.log_likelihood(theta, data) == pytest.approx(
        math.log(pl.order_probability(elo, [1, 0, 3, 2]))
    )


def test_tie_for_two_players_counts_as_half_a_win():
    # Breslow's rule: a tie pulls two players together, like Elo's half point.
    data = pl.Matches(players=np.array([[0, 1]] * 10), ranks=np.array([[1, 1]] * 10), num_players=2)
    theta = pl.fit(data, start=np.array([1.0, -1.0]))
    assert theta[0] == pytest.approx(theta[1], abs=1e-6)


def simulate(num_bots, num_matches, table, seed):
    rng = np.random.default_rng(seed)
    truth = rng.normal(0, 1, num_bots)
    players = np.array([rng.choice(num_bots, table, replace=False) for _ in range(num_matches)])
    noisy = truth[players] + rng.gumbel(size=players.shape)  # Gumbel noise: exactly PL
    ranks = np.argsort(np.argsort(-noisy, axis=1), axis=1) + 1
    return truth, pl.Matches(players, ranks, num_bots)


def test_fit_recovers_known_strengths():
    truth, data = simulate(20, 3000, 4, seed=3)
    theta = pl.fit(data)
    assert pl.spearman(theta, truth) > 0.95
    assert np.max(np.abs((theta - theta.mean()) - (truth - truth.mean()))) < 0.35


def test_fit_does_not_depend_on_match_order():
    _, data = simulate(10, 400, 3, seed=5)
    order = np.random.default_rng(9).permutation(len(data))
    assert np.allclose(pl.fit(data), pl.fit(data.subset(order)), atol=1e-8)


def test_undefeated_bot_gets_a_finite_rating():
    data = pl.Matches(players=np.array([[0, 1]] * 20), ranks=np.array([[1, 2]] * 20), num_players=2)
    theta = pl.fit(data)
    assert np.all(np.isfinite(theta))
    assert theta[0] > theta[1]


def test_bootstrap_interval_contains_the_estimate_and_narrows_with_data():
    _, small = simulate(8, 80, 4, seed=1)
    _, large = simulate(8, 1600, 4, seed=1)
    small_fit = pl.fit_with_interval(small, samples=40)
    large_fit = pl.fit_with_interval(large, samples=40)
    assert np.all(small_fit.low <= small_fit.theta + 1e-9)
    assert np.all(small_fit.theta <= small_fit.high + 1e-9)
    assert np.mean(large_fit.high - large_fit.low) < 0.5 * np.mean(small_fit.high - small_fit.low)


def test_live_update_moves_winner_up_and_shrinks_uncertainty():
    mu, sd = pl.live_update(np.zeros(3), np.full(3, pl.PRIOR_SD), np.array([1, 2, 3]))
    assert mu[0] > mu[1] > mu[2]
    assert np.all(sd < pl.PRIOR_SD)


def test_live_update_for_equal_two_players_is_elo_like():
    # Winner and loser move by the same amount in opposite directions.
    mu, _ = pl.live_update(np.zeros(2), np.full(2, 0.5), np.array([1, 2]))
    assert mu[0] == pytest.approx(-mu[1])
    assert mu[0] > 0


def test_forfeits_count_as_last_place():
    # Seat 0 had the best score but forfeited; seats 1 and 3 keep their order.
    assert places([1, 3, 4, 2], [None, None, None, None]) == [1, 3, 4, 2]
    assert places([1, 3, 4, 2], ["timeout", None, None, None]) == [4, 2, 3, 1]
    assert places([1, 2, 3], ["crash", "crash", None]) == [2, 2, 1]


def places(ranking: list[int], forfeits: list[str | None]) -> list[int]:
    n = len(ranking)
    return MatchResult(
        scores=(0,) * n,
        ranking=tuple(ranking),
        forfeits=tuple(forfeits),
        stderr=("",) * n,
        log=None,
    ).places
