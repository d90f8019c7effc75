"""East Indiaman rules: the rulebook's worked examples and focused rule scenarios.

States are built by setting attributes on a fresh game; cargo indices are
spice 0, silk 1, tea 2, china 3, opium 4.
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.games.east_indiaman import GAME
from engine.games.east_indiaman import components as K
from engine.games.east_indiaman.state import (
    EastIndiamanState,
    arms_points,
    exchange_yield,
    influence_points,
    order_points,
)

SPICE, SILK, TEA, CHINA, OPIUM = range(5)


def new_game(seed: int, num_players: int, variant: str = "standard") -> EastIndiamanState:
    """A new game through the registry's spec, typed as this game's state."""
    state = GAME.new_state(seed, num_players, variant)
    assert isinstance(state, EastIndiamanState)
    return state


def card(colours: str, req: dict[str, int] | None = None) -> int:
    """The id of the first order card with these colours (and requirement, if given)."""
    wanted = tuple(K.CARGOES.index(c) for c in colours.split("/"))
    for i, c in enumerate(K.ORDER_CARDS):
        if c.colours == wanted and (
            req is None or c.req == tuple(req.get(k, 0) for k in K.CARGOES[:4])
        ):
            return i
    raise LookupError(colours)


def fresh(num_players: int = 4, seed: int = 1, **attrs) -> EastIndiamanState:
    """A new game with seat 0 to act as first player, then ``attrs`` overriding state."""
    state = new_game(seed, num_players)
    state.first_player = 0
    state.active = 0
    for name, value in attrs.items():
        setattr(state, name, value)
    state._legal = None
    return state


def levels(spice=1, silk=1, tea=1, china=1) -> list[int]:
    return [spice, silk, tea, china]


# ----------------------------------------------------------------- worked examples
def test_example_spice_level_2_one_order_scores_2():
    assert order_points(levels(spice=2), [card("spice")]) == 2


def test_example_spice_level_5_four_orders_scores_20():
    spice_cards = [i for i, c in enumerate(K.ORDER_CARDS) if c.colours == (SPICE,)][:4]
    assert order_points(levels(spice=5), spice_cards) == 20


def test_example_tea_level_1_only_one_order_scores():
    tea_cards = [i for i, c in enumerate(K.ORDER_CARDS) if c.colours == (TEA,)][:2]
    assert order_points(levels(tea=1), tea_cards) == 1


def test_example_dual_order_scores_higher_under_china_level_3():
    assert order_points(levels(china=3), [card("tea/china")]) == 3
    assert order_points(levels(tea=3), [card("tea/china")]) == 3  # the other colour works too
    assert order_points(levels(), [card("tea/china")]) == 1


def test_dual_orders_are_split_to_respect_the_caps():
    # Two spice/silk orders, spice and silk both at level 1: one each scores 1 + 1.
    dual = [i for i, c in enumerate(K.ORDER_CARDS) if c.colours == (SPICE, SILK)]
    assert order_points(levels(), dual) == 2
    # A spice order already fills spice level 1: the dual order goes to silk (level 2).
    assert order_points(levels(silk=2), [card("spice"), dual[0]]) == 1 + 2


def test_example_arms_level_table_yellow_15_red_8_green_8_blue_3():
    assert arms_points([6, 5, 5, 3]) == [15, 8, 8, 3]


def test_arms_points_per_player_behind_for_two_and_three_players():
    assert arms_points([4, 1]) == [4 + 5, 1]
    assert arms_points([2, 2, 0]) == [2 + 4, 2 + 4, 0]


# ----------------------------------------------------------------- influence
def test_influence_5_3_1_and_zero_posts_score_nothing():
    posts = [[3, 0, 0, 0], [2, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 0]]
    assert influence_points(posts) == [5, 3, 1, 0]


def test_influence_ties_share_the_place_rounded_up():
    posts = [[2, 1, 0, 0], [2, 1, 0, 0], [1, 1, 0, 0], [0, 0, 0, 0]]
    # spice: two tie for most (5 -> 3 each), next is second most (3); silk: three tie (5 -> 2)
    assert influence_points(posts) == [3 + 2, 3 + 2, 3 + 2, 0]


# ----------------------------------------------------------------- setup
@pytest.mark.parametrize("n", [2, 3, 4])
def test_setup_gives_seat_dependent_extra_ships(n):
    state = new_game(5, n)
    first = state.first_player
    order = [(first + i) % n for i in range(n)]
    expected_supply = [5, 6, 5, 6][:n]
    expected_reserve = [5, 5, 6, 6][:n]
    assert [state.supply[p] for p in order] == expected_supply
    assert [state.reserve[p] for p in order] == expected_reserve
    assert all(state.hold[p] == [1, 1, 1, 1, 1] for p in range(n))
    assert state.prices == [3, 3, 3, 3] and state.public_view()["prices"]["opium"] == 2
    assert len(state.display) == 8 and len(state.deck) == 28
    assert state.component_counts()["wooden_tokens"] == 72
    assert state.active == first and sorted(state.alert) == [0, 1, 2, 3, 4]
    assert state.alert[0] == OPIUM


# ----------------------------------------------------------------- buying cargo
def test_harbor_spots_cost_one_two_three_ships_in_a_round():
    state = fresh(reserve=[10, 5, 5, 5])
    state.apply("buy:tea")
    assert state.reserve[0] == 10 - 1 - 1 and state.hold[0][TEA] == 2
    state.apply("buy:silk")
    assert state.reserve[0] == 8 - 2 - 1 and state.harbor[0] == [0, 2, 1, 0]
    state.active, state.actions_done, state._legal = 0, 0, None
    state.apply("buy:tea")
    assert state.harbor[0][TEA] == 1 + 3 and state.spots_taken[0] == 3


def test_own_trade_posts_reduce_the_harbor_cost_to_at_least_one():
    state = fresh(reserve=[10, 5, 5, 5], spots_taken=[2, 0, 0, 0])
    state.posts[0][CHINA] = 1
    state.posts[0][SPICE] = 5
    assert state.harbor_cost(0, CHINA) == 2
    assert state.harbor_cost(0, SPICE) == 1
    assert state.harbor_cost(0, TEA) == 3


def test_buying_with_no_ship_left_receives_no_cargo():
    state = fresh(reserve=[1, 5, 5, 5])
    state.apply("buy:spice")
    assert state.reserve[0] == 0 and state.hold[0][SPICE] == 1 and state.harbor[0][SPICE] == 1
    assert "buy:spice" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="needs 2 ship"):
        state.apply("buy:spice")


# ----------------------------------------------------------------- pirate alert
def test_pirate_alert_ships_are_paid_once_per_empty_spot_and_only_for_own_ships():
    state = fresh()
    state.apply("pass:tea")  # seat 0 passes: one spot of the alert track is empty
    assert state.active == 1 and state.alert_cost(1) == 1
    reserve = state.reserve[1]
    state.apply("buy:spice")
    assert state.reserve[1] == reserve - 1 - 1 - 1  # alert ship, harbor ship, cargo
    assert state.alert_cost(1) == 0 and state.alert_cost(2) == 1
    state.apply("smuggle:1")  # no further alert ship for seat 1
    assert state.opium_ships[1] == 1 and state.reserve[1] == reserve - 4
    assert state.active == 2
    # exchanging, orders and investing never check the alert track
    state.hold[2][SILK] = 3
    state._legal = None
    before = state.reserve[2]
    state.apply("exchange:silk:tea")
    assert state.reserve[2] == before + 3 - 3


def test_alert_ships_make_actions_unaffordable():
    state = fresh(reserve=[5, 1, 5, 5])
    state.apply("pass:spice")
    assert state.active == 1
    legal = state.legal_actions()
    assert not any(a.startswith(("buy:", "post:", "smuggle:")) for a in legal)
    with pytest.raises(IllegalAction, match="pirate alert"):
        state.apply("buy:tea")


# ----------------------------------------------------------------- exchange
def test_exchange_pays_price_a_and_receives_price_b():
    state = fresh(prices=[2, 4, 3, 3], reserve=[10, 5, 5, 5])
    state.hold[0][SPICE] = 4
    state.apply("exchange:spice:silk")
    assert state.hold[0][SPICE] == 2 and state.hold[0][SILK] == 1 + 4
    # no consolidation: one exchange never pays more than price(A)
    state.apply("exchange:spice:silk")
    assert state.hold[0][SPICE] == 0 and state.hold[0][SILK] == 9


def test_exchange_opium_gives_one_more_and_opium_is_never_received():
    state = fresh()
    state.hold[0][OPIUM] = 2
    state._legal = None
    state.apply("exchange:opium:china")
    assert state.hold[0][OPIUM] == 0 and state.hold[0][CHINA] == 1 + 3 + 1
    assert "exchange:spice:opium" not in GAME.action_vocabulary(4)
    with pytest.raises(IllegalAction):
        state.apply("exchange:spice:opium")


def test_spice_and_tea_at_top_price_adjust_the_exchange():
    prices = [5, 3, 5, 2]
    assert exchange_yield(prices, SPICE, CHINA) == 2 + 1
    assert exchange_yield(prices, TEA, SILK) == 3 + 1
    assert exchange_yield(prices, SILK, SPICE) == 5 - 1
    assert exchange_yield(prices, SPICE, TEA) == 5 + 1 - 1
    assert exchange_yield([4, 3, 3, 3], SPICE, CHINA) == 3


def test_exchange_excess_without_reserve_ships_is_lost():
    state = fresh(prices=[1, 5, 3, 3], reserve=[2, 5, 5, 5])
    state.hold[0][SPICE] = 1
    state._legal = None
    state.apply("exchange:spice:silk")  # 1 spice back to reserve -> 3 ships, 5 silk due
    assert state.reserve[0] == 0 and state.hold[0][SILK] == 1 + 3


def test_exchange_needs_price_a_ships_of_a():
    state = fresh(prices=[4, 3, 3, 3])
    state.hold[0][SPICE] = 3
    state._legal = None
    with pytest.raises(IllegalAction, match=r"needs 4 ship\(s\) of spice"):
        state.apply("exchange:spice:tea")


def test_anti_stall_ruling_caps_a_players_exchanges_in_a_round():
    """Exchanging back and forth at equal prices is legal forever under the printed rules; the
    anti-stall ruling ends it after MAX_EXCHANGES_PER_ROUND exchanges per player and round."""
    state = fresh(num_players=2, prices=[3, 3, 3, 3, 2])
    state.hold[0][SPICE] = 3
    state._legal = None
    exchanges = 0
    while state.active == 1 or any(a.startswith("exchange:") for a in state.legal_actions()):
        if state.active == 1:  # the other player ends his round at once
            state.apply(next(a for a in state.legal_actions() if a.startswith("pass:")))
            continue
        give, get = ("spice", "silk") if state.hold[0][SPICE] >= 3 else ("silk", "spice")
        state.apply(f"exchange:{give}:{get}")
        exchanges += 1
    assert exchanges == K.MAX_EXCHANGES_PER_ROUND and state.round == 1
    with pytest.raises(IllegalAction, match="anti-stall ruling"):
        state.apply("exchange:spice:silk")
    while state.round == 1:  # the next round allows exchanges again
        state.apply(next(a for a in state.legal_actions() if a.startswith("pass:")))
    assert state.exchanges == [0, 0]


# ----------------------------------------------------------------- orders and investment
def test_completing_an_order_uses_its_cargo_and_takes_the_card():
    order = card("silk", {"silk": 2, "china": 2})
    state = fresh(display=[order, card("tea")])
    state.hold[0] = [0, 2, 0, 2, 1]
    state._legal = None
    reserve = state.reserve[0]
    assert f"order:{card('tea')}" not in state.legal_actions()
    state.apply(f"order:{order}")
    assert state.completed[0] == [order] and state.display == [card("tea")]
    assert state.hold[0] == [0, 0, 0, 0, 1] and state.reserve[0] == reserve + 4
    with pytest.raises(IllegalAction, match="needs 2 tea; you hold 0"):
        state.apply(f"order:{card('tea')}")


def test_investment_costs_the_next_level_and_gives_a_supply_ship():
    state = fresh(supply=[1, 5, 5, 5])
    state.hold[0][TEA] = 5
    state._legal = None
    reserve = state.reserve[0]
    state.apply("invest:tea")
    assert state.levels[0][TEA] == 2 and state.hold[0][TEA] == 3
    assert state.reserve[0] == reserve + 2 + 1 and state.supply[0] == 0
    state.apply("invest:tea")  # no supply left: no ship, still legal
    assert state.levels[0][TEA] == 3 and state.hold[0][TEA] == 0
    assert state.reserve[0] == reserve + 3 + 3 and state.supply[0] == 0


def test_investment_level_5_gives_one_arms_and_stops():
    state = fresh()
    state.levels[0][CHINA] = 4
    state.hold[0][CHINA] = 10
    state._legal = None
    state.apply("invest:china")
    assert state.levels[0][CHINA] == 5 and state.arms[0] == 1
    assert "invest:china" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="already at level 5"):
        state.apply("invest:china")


# ----------------------------------------------------------------- trade posts
def test_trade_post_raises_its_price_lowers_another_and_returns_ships_to_supply():
    state = fresh(reserve=[10, 5, 5, 5], supply=[5, 5, 5, 5])
    state.apply("post:silk:3")
    assert state.areas[SILK][2] == 0 and state.posts[0][SILK] == 1
    assert state.reserve[0] == 7 and state.supply[0] == 5 + 2
    assert state.prices[SILK] == 4 and state.phase == "lower" and state.active == 0
    assert state.legal_actions() == ["lower:spice", "lower:tea", "lower:china"]
    with pytest.raises(IllegalAction, match="just rose"):
        state.apply("lower:silk")
    with pytest.raises(IllegalAction, match="first lower"):
        state.apply("buy:tea")
    state.apply("lower:china")
    assert state.prices == [3, 4, 3, 2] and state.phase == "action" and state.actions_done == 1


def test_trade_post_price_stays_at_top_and_lowering_skipped_when_all_others_lowest():
    state = fresh(prices=[1, 1, 5, 1], reserve=[10, 5, 5, 5])
    state.apply("post:tea:2")
    assert state.prices == [1, 1, 5, 1] and state.phase == "action" and state.active == 0
    assert state.actions_done == 1


def test_third_post_in_an_area_gives_arms_once():
    state = fresh(reserve=[17, 5, 5, 5])
    state.areas[SPICE] = [0, 0, -1, -1, -1, -1]
    state.posts[0][SPICE] = 2
    state._legal = None
    assert [a for a in state.legal_actions() if a.startswith("post:spice")] == [
        "post:spice:3",
        "post:spice:4",
        "post:spice:5",
    ]
    state.apply("post:spice:3")
    state.apply("lower:silk")
    assert state.arms[0] == 1
    state.apply("post:spice:3")
    state.apply("lower:tea")
    assert state.arms[0] == 1 and state.posts[0][SPICE] == 4


# ----------------------------------------------------------------- smuggling
def test_smuggling_needs_strictly_the_most_ships():
    state = fresh(opium_ships=[0, 3, 0, 0])
    legal = [a for a in state.legal_actions() if a.startswith("smuggle:")]
    assert legal[0] == "smuggle:4" and "smuggle:3" not in legal
    with pytest.raises(IllegalAction, match="strictly the most"):
        state.apply("smuggle:3")
    state.apply("smuggle:4")
    assert state.opium_ships[0] == 4


# ----------------------------------------------------------------- passing and turns
def test_two_actions_per_turn_and_the_same_action_twice():
    state = fresh(reserve=[10, 5, 5, 5])
    state.apply("buy:spice")
    assert state.active == 0
    state.apply("buy:spice")
    assert state.active == 1 and state.hold[0][SPICE] == 3


def test_opium_marker_only_as_first_action_or_by_the_last_to_pass():
    state = fresh(num_players=2)
    assert "pass:opium" in state.legal_actions()  # first action of the turn
    state.apply("buy:spice")
    assert "pass:opium" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="opium marker"):
        state.apply("pass:opium")
    state.apply("pass:spice")
    assert state.active == 1
    state.apply("buy:silk")
    assert "pass:opium" in state.legal_actions()  # everyone else has passed
    with pytest.raises(IllegalAction, match="already been taken"):
        state.apply("pass:spice")


def test_passed_players_are_skipped():
    state = fresh(num_players=3, reserve=[6, 6, 6])
    state.apply("pass:silk")
    state.apply("pass:opium")
    assert state.active == 2
    state.apply("buy:tea")
    state.apply("buy:tea")
    assert state.active == 2 and state.actions_done == 0


# ----------------------------------------------------------------- end of round
def _end_round_by_passing(state: EastIndiamanState, tokens: list[str]) -> None:
    for token in tokens:
        state.apply(f"pass:{token}")


def test_end_of_round_sequence():
    state = fresh(num_players=3, reserve=[10, 10, 10], supply=[0, 5, 5])
    state.arms_markers = ["cannon", "musket", "sabre", "cannon", "musket"]
    cannon_card = card("spice", {"spice": 3})
    state.completed[1] = [cannon_card]
    state.apply("buy:tea")
    state.apply("smuggle:2")
    state.apply("buy:silk")
    state.apply("smuggle:3")
    state.apply("pass:spice")  # seat 2
    state.apply("smuggle:2")  # seat 0: 4 > 3, after one ship to the empty alert spot
    state.apply("pass:silk")
    state.apply("pass:opium")  # seat 1, the last player to pass, may take the opium marker
    assert state.round == 2 and state.first_player == 1 and state.active == 1
    # 3-1 the 8 old orders went to the discards, 8 new ones are shown
    assert len(state.discards) == 8 and len(state.display) == 8
    # 3-2 the leader on the opium spot (seat 0, 4 ships) got one opium
    assert state.hold[0][OPIUM] == 1 + 1
    # 3-3 all ships came back: only the tea cargo and the opium are out of the reserve
    assert state.harbor == [[0] * 4] * 3 and state.opium_ships == [0, 0, 0]
    assert state.reserve[0] == 10 - 1 - 1
    # 3-4 raid cargo from the supply; seat 0 has no supply left and loses the silk
    assert state.hold[0][SILK] == 1 and state.supply[0] == 0
    assert state.hold[1][OPIUM] == 1 + 1 and state.supply[1] == 4
    assert state.hold[2][SPICE] == 1 + 1 and state.supply[2] == 4
    assert state.alert == [OPIUM, 0, 1, 2, 3] and state.raid == [-1, -1, -1]
    assert not any(any(row) for row in state.alert_ships)
    # 3-5 cannon majority: seat 1 has the only cannon icon
    assert state.arms == [0, 1, 0]


def test_arms_majority_ties_all_advance_and_zero_icons_do_not():
    state = fresh(num_players=3)
    state.arms_markers = ["sabre", "cannon", "sabre", "cannon", "musket"]
    sabre = card("spice", {"spice": 4})
    state.completed[0] = [sabre]
    state.completed[2] = [card("silk", {"silk": 4})]
    _end_round_by_passing(state, ["opium", "spice", "silk"])
    assert state.arms == [1, 0, 1]
    state.completed = [[], [], []]
    _end_round_by_passing(state, ["opium", "spice", "silk"])
    assert state.arms == [1, 0, 1]


def test_orders_carry_over_after_round_4_and_round_5_adds_the_last_4():
    state = fresh(num_players=2)
    for _ in range(3):
        _end_round_by_passing(state, ["opium", "spice"])
    assert state.round == 4 and len(state.deck) == 4
    left = list(state.display)
    _end_round_by_passing(state, ["opium", "spice"])
    assert state.round == 5 and state.deck == [] and len(state.display) == 12
    assert state.display[:8] == left


def test_game_ends_after_five_rounds_with_a_score_breakdown():
    state = fresh(num_players=2)
    for _ in range(5):
        _end_round_by_passing(state, ["opium", "spice"])
    assert state.is_terminal() and state.legal_actions() == []
    assert state.final == [
        {"orders": 0, "influence": 0, "arms": 0, "total": 0},
        {"orders": 0, "influence": 0, "arms": 0, "total": 0},
    ]
    with pytest.raises(IllegalAction, match="game is over"):
        state.apply("pass:spice")


# ----------------------------------------------------------------- scoring and tie-breaks
def _final(state: EastIndiamanState) -> None:
    state.round = 5
    _end_round_by_passing(state, ["opium", "spice", "silk", "tea"][: state.num_players])


def test_final_score_adds_orders_influence_and_arms():
    state = fresh(num_players=2, arms_markers=["musket"] * 5)
    state.levels[0] = [3, 1, 1, 1]
    state.completed[0] = [card("spice"), card("spice/silk")]
    state.posts[0] = [1, 0, 0, 0]
    state.arms = [2, 0]
    _final(state)
    assert state.final is not None
    assert state.final[0] == {"orders": 3 + 3, "influence": 5, "arms": 2 + 5, "total": 18}
    assert state.scores() == [18, 0] and state.ranking() == [1, 2]


def test_tie_broken_by_arms_level_then_influence():
    state = fresh(num_players=3, arms_markers=["musket"] * 5)
    state.levels = [[2, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]
    state.completed = [[card("spice")], [], []]
    state.arms = [3, 4, 0]
    state.posts = [[0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 0, 0]]
    _final(state)
    # seat 0: 2 + 3 + 4 = 9; seat 1: 4 + 8 = 12; seat 2: 5 influence
    assert state.scores() == [9, 12, 5]
    assert state.final is not None
    state.final[0]["total"] = 12
    assert state.ranking() == [2, 1, 3]  # equal totals: the higher arms level wins
    state.arms = [4, 4, 0]
    state.final[0]["influence"] = 1
    assert state.ranking() == [1, 2, 3]  # equal arms too: more influence points win
    state.final[0]["influence"] = 0
    assert state.ranking() == [1, 1, 3]  # still tied: shared victory


# ----------------------------------------------------------------- hidden information
def test_only_the_order_deck_order_is_hidden():
    from engine.rng import Rng

    state = new_game(3, 3)
    other = state.determinize(1, Rng(9))
    assert sorted(other.deck) == sorted(state.deck) and other.deck != state.deck
    assert other.observation(1) == state.observation(1)
    assert "boxed_marker" not in state.observation(0)
    assert state.observation(0)["deck_size"] == 28


def test_reconstructed_components_agree_with_the_rulebook_numbers():
    assert len(K.ORDER_CARDS) == 36 == 8 * 4 + 4
    assert sorted(K.ARMS_MARKERS) == sorted(K.ARMS_RESOURCES * 2) and K.ROUNDS == 5
    assert K.TOKENS_PER_COLOUR * K.COLOURS == 72 and K.RAID_TOKENS == 5
    assert (K.PRICE_MIN, K.PRICE_MAX, K.PRICE_START, K.OPIUM_PRICE) == (1, 5, 3, 2)
    for order in K.ORDER_CARDS:
        assert 1 <= len(order.colours) <= 2 and OPIUM not in order.colours
        assert all(order.req[c] > 0 for c in order.colours)


def test_the_deck_order_never_shows_in_an_observation():
    state = new_game(8, 4)
    other = state.clone()
    other.deck.reverse()
    assert other.digest() != state.digest()
    for p in range(4):
        assert other.observation(p) == state.observation(p)


# ----------------------------------------------------------------- review: found defects
def test_no_smuggling_when_the_reserve_cannot_pay_the_pirate_alert_ships():
    # Three empty alert spots and an empty reserve: nothing may be sent anywhere.
    state = fresh(num_players=4, reserve=[6, 6, 6, 0])
    for token in ("spice", "silk", "tea"):
        state.apply(f"pass:{token}")
    assert state.active == 3 and state.alert_cost(3) == 3 and state.reserve[3] == 0
    legal = state.legal_actions()
    assert not [a for a in legal if a.startswith(("smuggle:", "buy:", "post:"))]
    with pytest.raises(IllegalAction, match="pirate alert"):
        state.apply("smuggle:1")
    assert state.reserve[3] == 0 and state.opium_ships[3] == 0


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("exchange:spice:opium", "opium is never received by exchange"),
        ("exchange:tea:tea", "two different cargoes"),
        ("buy:opium", "smuggle"),
        ("invest:opium", "no investment track"),
        ("smuggle:0", "at least 1 ship"),
    ],
)
def test_well_formed_but_impossible_actions_say_which_rule_forbids_them(action, reason):
    state = fresh()
    with pytest.raises(IllegalAction, match=reason):
        state.apply(action)


def test_an_order_that_cannot_be_filled_names_the_missing_cargo():
    order = card("china", {"china": 4})
    state = fresh(display=[order])
    state.hold[0] = [1, 1, 1, 2, 1]
    state._legal = None
    with pytest.raises(IllegalAction, match="needs 4 china; you hold 2"):
        state.apply(f"order:{order}")


def test_investment_legality_follows_the_component_costs(monkeypatch):
    # The components module is meant to be replaceable: legality must read its costs too.
    monkeypatch.setitem(K.INVESTMENT_COST, 2, 3)
    state = fresh()
    state.hold[0][SILK] = 2
    state._legal = None
    assert "invest:silk" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="needs 3 silk"):
        state.apply("invest:silk")
    state.hold[0][SILK] = 3
    state._legal = None
    state.apply("invest:silk")
    assert state.hold[0][SILK] == 0 and state.levels[0][SILK] == 2


# ----------------------------------------------------------------- one statement of legality
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_refused_action_is_refused_with_its_own_rule(num_players):
    """At every decision of a seeded game, each action of the vocabulary is either in the
    legal list (and applies) or refused by a stated rule: never the catch-all "not legal"."""
    from engine.rng import Rng

    vocabulary = GAME.action_vocabulary(num_players)
    state = new_game(17, num_players)
    rng = Rng(17)
    reasons = set()
    while not state.is_terminal():
        legal = state.legal_actions()
        for action in vocabulary:
            if action in legal:
                state.clone().apply(action)
                continue
            with pytest.raises(IllegalAction) as refused:
                state.apply(action)
            assert "is not legal now" not in str(refused.value), action
            reasons.add(str(refused.value).split(" ")[0])
        state.apply(rng.choice(legal))
    assert len(reasons) >= 8  # many different rules spoke, not one message for everything


def test_an_order_not_on_display_names_the_displayed_ones():
    state = fresh(display=[3, 9])
    with pytest.raises(
        IllegalAction, match=r"order:5 is not on display; displayed orders: \[3, 9\]"
    ):
        state.apply("order:5")


def test_trade_post_refusals_name_the_spot_and_the_ships():
    state = fresh(reserve=[3, 6, 6, 6])
    state.areas[SPICE] = [1, 2, -1, -1, -1, -1]  # both 2-ship spots are taken
    state._legal = None
    assert "post:spice:2" not in state.legal_actions()
    assert "post:spice:3" in state.legal_actions()
    with pytest.raises(IllegalAction, match="spice coast has no free trade-post spot needing 2"):
        state.apply("post:spice:2")
    with pytest.raises(IllegalAction, match=r"needs 4 ships but you can send 3 \(after 0 ship"):
        state.apply("post:spice:4")
