"""The statistics of version tests, checked against values worked out by hand."""

from __future__ import annotations

import math

import pytest

from ladder.versus import sprt


def test_wald_bounds_at_five_percent_are_plus_minus_log_19():
    bounds = sprt.wald_bounds(alpha=0.05, beta=0.05)
    assert bounds.lower == pytest.approx(-math.log(19))
    assert bounds.upper == pytest.approx(math.log(19))


def test_asymmetric_bounds():
    bounds = sprt.wald_bounds(alpha=0.01, beta=0.1)
    assert bounds.lower == pytest.approx(math.log(0.1 / 0.99))
    assert bounds.upper == pytest.approx(math.log(0.9 / 0.01))


@pytest.mark.parametrize(("alpha", "beta"), [(0.0, 0.05), (0.05, 0.5), (-1, 0.05)])
def test_bounds_refuse_impossible_error_rates(alpha, beta):
    with pytest.raises(ValueError, match="alpha and beta"):
        sprt.wald_bounds(alpha=alpha, beta=beta)


def test_elo_and_score_conversions():
    assert sprt.elo_to_score(0) == 0.5
    assert sprt.elo_to_score(400) == pytest.approx(10 / 11)
    assert sprt.score_to_elo(10 / 11) == pytest.approx(400)
    assert sprt.score_to_elo(1 / 11) == pytest.approx(-400)
    with pytest.raises(ValueError, match="no finite Elo"):
        sprt.score_to_elo(1.0)


def test_two_outcomes_reduce_to_walds_classic_test():
    # 20 wins, 30 losses; H0 elo 0 (s0 = 1/2) against H1 elo 400 (s1 = 10/11):
    # LLR = W log(s1/s0) + L log((1-s1)/(1-s0)) = 20 log(20/11) + 30 log(2/11).
    expected = 20 * math.log(20 / 11) + 30 * math.log(2 / 11)
    llr = sprt.log_likelihood_ratio([30, 20], [0.0, 1.0], s0=0.5, s1=10 / 11)
    assert llr == pytest.approx(expected, rel=1e-9)
    assert expected == pytest.approx(-39.1857, abs=1e-3)


def test_constrained_mle_keeps_the_data_when_their_mean_is_the_constraint():
    # Frequencies 1:2:1 on (0, 1/2, 1) have mean 1/2 already: nothing to move.
    p = sprt.constrained_mle([1, 2, 1], [0.0, 0.5, 1.0], mean=0.5)
    assert p == pytest.approx([0.25, 0.5, 0.25])


def test_constrained_mle_meets_its_constraint():
    outcomes = sprt.PAIR_OUTCOMES
    p = sprt.constrained_mle([3, 5, 20, 9, 4], outcomes, mean=0.6)
    assert sum(p) == pytest.approx(1.0)
    assert sum(pi * a for pi, a in zip(p, outcomes, strict=True)) == pytest.approx(0.6)
    assert all(pi > 0 for pi in p)


def test_pentanomial_llr_is_zero_before_any_pair_and_signed_by_the_data():
    assert sprt.pentanomial_llr([0, 0, 0, 0, 0], elo0=0, elo1=20) == 0.0
    # Balanced pairs (mean exactly 1/2, i.e. elo0) speak for H0; won pairs for H1.
    assert sprt.pentanomial_llr([5, 10, 20, 10, 5], elo0=0, elo1=20) < 0
    assert sprt.pentanomial_llr([0, 2, 10, 20, 8], elo0=0, elo1=20) > 0


def test_pentanomial_llr_grows_linearly_with_the_sample():
    # The same frequencies ten times over: the (regularisation-free) LLR is ten times larger.
    small = sprt.pentanomial_llr([5, 10, 20, 10, 5], elo0=0, elo1=20)
    large = sprt.pentanomial_llr([50, 100, 200, 100, 50], elo0=0, elo1=20)
    assert large == pytest.approx(10 * small)


def test_stops_for_h1_after_enough_won_pairs_and_not_before():
    bounds = sprt.wald_bounds(alpha=0.05, beta=0.05)
    decisions = [
        sprt.decide(sprt.pentanomial_llr([0, 0, 0, 0, n], elo0=0, elo1=20), bounds)
        for n in range(1, 200)
    ]
    first_stop = decisions.index(sprt.Decision.ACCEPT_H1) + 1
    assert set(decisions[: first_stop - 1]) == {sprt.Decision.CONTINUE}
    assert set(decisions[first_stop - 1 :]) == {sprt.Decision.ACCEPT_H1}
    assert 10 < first_stop < 100


def test_stops_for_h0_on_even_pairs():
    bounds = sprt.wald_bounds(alpha=0.05, beta=0.05)
    # Every pair split (one game each way): exactly elo0's mean with no spread, as two equal
    # deterministic versions give on shared seeds with swapped seats.
    decisions = [
        sprt.decide(sprt.pentanomial_llr([0, 0, n, 0, 0], elo0=0, elo1=20), bounds)
        for n in range(1, 400)
    ]
    first_stop = decisions.index(sprt.Decision.ACCEPT_H0) + 1
    assert set(decisions[: first_stop - 1]) == {sprt.Decision.CONTINUE}
    assert set(decisions[first_stop - 1 :]) == {sprt.Decision.ACCEPT_H0}
    assert 30 < first_stop < 400


def test_decide_at_and_around_the_bounds():
    bounds = sprt.Bounds(lower=-2.0, upper=3.0)
    assert sprt.decide(3.0, bounds) is sprt.Decision.ACCEPT_H1
    assert sprt.decide(2.999, bounds) is sprt.Decision.CONTINUE
    assert sprt.decide(-2.0, bounds) is sprt.Decision.ACCEPT_H0
    assert sprt.decide(-1.999, bounds) is sprt.Decision.CONTINUE


def test_elo_estimate_by_hand():
    # Pairs [0, 1, 2, 1, 0]: mean score 1/2; pair variance (2 * 1/16) / 4 = 1/32;
    # standard error sqrt(1/32 / 4) = 0.0883883; 95% half width 0.1732385.
    estimate = sprt.elo_estimate([0, 1, 2, 1, 0])
    assert estimate is not None
    half = 1.959963984540054 * math.sqrt(1 / 32 / 4)
    assert estimate.elo == 0.0
    assert estimate.low == pytest.approx(-400 * math.log10(1 / (0.5 - half) - 1))
    assert estimate.high == pytest.approx(-400 * math.log10(1 / (0.5 + half) - 1))
    assert estimate.low == pytest.approx(-125.58, abs=0.01)


def test_elo_estimate_when_every_pair_was_won():
    estimate = sprt.elo_estimate([0, 0, 0, 0, 9])
    assert estimate is not None
    assert estimate.elo is None and estimate.high is None  # no finite upper end
    # At least a share 0.025 ** (1/9) = 0.6640 of fully won pairs: at least +118.1 Elo.
    assert estimate.low == pytest.approx(118.12, abs=0.01)


def test_elo_estimate_before_any_pair():
    assert sprt.elo_estimate([0, 0, 0, 0, 0]) is None


def test_pair_outcomes_and_game_scores():
    assert sprt.pair_outcome(1.0, 0.5) == 3
    assert sprt.pair_outcome(0.0, 0.0) == 0
    assert sprt.pair_outcome(1.0, 1.0) == 4
    assert sprt.game_score(1, 2) == 1.0
    assert sprt.game_score(2, 2) == 0.5
    assert sprt.game_score(3, 1) == 0.0
    with pytest.raises(ValueError, match=r"0, 0\.5 or 1"):
        sprt.pair_outcome(0.25, 1.0)


def test_malformed_pentanomials_are_refused():
    with pytest.raises(ValueError, match="five non-negative"):
        sprt.pentanomial_llr([1, 2, 3], elo0=0, elo1=10)
    with pytest.raises(ValueError, match="five non-negative"):
        sprt.elo_estimate([1, -1, 0, 0, 0])
