"""Borneo rules: the rulebook's worked examples as scenarios, and focused rule tests.

States are built by setting attributes on a fresh state (see ``_table``), so each test
shows exactly the situation the rulebook describes.
"""

from __future__ import annotations

import pytest

from engine.core import BadSetup, GameNotOver, IllegalAction
from engine.games.borneo import GAME
from engine.games.borneo import components as K
from engine.games.borneo.state import (
    FLAGS,
    HARBOR_NAME,
    BorneoState,
    flag_counts,
    monopoly_company,
    shared_order,
    shared_ranking,
)
from engine.rng import Rng

Y, R, G, B = range(4)
HARBOR = {name: i for i, name in enumerate(HARBOR_NAME)}
MISSION_OF = {
    kind: [m for m, row in enumerate(K.MISSIONS) if row[0] == kind] for kind in K.MISSION_NEEDS
}


def new_game(seed: int, num_players: int, variant: str = "standard") -> BorneoState:
    """A new game through the registry's spec, typed as this game's state."""
    state = GAME.new_state(seed, num_players, variant)
    assert isinstance(state, BorneoState)
    return state


def _table(n: int = 3, variant: str = "standard", **attrs) -> BorneoState:
    """A state after setup placement, seat 0 to start its turn, with ``attrs`` overriding."""
    state = BorneoState(1, n, variant)
    state.place_pos = len(state.place_order)
    state.columns = [[0, 1, 2][:n], [1, 2], [2, 0], [1]]
    for name, value in attrs.items():
        setattr(state, name, value)
    state._begin_turn(attrs.get("turn_player", 0))
    state._legal = None
    return state


def _at_ship(state: BorneoState) -> BorneoState:
    """Skip the turn player's mission and company steps."""
    if state.phase == "mission":
        state.apply("no-mission")
    state.apply("stay")
    assert state.phase == "ship"
    return state


# ---------------------------------------------------------------------- setup
@pytest.mark.parametrize(("n", "harbors", "missions"), [(3, 12, 12), (4, 12, 12), (5, 10, 16)])
def test_setup_uses_the_harbors_and_missions_for_the_player_count(n, harbors, missions):
    state = new_game(5, n)
    in_play = len(state.harbor_deck) + len(state.open_harbors)
    assert in_play == harbors
    assert len(state.open_harbors) == 3 and all(not pile for pile in state.piles)
    used = {HARBOR_NAME[h] for h in [*state.harbor_deck, *state.open_harbors]}
    if n == 5:
        assert {"Manila", "Macassar Strait"} <= used and "Palembang" not in used
    else:
        assert not {"Manila", "Macassar Strait"} & used
    assert len(state.missions_board) == missions
    assert all(len(hand) == 3 for hand in state.hands)
    assert len(state.deck) == 60 - 3 * n


def test_placement_first_round_in_order_then_two_rounds_reversed():
    state = new_game(5, 3)
    order = []
    while state.phase == "place":
        order.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert order == [0, 1, 2, 2, 1, 0, 2, 1, 0]
    assert sorted(seat for col in state.columns for seat in col) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert state.turn_player == 0


def test_placement_goes_to_the_first_empty_slot_and_full_companies_are_closed():
    state = new_game(5, 5)
    for _ in range(5):
        state.apply("place:red")
    assert state.columns[R] == [0, 1, 2, 3, 4]
    assert "place:red" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="no free slot"):
        state.apply("place:red")


def test_four_merchant_variant_places_four_each_and_only_with_three_players():
    state = new_game(5, 3, "four-merchants")
    placements = 0
    while state.phase == "place":
        state.apply(state.legal_actions()[-1])
        placements += 1
    assert placements == 12
    for n in (4, 5):
        with pytest.raises(BadSetup, match="3 players"):
            GAME.new_state(1, n, "four-merchants+blackbeard")


# ---------------------------------------------------------------------- shipments
def test_a_new_card_covers_the_bottom_flag_of_the_previous_one():
    # card 16: red red red over yellow; card 46: blue blue blue over yellow
    assert flag_counts([16]) == [1, 3, 0, 0]
    assert flag_counts([16, 46]) == [1, 3, 0, 3]  # 16's yellow is covered, 46's shows


def test_achim_monopoly_with_six_red_flags():
    """Rulebook example: red reaches Achim's monopoly number 6; the shipper takes Achim."""
    state = _table(
        hands=[[17, 40, 41], [2, 3, 4], [5, 6, 7]],
        open_harbors=[HARBOR["Achim"], HARBOR["Bantam"], HARBOR["Banda"]],
        piles=[[16], [], []],
        columns=[[0], [1, 2], [2], [0]],
    )
    _at_ship(state)
    state.apply("ship:17:0")
    assert flag_counts([16, 17])[R] == 6
    assert HARBOR["Achim"] in state.ware_harbors[0]  # cloves harbor card to the shipper
    # first red merchant (seat 1) chooses first, then the second (seat 2)
    assert state.phase == "pick" and state.current_player() == 1
    assert state.legal_actions() == ["take:16", "take:17"]
    state.apply("take:17")
    assert state.ware_cards[1] == [17] and state.ware_cards[2] == [16]
    assert state.piles[0] == [] and state.open_harbors[0] not in (-1, HARBOR["Achim"])
    assert state.turn_player == 1 and len(state.hands[0]) == 4  # seat 0 drew two


def test_monopoly_picks_go_round_the_ranks_again():
    state = _table(
        hands=[[27, 40, 41], [2, 3, 4], [5, 6, 7]],
        open_harbors=[HARBOR["Ambon"], HARBOR["Bantam"], HARBOR["Banda"]],
        piles=[[21, 22], [], []],  # red 6, Ambon needs 8; third card makes red 9
        columns=[[0], [1, 2], [2], [0]],
    )
    _at_ship(state)
    state.apply("ship:27:0")
    assert state.pick_order == [1, 2, 1]
    state.apply("take:21")
    state.apply("take:22")
    assert state.ware_cards[1] == [21, 27] and state.ware_cards[2] == [22]


def test_simultaneous_monopolies_go_to_the_first_flag_on_the_last_card():
    # Banda (monopoly 5): YYY/R, YRR/R, then RRR/Y brings yellow and red to 5 together.
    pile = [1, 18, 16]
    assert K.HARBORS[HARBOR["Banda"]][2] == 5
    assert flag_counts(pile) == [5, 5, 0, 0]
    assert monopoly_company(pile[:2], 5) is None
    # yellow's flags come first in the pile, but red's come first on the last card
    assert monopoly_company(pile, 5) == R
    assert shared_ranking(pile) == [Y, R]  # the shared rule reads the whole pile instead


def test_a_monopoly_tie_ignores_flag_counts_and_reads_only_the_last_card():
    """Rulebook: when two or more companies reach the monopoly limit at the same time, "the
    tie is broken in favour of the tied company whose flag comes first in order on the very
    last card played"; the number of flags does not enter into it."""
    # Achim (monopoly 6): RRR/B, RGG/G, GGG/R leave red 5, green 5; GRR/R then makes
    # red 7 and green 6.  Red has more flags, but green's flag comes first on GRR.
    pile = [27, 38, 36]
    assert monopoly_company(pile, 6) is None
    assert flag_counts([*pile, 23]) == [0, 7, 6, 0]
    assert monopoly_company([*pile, 23], 6) == G
    state = _table(
        hands=[[23, 40, 41], [2, 3, 4], [5, 6, 7]],
        open_harbors=[HARBOR["Achim"], HARBOR["Bantam"], HARBOR["Banda"]],
        piles=[list(pile), [], []],
        columns=[[0], [1, 0], [2, 1], [0]],
    )
    _at_ship(state)
    state.apply("ship:23:0")
    assert state.phase == "pick" and state.current_player() == 2  # green's first merchant
    assert state.public_view()["distribution"]["company"] == "green"
    assert state.pick_order == [2, 1, 2, 1]


def test_shared_distribution_example_yellow_red_green_blue():
    """Rulebook example: yellow 5, red 4, green 2, blue 2; green's flag comes first."""
    pile = [1, 33, 53]  # YYY/R, YGG/G, RBB/B; the fourth card RRR/Y reaches the limit
    state = _table(
        hands=[[16, 40, 41], [2, 3, 4], [5, 6, 7]],
        open_harbors=[HARBOR["Achim"], HARBOR["Bantam"], HARBOR["Banda"]],
        piles=[list(pile), [], []],
        columns=[[0, 1], [2], [1], [0]],
    )
    _at_ship(state)
    state.apply("ship:16:0")
    assert flag_counts([*pile, 16]) == [5, 4, 2, 2]
    assert shared_ranking([*pile, 16]) == [Y, R, G, B]
    assert state.ware_harbors[0] == [HARBOR["Achim"]]
    # first merchants of yellow (0), red (2), green (1), blue (0)
    assert state.pick_order == [0, 2, 1, 0]
    assert state.current_player() == 0
    state.apply("take:53")
    assert state.current_player() == 2
    state.apply("take:33")
    assert state.current_player() == 1
    state.apply("take:1")
    assert state.ware_cards == [[53, 16], [1], [33]]


def test_every_player_sees_the_spices_still_to_be_picked():
    """The harbor card has gone to the shipper, but its spices lie face up until picked."""
    state = _table(
        hands=[[17, 40, 41], [2, 3, 4], [5, 6, 7]],
        open_harbors=[HARBOR["Achim"], HARBOR["Bantam"], HARBOR["Banda"]],
        piles=[[16], [], []],
        columns=[[0], [1, 2], [2], [0]],
    )
    _at_ship(state)
    state.apply("ship:17:0")
    for seat in range(3):
        seen = state.observation(seat)["distribution"]
        assert seen["cards"] == [16, 17] and seen["pickers"] == [1, 2]


def test_shared_distribution_skips_empty_ranks_and_companies_without_flags():
    pile = [11, 12, 13]  # YYY/B, YYY/B, BYY/Y: yellow 8, blue 1, no red or green flags
    ranked = shared_ranking(pile)
    assert ranked == [Y, B]
    # yellow ranks 1-3 are seats 0, 1, 2; blue has seat 1 then seat 0.  Red and green
    # merchants get nothing; the waves wrap round while spices remain.
    columns = [[0, 1, 2], [2], [1], [1, 0]]
    assert shared_order(columns, ranked, 6) == [0, 1, 1, 0, 2, 0]


def test_nobody_to_take_the_spices_sends_them_to_the_discards():
    state = _table(
        hands=[[17, 40, 41], [2, 3, 4], [5, 6, 7]],
        open_harbors=[HARBOR["Achim"], HARBOR["Bantam"], HARBOR["Banda"]],
        piles=[[16], [], []],
        columns=[[0, 1, 2], [], [2, 0], [1]],
    )
    _at_ship(state)
    state.apply("ship:17:0")  # red monopoly, but red has no merchants
    assert state.ware_harbors[0] == [HARBOR["Achim"]]
    assert {16, 17} <= set(state.discards)


# ---------------------------------------------------------------------- missions
def _mission_table(warehouse_cards, warehouse_harbors=(), variant="standard", **attrs):
    ware = [list(warehouse_cards), [], []]
    harbors = [list(warehouse_harbors), [], []]
    return _table(variant=variant, ware_cards=ware, ware_harbors=harbors, **attrs)


def _pay_all(state: BorneoState, items: list[str]) -> None:
    for item in items:
        assert item in state.legal_actions(), (item, state.legal_actions())
        state.apply(item)


@pytest.mark.parametrize(
    ("kind", "action", "items", "vp"),
    [
        # one spice of each type: 6 points
        ("one_of_each", "mission:one_of_each", [1, 2, 3, 4], 6),
        # four of the same type, paid with two singles and a double: 8 points
        ("four_same", "mission:four_same:pepper", [1, 9, 5], 8),
        # two of each: doubles count as two spices of their type: 15 points
        ("two_of_each", "mission:two_of_each", [5, 10, 15, 20], 15),
        # eight of the same: 20 points
        ("eight_same", "mission:eight_same:pepper", [1, 9, 13, 17, 5, 25], 20),
        # three of each: 25 points
        ("three_of_each", "mission:three_of_each", [5, 1, 10, 2, 15, 3, 20, 4], 25),
    ],
)
def test_each_mission_example(kind, action, items, vp):
    state = _mission_table(items)
    assert state.phase == "mission"
    assert action in state.legal_actions()
    state.apply(action)
    _pay_all(state, [f"pay:s{i}" for i in items])
    assert state.phase == "company"
    assert [K.MISSIONS[m][0] for m in state.missions_done[0]] == [kind]
    assert state.ware_cards[0] == []
    assert set(items) <= set(state.discards)
    state._score()
    assert state.final is not None
    assert state.final[0]["missions"] == vp


def test_wild_harbors_pay_for_any_type_and_hand_cards_never_pay():
    ternate = HARBOR["Ternate"]
    state = _mission_table([1, 2, 3], [ternate], hands=[[4, 8, 12], [], []])
    state.apply("mission:one_of_each")
    assert f"pay:h{ternate}" in state.legal_actions()
    _pay_all(state, ["pay:s1", f"pay:h{ternate}", "pay:s2", "pay:s3"])
    assert state.spent_harbors == [ternate]
    assert len(state.missions_done[0]) == 1
    # nutmeg cards in hand (4, 8, 12) could not replace the warehouse
    hand_only = _mission_table([1, 2, 3], hands=[[4, 8, 12], [], []])
    assert hand_only.phase == "company"  # no mission is payable from the warehouse


def test_no_change_a_double_paying_the_last_spice_is_lost():
    state = _mission_table([1, 9, 13, 5])  # pepper 1+1+1+2
    state.apply("mission:four_same:pepper")
    _pay_all(state, ["pay:s1", "pay:s9", "pay:s13"])
    state.apply("pay:s5")  # needs one more, pays two
    assert state.phase == "company" and 5 in state.discards


def test_an_item_that_no_longer_counts_cannot_be_paid():
    state = _mission_table([1, 9, 13, 17, 21])
    state.apply("mission:four_same:pepper")
    _pay_all(state, ["pay:s1", "pay:s9", "pay:s13"])
    with pytest.raises(IllegalAction):
        state.apply("pay:s2")  # cinnamon, not in the warehouse at all
    state.apply("pay:s17")
    assert state.ware_cards[0] == [21]  # the fifth pepper stays


def test_missions_are_limited_to_those_on_the_board():
    state = _mission_table([1, 2, 3, 4], missions_board=[MISSION_OF["two_of_each"][1]])
    assert state.phase == "company"  # only a 15-point mission left and it is unaffordable


# ---------------------------------------------------------------------- Blackbeard
def test_pirate_trade_replaces_one_spice_and_takes_the_ship():
    # one pepper missing for one of each; a second cinnamon is traded
    state = _mission_table([2, 6, 3, 4], variant="blackbeard", ship_holder=1)
    assert "mission:one_of_each" in state.legal_actions()
    state.apply("mission:one_of_each")
    legal = state.legal_actions()
    assert "trade:s2" not in legal and "trade:s6" not in legal  # cinnamon still needed
    _pay_all(state, ["pay:s2", "pay:s3", "pay:s4"])
    assert state.legal_actions() == ["trade:s6"]
    state.apply("trade:s6")
    assert state.ship_holder == 0 and len(state.missions_done[0]) == 1
    state._score()
    assert state.final[0]["pirate_ship"] == -2 and state.final[1]["pirate_ship"] == 0


def test_the_ship_holder_and_the_standard_game_cannot_trade():
    assert _mission_table([2, 6, 3, 4], variant="blackbeard", ship_holder=0).phase == "company"
    assert _mission_table([2, 6, 3, 4]).phase == "company"


def test_no_pirate_trade_in_the_last_mission_round():
    state = _mission_table([2, 6, 3, 4], variant="blackbeard")
    state.turn_player = 2
    state._end_game()
    assert state.final is not None  # seat 0 could only pay by trading: no last mission


# ---------------------------------------------------------------------- companies
def test_moving_a_merchant_shifts_the_old_column_up():
    state = _table(columns=[[1, 0, 2], [1, 2], [2, 0], [1]])
    assert state.phase == "company"
    state.apply("move:yellow:2:blue")
    assert state.columns[Y] == [1, 2] and state.columns[B] == [1, 0]
    assert state.phase == "ship"


def test_a_full_company_cannot_be_joined():
    state = _table(columns=[[0], [1, 2, 1, 2, 1], [2, 0], [0]])
    assert not [a for a in state.legal_actions() if a.endswith(":red")]


def _fight_table(att_hand, def_hand, columns, **attrs):
    hands = [list(att_hand), list(def_hand), [5, 6, 7]]
    return _table(hands=hands, columns=columns, **attrs)


def test_attack_needs_a_matching_card_and_two_cards_in_hand():
    columns = [[1, 0], [2], [2], [1]]
    alone = _fight_table([1], [2, 3], columns)
    assert not [a for a in alone.legal_actions() if a.startswith("attack")]
    with pytest.raises(IllegalAction, match="two cards"):
        alone.apply("attack:yellow:2:1")
    no_flag = _fight_table([46, 47], [2, 3], columns)  # blue/yellow cards... 46 shows yellow
    assert "attack:yellow:2:1" in no_flag.legal_actions()
    blue_only = _fight_table([56, 57], [2, 3], columns)  # no yellow flag at all
    assert "attack:yellow:2:1" not in blue_only.legal_actions()


def test_the_attacker_must_keep_a_card_of_the_attacked_company():
    """Ruling of 2026-11-26 (issue 27): the card kept must show the attacked company's flag."""
    columns = [[1, 0], [2], [2], [1]]
    one_yellow = _fight_table([1, 40], [2, 3], columns)  # 1: yellow; 40: red/green only
    assert "attack:yellow:2:1" not in one_yellow.legal_actions()
    with pytest.raises(IllegalAction, match="keep one showing a yellow flag"):
        one_yellow.apply("attack:yellow:2:1")
    two_yellow = _fight_table([1, 2, 40], [2, 3], columns)
    two_yellow.apply("attack:yellow:2:1")
    two_yellow.apply("fight:1")
    # card 2 is the last yellow card: playing it would keep only the green card 40
    assert two_yellow.phase == "defend" and two_yellow.att_cards == [1]
    three_yellow = _fight_table([1, 2, 5, 40], [2, 3], columns)
    three_yellow.apply("attack:yellow:2:1")
    three_yellow.apply("fight:1")
    assert three_yellow.legal_actions() == ["fight:2", "fight:5", "fight-done"]
    three_yellow.apply("fight:2")
    assert three_yellow.phase == "defend" and three_yellow.hands[0] == [5, 40]


def test_the_attacker_cannot_play_the_last_matching_card():
    state = _fight_table([1, 2, 40], [11, 12, 3], [[1, 0], [2], [2], [1]])
    state.apply("attack:yellow:2:1")
    state.phase = "fight"
    state.att_cards = []
    state.hands[0] = [1, 40]  # as if the hand changed: one yellow card left
    with pytest.raises(IllegalAction, match="keep one showing a yellow flag"):
        state.apply("fight:1")


def test_attacks_target_only_higher_merchants_of_other_players():
    state = _fight_table([1, 2], [3, 4], [[0, 1, 0, 2], [2], [2], [1]])
    attacks = [a for a in state.legal_actions() if a.startswith("attack")]
    assert attacks == ["attack:yellow:3:2"]  # not our own first merchant, not lower ones


def test_attacker_keeps_one_card_defender_capped_and_tie_goes_to_attacker():
    state = _fight_table([1, 2, 6], [11, 12, 3, 4], [[1, 0], [2], [2], [1]])
    state.apply("attack:yellow:2:1")
    assert state.phase == "fight" and state.current_player() == 0
    state.apply("fight:1")  # 3 yellow flags
    assert "fight:2" in state.legal_actions()
    state.apply("fight:2")  # 3 more: now one card left, so the defence starts at once
    assert state.phase == "defend" and state.current_player() == 1
    state.apply("defend:11")
    state.apply("defend:12")  # two cards: the cap, 6 yellow flags, bonus 0 -> tie
    assert state.phase == "retreat" and state.current_player() == 1
    assert state.columns[Y] == [0, 1]
    state.apply("retreat:stay")
    assert state.phase == "ship" and state.current_player() == 0
    assert {1, 2, 11, 12} <= set(state.discards)


def test_the_defender_bonus_counts_merchants_between():
    # defender seat 1 first, two merchants between, attacker fourth with 3 yellow flags
    state = _fight_table([1, 2, 40], [2, 3], [[1, 2, 2, 0], [2], [2], [1]])
    state.apply("attack:yellow:4:1")
    assert state.legal_actions() == ["fight:1", "fight:2"]  # at least one card must be played
    state.apply("fight:1")
    assert state.phase == "defend"  # one yellow card left: the attacker's play ended
    state.apply("defend-done")  # no cards, bonus 2 < 3 flags
    assert state.columns[Y][0] == 0
    state = _fight_table([9, 5, 40], [2, 3], [[1, 2, 2, 0], [2], [2], [1]])  # YGY/Y: 3 yellow
    state.apply("attack:yellow:4:1")
    state.apply("fight:9")
    state.apply("defend:3")  # R Y Y / Y: 3 yellow + bonus 2 = 5 > 3
    assert state.phase == "reward" and state.current_player() == 1
    assert state.legal_actions() == ["reward:3", "no-reward"]
    state.apply("reward:3")
    assert state.ware_cards[1] == [3] and 9 in state.discards
    assert state.columns[Y] == [1, 2, 2, 0]
    assert state.phase == "ship" and state.current_player() == 0


def test_a_beaten_defender_may_leave_for_another_company():
    state = _fight_table([1, 5, 40], [2, 3], [[1, 0], [2], [2], [1]])
    state.apply("attack:yellow:2:1")
    state.apply("fight:1")
    state.apply("defend-done")
    assert state.legal_actions() == ["retreat:stay", "retreat:red", "retreat:green", "retreat:blue"]
    state.apply("retreat:green")
    assert state.columns[Y] == [0] and state.columns[G] == [2, 1]


def test_the_defender_keeps_one_card_too():
    state = _fight_table([1, 2, 6], [11], [[1, 0], [2], [2], [1]])
    state.apply("attack:yellow:2:1")
    state.apply("fight:1")
    state.apply("fight-done")
    assert state.phase == "retreat"  # the defender could not play his only card


def test_all_four_flags_count_in_a_fight():
    assert FLAGS[3] == (3, 1, 0, 0)  # R Y Y over Y


def test_move_and_attack_errors_say_which_condition_fails():
    state = _fight_table([1, 2], [3, 4], [[1, 0, 0], [1, 2, 1, 2, 1], [2], [1]])
    cases = {
        "move:yellow:1:blue": "yellow rank 1 is seat 1's merchant, not yours",
        "move:yellow:4:blue": "yellow has no merchant at rank 4",
        "move:yellow:2:red": "red has no free slot",
        "move:yellow:2:yellow": "a different company",
        "move:purple:2:red": "unknown company 'purple'",
        "attack:yellow:3:2": "your own merchant",
        "attack:yellow:2:3": "must be above",
        "attack:green:1:1": "green rank 1 is seat 2's merchant, not yours",
        "attack:yellow:x:1": "attack:COMPANY:RANK:DEFENDER_RANK",
    }
    for action, reason in cases.items():
        with pytest.raises(IllegalAction, match=reason):
            state.apply(action)
    no_flag = _fight_table([56, 57], [3, 4], [[1, 0], [2], [2], [1]])
    with pytest.raises(IllegalAction, match="no card in your hand shows a yellow flag"):
        no_flag.apply("attack:yellow:2:1")


def test_fight_errors_name_the_step_and_the_card():
    state = _fight_table([1, 2, 6], [11, 12, 3], [[1, 0], [2], [2], [1]])
    state.apply("attack:yellow:2:1")
    with pytest.raises(IllegalAction, match="fight step"):
        state.apply("defend:11")  # the defender's action while the attacker plays
    state.apply("fight:1")
    state.apply("fight-done")
    assert state.phase == "defend"
    with pytest.raises(IllegalAction, match="defend step"):
        state.apply("fight:11")  # the attacker's action while the defender answers
    with pytest.raises(IllegalAction, match="card 2 is not in your hand"):
        state.apply("defend:2")


def test_setup_and_shipment_errors_say_what_is_wrong():
    state = new_game(5, 3)
    with pytest.raises(IllegalAction, match="unknown company 'purple'"):
        state.apply("place:purple")
    state = _at_ship(_table(hands=[[1, 2, 3], [7], [8]]))
    with pytest.raises(IllegalAction, match="card 4 is not in your hand"):
        state.apply("ship:4:0")
    with pytest.raises(IllegalAction, match="harbor slot 3"):
        state.apply("ship:1:3")


# ---------------------------------------------------------------------- drawing and the end
def test_draw_two_then_discard_down_to_six():
    state = _table(hands=[[1, 2, 3, 4, 5, 6], [7], [8]], deck=[50, 51, 52], discards=[])
    _at_ship(state)
    state.apply("ship:1:0")
    assert state.phase == "discard" and len(state.hands[0]) == 7
    state.apply("discard:2")
    assert len(state.hands[0]) == 6 and 2 in state.discards and state.turn_player == 1


def test_an_empty_deck_is_replaced_by_the_shuffled_discards():
    state = _table(hands=[[1, 2, 3], [7], [8]], deck=[50], discards=[40, 41, 42])
    _at_ship(state)
    state.apply("ship:1:0")
    drawn_from_discards = [c for c in state.hands[0] if c not in (2, 3, 50)]
    assert 50 in state.hands[0] and len(drawn_from_discards) == 1
    assert sorted(state.deck + drawn_from_discards) == [40, 41, 42]
    assert state.discards == []


def test_the_game_ends_when_two_cards_cannot_be_drawn():
    state = _table(
        hands=[[1, 2, 3], [7, 9], [8, 10]], deck=[50], discards=[], ware_cards=[[4], [5, 6], []]
    )
    _at_ship(state)
    state.apply("ship:1:0")
    assert state.is_terminal()
    assert state.scores() == [1, 2, 0]
    assert all(not hand for hand in state.hands)


def test_the_game_ends_when_no_harbor_replaces_a_completed_one():
    state = _table(
        hands=[[17, 40, 41], [2, 3, 4], [5, 6, 7]],
        open_harbors=[HARBOR["Achim"], HARBOR["Bantam"], HARBOR["Banda"]],
        piles=[[16], [], []],
        columns=[[0], [1], [2], [0]],
        harbor_deck=[],
    )
    _at_ship(state)
    state.apply("ship:17:0")
    assert state.is_terminal()
    assert state.final is not None
    assert state.final[0]["harbors"] == 1 and state.final[1]["shipment_cards"] == 2


def test_last_mission_round_starts_left_of_the_last_player():
    ware = [[1, 2, 3, 4], [9, 10, 11, 12], [13, 14, 15, 16]]
    state = _table(ware_cards=ware, turn_player=0)
    state.turn_player = 1
    state._end_game()
    assert state.last_queue == [2, 0, 1]
    assert state.phase == "last-mission" and state.current_player() == 2
    with pytest.raises(GameNotOver):
        state.scores()
    state.apply("mission:one_of_each")
    _pay_all(state, ["pay:s13", "pay:s14", "pay:s15", "pay:s16"])
    assert state.current_player() == 0
    state.apply("no-mission")
    assert state.current_player() == 1
    state.apply("mission:one_of_each")
    _pay_all(state, ["pay:s9", "pay:s10", "pay:s11", "pay:s12"])
    assert state.is_terminal()
    assert state.scores() == [4, 6, 6]


def test_ties_are_broken_by_the_number_of_missions():
    state = _table()
    state.ware_cards = [list(range(1, 9)), list(range(9, 23)), list(range(23, 31))]
    state.missions_done = [[MISSION_OF["one_of_each"][1]], [], [MISSION_OF["four_same"][1]]]
    state._score()
    assert state.scores() == [14, 14, 16]
    assert state.ranking() == [2, 3, 1]
    state.missions_done[0].append(MISSION_OF["one_of_each"][2])
    state.ware_cards[2] = list(range(23, 27))
    state._score()
    assert state.scores() == [20, 14, 12] and state.ranking() == [1, 2, 3]


# ---------------------------------------------------------------------- hidden information
def test_determinize_keeps_own_hand_and_public_cards_and_redraws_the_rest():
    state = new_game(3, 4)
    while state.phase == "place":
        state.apply(state.legal_actions()[0])
    other = state.determinize(0, Rng(7))
    assert other.hands[0] == state.hands[0]
    assert other.observation(0) == state.observation(0)
    unseen = sorted(state.deck + [c for hand in state.hands[1:] for c in hand])
    assert sorted(other.deck + [c for hand in other.hands[1:] for c in hand]) == unseen
    assert other.hands[1:] != state.hands[1:]
    assert "hand" not in state.public_view()
    assert state.observation(1)["hand"] == sorted(state.hands[1])


# ---------------------------------------------------------------------- one statement of legality
@pytest.mark.parametrize(
    ("num_players", "variant"), [(3, "four-merchants+blackbeard"), (5, "blackbeard")]
)
def test_every_refused_action_of_the_step_is_refused_with_its_own_rule(num_players, variant):
    """At every decision of a seeded game, an action of the kind the step asks for is either
    legal (and applies) or refused by a stated rule, not by the "not possible in this step"
    catch-all; a sample of the vocabulary is probed at each step to keep this quick."""
    from engine.games.borneo.state import STEP_ACTIONS

    vocabulary = GAME.action_vocabulary(num_players)
    state = new_game(23, num_players, variant)
    rng = Rng(23)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        heads = STEP_ACTIONS[state.phase].split("/")
        if state.phase == "pay":
            heads = ["pay", "trade"]
        for action in vocabulary[steps % 5 :: 5]:
            if action in legal:
                state.clone().apply(action)
                continue
            with pytest.raises(IllegalAction) as refused:
                state.apply(action)
            if action.split(":")[0] in heads:
                assert "is not possible in the" not in str(refused.value), action
        state.apply(rng.choice(legal))
        steps += 1
    assert steps > 50


def test_a_retreat_to_the_fight_company_or_a_full_one_says_why():
    state = _fight_table([1, 2], [3, 4], [[1, 0, 0], [1, 2, 1, 2, 1], [2], [1]])
    state.phase = "retreat"
    state.fight_company = Y
    state.defender = 1
    state.active = 1
    state._legal = None
    with pytest.raises(IllegalAction, match="a company other than yellow"):
        state.apply("retreat:yellow")
    with pytest.raises(IllegalAction, match="red has no free slot"):
        state.apply("retreat:red")
