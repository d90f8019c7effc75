"""Batavia's rulebook, example by example, plus the rulings in shared/rules/README.md.

Each test builds the situation of a worked example on a fresh state and checks what
the rulebook says happens.  Companies: GB, DK, FR, NL, SE (the rulebook's order).
"""

from __future__ import annotations

import pytest

from engine.core import EngineError, IllegalAction
from engine.games.batavia import GAME
from engine.games.batavia import components as K
from engine.games.batavia.state import EMPTY, EXCHANGE, MOVE, OVER, TARGET, TURN, BataviaState
from engine.rng import Rng

GB, DK, FR, NL, SE = range(5)
TEA, COTTON, CHINA, SILK, GINGER, NUTMEG, PEPPER = range(7)
HANNA, BEN, CARLA, DIRK = range(4)


def fresh(players: int = 4, seed: int = 1) -> BataviaState:
    state = GAME.new_state(seed, players)
    assert isinstance(state, BataviaState)
    return state


def hand(*counts: int) -> list[int]:
    return list(counts) + [0] * (5 - len(counts))


def row(table: list[int], player: int) -> list[int]:
    """A player's counts per company in one of the state's flat per-player tables."""
    return table[player * 5 : player * 5 + 5]


def set_row(table: list[int], player: int, counts: list[int]) -> None:
    table[player * 5 : player * 5 + 5] = counts


def give_turn(state: BataviaState, player: int) -> None:
    """Skip the auction: it is ``player``'s move, first of the round."""
    state.phase, state.active, state.starter, state.turns_taken = TURN, player, player, 0
    state.package = [0] * 5
    state._legal = None


def board_with(state: BataviaState, counters: dict[int, tuple[int, int]]) -> None:
    """Only the given hexes hold counters (hex -> (company, commodity)), all face up."""
    state.hexes = [EMPTY] * K.NUM_HEXES
    for h, (company, commodity) in counters.items():
        state.hexes[h] = company * 7 + commodity
    state.open_upto = K.NUM_HEXES
    state._legal = None


def counts_of_cards(state: BataviaState) -> int:
    return state.component_counts()["ship_cards"]


# --- setup ---------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_deals_ten_cards_fifteen_notes_and_blocks_of_five(players):
    state = fresh(players)
    assert all(sum(row(state.hands, p)) == 10 for p in range(players))
    assert state.notes == [15] * players and state.crates == [12] * players
    for b in range(0, 35, 5):
        assert sorted(v // 7 for v in state.hexes[b : b + 5]) == [GB, DK, FR, NL, SE]
    assert sorted(state.hexes) == list(range(35))  # every company x commodity once
    assert state.open_upto == 10
    assert state.observation(0)["board"][10] == "hidden"
    assert counts_of_cards(state) == 110


def test_quick_start_variant_lays_every_counter_face_up():
    state = GAME.new_state(1, 4, "open")
    assert "hidden" not in state.observation(0)["board"]


# --- auction -------------------------------------------------------------------------------
def test_auction_package_of_three_is_won_and_paid_one_note_at_a_time_from_the_left():
    state = fresh()
    state.deck[-3:] = [SE, GB, GB]  # the rulebook's example: 2 British and 1 Swedish card
    state.package = [0] * 5
    state.auctioneer = HANNA
    state.rng.state = 0
    while True:  # find an RNG state whose die shows 3, as in the example
        probe = state.rng.copy()
        if probe.randint(1, 6) == 3:
            break
        state.rng.state += 1
    state._start_auction()
    assert state.die == 3 and state.package == [2, 0, 0, 0, 1]
    assert state.current_player() == BEN  # the auctioneer's left opens
    state.apply("bid:2")
    state.apply("bid:3")  # Carla
    with pytest.raises(IllegalAction, match="higher than the current bid of 3"):
        state.apply("bid:3")
    state.apply("pass")  # Dirk
    state.apply("bid:5")  # Hanna
    state.apply("pass")  # Ben
    state.apply("pass")  # Carla: Hanna is the last bidder left
    assert state.starter == HANNA and state.phase == TURN and state.current_player() == HANNA
    assert state.hands[HANNA * 5 + GB] >= 2 and row(state.known, HANNA) == [2, 0, 0, 0, 1]
    # 5 notes from Hanna, one at a time from her left: Ben 2, Carla 2, Dirk 1.
    assert state.notes == [10, 17, 17, 16]


def test_a_bid_beyond_ones_notes_is_refused():
    state = fresh()
    state.notes[state.current_player()] = 4
    with pytest.raises(IllegalAction, match="exceeds your 4 promissory notes"):
        state.apply("bid:5")


def test_when_everybody_passes_the_cards_stay_open_and_the_starter_is_unchanged():
    state = fresh()
    package = list(state.package)
    for _ in range(4):
        state.apply("pass")
    assert state.starter == 0 and state.phase == TURN and state.current_player() == 0
    assert state.package == package  # carried over to the next auction
    for _ in range(4):
        state.apply("draw")
    assert state.round == 2 and sum(state.package) >= sum(package)


# --- laying out: Case 1, Case 2, markers ------------------------------------------------------
def test_hanna_lays_four_dutch_and_two_french_cards_and_the_markers_move():
    state = fresh()
    give_turn(state, HANNA)
    set_row(state.hands, HANNA, hand(0, 0, 2, 4, 0))
    for p in range(4):
        set_row(state.laid, p, [0] * 5)
    for action in ["lay:NL"] * 4 + ["lay:FR"] * 2:
        state.apply(action)
    view = state.public_view()
    assert view["players"][HANNA]["laid"]["NL"] == 4 and view["players"][HANNA]["laid"]["FR"] == 2
    assert view["laid_total"] == 6 and view["cannon"] == 6
    assert view["seals"]["NL"] == HANNA and view["seals"]["FR"] == HANNA


def test_case_1_a_player_with_the_danish_majority_may_lay_any_card():
    state = fresh()
    give_turn(state, BEN)
    set_row(state.laid, BEN, hand(0, 3))
    set_row(state.laid, CARLA, hand(0, 2))
    set_row(state.hands, BEN, hand(1, 0, 0, 0, 0))
    assert state.legal_actions() == ["draw", "lay:GB"]
    state.apply("lay:GB")
    assert "stop" in state.legal_actions()  # still holds the Danish seal


def test_case_2_a_player_without_majority_must_create_one_before_stopping():
    state = fresh()
    give_turn(state, BEN)
    set_row(state.laid, CARLA, hand(0, 2))
    set_row(state.laid, BEN, hand(0, 1))
    set_row(state.hands, BEN, hand(1, 2))
    state.apply("lay:DK")  # 2 v 2: a tie is no majority
    assert "stop" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="no company's majority"):
        state.apply("stop")
    state.apply("lay:DK")
    assert state.public_view()["seals"]["DK"] == BEN
    state.apply("stop")
    assert state.phase == MOVE


def test_a_player_who_cannot_create_a_majority_must_draw():
    state = fresh()
    give_turn(state, BEN)
    set_row(state.laid, CARLA, hand(5, 5, 5, 5, 5))
    set_row(state.hands, BEN, hand(1, 1, 1, 1, 1))
    assert state.legal_actions() == ["draw"]
    with pytest.raises(IllegalAction, match="cannot reach a majority"):
        state.apply("lay:GB")
    before = sum(row(state.hands, BEN))
    state.apply("draw")
    assert sum(row(state.hands, BEN)) == before + 2


def test_equalling_the_seal_holder_returns_the_seal_to_the_board():
    state = fresh()
    give_turn(state, BEN)
    set_row(state.laid, CARLA, hand(0, 2))
    set_row(state.laid, BEN, hand(2))
    set_row(state.hands, BEN, hand(0, 3))
    assert state.public_view()["seals"]["DK"] == CARLA
    state.apply("lay:DK")
    state.apply("lay:DK")  # 2 v 2: a stalemate, the seal goes back to the board
    assert state.public_view()["seals"]["DK"] is None
    state.apply("lay:DK")
    assert state.public_view()["seals"]["DK"] == BEN


# --- movement ------------------------------------------------------------------------------
def test_with_only_the_danish_seal_the_merchant_moves_to_the_next_danish_counter():
    state = fresh()
    board_with(state, {0: (GB, TEA), 2: (SE, SILK), 3: (DK, SILK), 8: (DK, PEPPER)})
    give_turn(state, HANNA)
    state.positions[BEN] = 1  # other figures are jumped over
    set_row(state.hands, HANNA, hand(0, 2))
    state.apply("lay:DK")
    state.apply("stop")
    assert state.legal_actions() == ["move:DK"]
    state.apply("move:DK")
    assert state.positions[HANNA] == 3 and state.hexes[3] == EMPTY
    assert state.counters[HANNA * 5 + DK] == 1
    assert state.squares[DK * 7 + SILK] == HANNA  # the crate goes to the silk warehouse, DK square
    assert state.crates[HANNA] == 11


def test_a_merchant_never_moves_backwards():
    state = fresh()
    board_with(state, {1: (DK, TEA), 6: (GB, TEA)})
    give_turn(state, HANNA)
    state.positions[HANNA] = 4
    set_row(state.hands, HANNA, hand(1, 1))
    state.apply("lay:DK")
    state.apply("lay:GB")
    state.apply("stop")
    assert state.legal_actions() == ["move:GB"]  # the DK counter lies behind her
    with pytest.raises(IllegalAction, match="no DK trading post ahead"):
        state.apply("move:DK")


def test_moving_into_the_last_open_block_turns_the_next_five_counters():
    state = fresh()
    give_turn(state, HANNA)
    target = next(h for h in range(5, 10) if state.hexes[h] // 7 == NL)
    state.positions[HANNA] = 4  # block 1 lies behind her
    set_row(state.hands, HANNA, hand(0, 0, 0, 1))
    state.apply("lay:NL")
    state.apply("stop")
    state.apply("move:NL")
    assert state.positions[HANNA] == target
    assert state.open_upto == 15
    assert "hidden" not in state.observation(BEN)["board"][10:15]


def test_a_player_without_crates_still_takes_the_counter():
    state = fresh()
    board_with(state, {3: (DK, SILK)})
    give_turn(state, HANNA)
    state.crates[HANNA] = 0
    set_row(state.hands, HANNA, hand(0, 1))
    state.apply("lay:DK")
    state.apply("stop")
    state.apply("move:DK")
    assert state.counters[HANNA * 5 + DK] == 1 and state.squares[DK * 7 + SILK] == EMPTY


# --- exchange ------------------------------------------------------------------------------
def test_three_different_counters_exchange_for_six_gold_and_a_swedish_counter_remains():
    state = fresh()
    board_with(state, {5: (DK, SILK)})
    give_turn(state, HANNA)
    set_row(state.counters, HANNA, hand(1, 0, 0, 0, 2))  # a British and two Swedish counters
    set_row(state.hands, HANNA, hand(0, 1))
    state.apply("lay:DK")
    state.apply("stop")
    state.apply("move:DK")
    assert state.phase == EXCHANGE and state.legal_actions() == ["exchange", "keep"]
    state.apply("exchange")
    assert state.gold[HANNA] == 6
    assert row(state.counters, HANNA) == hand(0, 0, 0, 0, 1)


def test_hanna_holding_four_companies_cannot_exchange_unless_the_new_counter_is_british():
    state = fresh()
    board_with(state, {5: (DK, SILK), 9: (GB, TEA)})
    give_turn(state, HANNA)
    set_row(state.counters, HANNA, hand(0, 1, 1, 1, 1))
    set_row(state.hands, HANNA, hand(1, 1))
    set_row(state.laid, BEN, [0] * 5)
    state.apply("lay:DK")
    state.apply("stop")
    state.apply("move:DK")
    assert state.phase == TURN  # no exchange offered: she already held a Danish counter
    with pytest.raises(IllegalAction, match="exchange is offered only"):
        state.apply("exchange")
    give_turn(state, HANNA)
    state.apply("lay:GB")
    state.apply("stop")
    state.apply("move:GB")
    state.apply("exchange")
    assert state.gold[HANNA] == 15  # five different counters
    assert row(state.counters, HANNA) == hand(0, 1, 0, 0, 0)


@pytest.mark.parametrize(("companies", "gold"), [(1, 1), (2, 3), (3, 6), (4, 10), (5, 15)])
def test_exchange_table(companies, gold):
    state = fresh()
    board_with(state, {20: (SE, TEA)})
    give_turn(state, HANNA)
    set_row(state.counters, HANNA, [1] * (companies - 1) + [0] * (5 - companies + 1))
    set_row(state.hands, HANNA, hand(0, 0, 0, 0, 1))
    state.apply("lay:SE")
    state.apply("stop")
    state.apply("move:SE")
    state.apply("exchange")
    assert state.gold[HANNA] == gold


# --- pirates -------------------------------------------------------------------------------
def test_pirates_at_25_sink_all_eleven_danish_cards():
    state = fresh(4)
    board_with(state, {30: (SE, TEA)})
    give_turn(state, HANNA)
    set_row(state.laid, HANNA, hand(0, 6, 2))
    set_row(state.laid, BEN, hand(3, 5, 0, 5))
    set_row(state.laid, CARLA, hand(0, 0, 3))
    set_row(state.laid, DIRK, [0] * 5)
    set_row(state.hands, HANNA, hand(0, 0, 0, 0, 1))
    discards_before = sum(state.discards)
    state.apply("lay:SE")  # 24 + 1 = 25 cards laid out: the cannon reaches 25
    state.apply("stop")
    state.apply("move:SE")
    state.apply("keep")
    assert [state.laid[p * 5 + DK] for p in range(4)] == [0, 0, 0, 0]
    assert sum(state.discards) - discards_before == 11
    view = state.public_view()
    assert view["laid_total"] == 14 and view["seals"]["DK"] is None


def test_pirates_at_21_with_three_players_take_all_tied_largest_companies():
    state = fresh(3)
    board_with(state, {30: (SE, TEA)})
    give_turn(state, HANNA)
    set_row(state.laid, HANNA, hand(5, 5, 4))
    set_row(state.laid, BEN, hand(1, 1, 1, 3))
    set_row(state.laid, CARLA, [0] * 5)
    set_row(state.hands, HANNA, hand(0, 0, 0, 0, 1))
    state.apply("lay:SE")  # 21 cards: GB 6, DK 6 tie as largest
    state.apply("stop")
    state.apply("move:SE")
    state.apply("keep")
    assert state.public_view()["laid_total"] == 9
    assert [state.laid[p * 5 + GB] + state.laid[p * 5 + DK] for p in range(3)] == [0, 0, 0]


def test_below_the_threshold_nothing_is_sunk():
    state = fresh(4)
    board_with(state, {30: (SE, TEA)})
    give_turn(state, HANNA)
    set_row(state.laid, HANNA, hand(0, 6, 2))
    set_row(state.laid, BEN, hand(3, 5, 0, 4))
    set_row(state.laid, CARLA, hand(0, 0, 3))
    set_row(state.hands, HANNA, hand(0, 0, 0, 0, 1))
    state.apply("lay:SE")  # 24
    state.apply("stop")
    state.apply("move:SE")
    state.apply("keep")
    assert state.public_view()["laid_total"] == 24


def test_empty_stack_is_refilled_from_shuffled_discards():
    state = fresh()
    give_turn(state, HANNA)
    state.discards = [state.discards[c] + len([x for x in state.deck if x == c]) for c in range(5)]
    state.deck = []
    before = counts_of_cards(state)
    state.apply("draw")
    assert sum(row(state.hands, HANNA)) == 12 and counts_of_cards(state) == before
    assert len(state.deck) > 0


# --- target counter and the end ------------------------------------------------------------
def test_hanna_with_only_the_danish_seal_and_no_danish_counter_ahead_takes_the_target():
    state = fresh()
    board_with(state, {2: (DK, TEA), 20: (SE, TEA)})
    give_turn(state, HANNA)
    state.positions[HANNA] = 10
    set_row(state.hands, HANNA, hand(0, 3))
    for _ in range(3):
        state.apply("lay:DK")
    state.apply("stop")
    assert state.legal_actions() == ["move:target"]
    state.apply("move:target")
    assert state.target_holder == HANNA and state.positions[HANNA] == TARGET


def test_with_a_swedish_seal_too_hanna_must_move_to_the_swedish_counter():
    state = fresh()
    board_with(state, {2: (DK, TEA), 20: (SE, TEA)})
    give_turn(state, HANNA)
    state.positions[HANNA] = 10
    set_row(state.hands, HANNA, hand(0, 3, 0, 0, 1))
    for action in ["lay:DK", "lay:DK", "lay:DK", "lay:SE"]:
        state.apply(action)
    state.apply("stop")
    assert state.legal_actions() == ["move:SE"]
    with pytest.raises(IllegalAction, match="must move there"):
        state.apply("move:target")


def test_after_the_target_is_taken_others_may_lay_only_to_reach_a_counter_and_the_round_ends():
    state = fresh()
    board_with(state, {12: (GB, TEA), 20: (SE, PEPPER)})
    give_turn(state, HANNA)
    state.positions = [10, 14, 3, 0]
    state.laid = [0] * 20
    set_row(state.hands, HANNA, hand(0, 1))
    set_row(state.hands, BEN, hand(2))  # GB counter lies behind Ben: he may not lay out
    set_row(state.hands, CARLA, hand(0, 0, 0, 0, 1))  # SE counter ahead of Carla: she may
    state.apply("lay:DK")
    state.apply("stop")
    state.apply("move:target")
    assert state.current_player() == BEN and state.legal_actions() == ["draw"]
    with pytest.raises(IllegalAction, match="Target Counter is taken"):
        state.apply("lay:GB")
    state.apply("draw")
    assert "lay:SE" in state.legal_actions()
    state.apply("lay:SE")
    state.apply("stop")
    state.apply("move:SE")
    state.apply("exchange")
    state.apply("draw")  # Dirk, the last player of the round
    assert state.phase == OVER


def test_the_target_holder_cannot_exchange():
    state = fresh()
    board_with(state, {2: (DK, TEA)})
    give_turn(state, HANNA)
    state.positions[HANNA] = 10
    set_row(state.counters, HANNA, hand(1, 1, 1))
    set_row(state.hands, HANNA, hand(0, 1))
    state.apply("lay:DK")
    state.apply("stop")
    state.apply("move:target")
    assert state.phase == TURN and state.gold[HANNA] == 0


# --- final scoring -------------------------------------------------------------------------
def score(state: BataviaState) -> list[dict[str, int]]:
    state._score()
    assert state.final is not None
    return state.final


def cleared(players: int = 4) -> BataviaState:
    state = fresh(players)
    for p in range(players):
        set_row(state.hands, p, [0] * 5)
        set_row(state.laid, p, [0] * 5)
    return state


def test_orange_with_most_silk_gets_13_and_the_others_nothing():
    state = cleared()
    state.squares[GB * 7 + SILK], state.squares[DK * 7 + SILK], state.squares[FR * 7 + SILK] = (
        HANNA,
        HANNA,
        BEN,
    )
    rows = score(state)
    assert rows[HANNA]["warehouses"] == 13 and rows[BEN]["warehouses"] == 0


def test_red_yellow_and_blue_sharing_the_silk_majority_get_6_each():
    state = cleared()
    state.squares[GB * 7 + SILK], state.squares[DK * 7 + SILK], state.squares[FR * 7 + SILK] = (
        HANNA,
        BEN,
        CARLA,
    )
    rows = score(state)
    assert [rows[p]["warehouses"] for p in range(4)] == [6, 6, 6, 0]


def test_yellow_and_blue_sharing_get_6_each_and_red_gets_nothing():
    state = cleared()
    for company, owner in zip((GB, DK, FR, NL, SE), (HANNA, HANNA, BEN, BEN, CARLA), strict=True):
        state.squares[company * 7 + SILK] = owner
    rows = score(state)
    assert [rows[p]["warehouses"] for p in range(4)] == [6, 6, 0, 0]


@pytest.mark.parametrize(
    ("commodity", "sole", "shared"),
    [
        (TEA, 10, 5),
        (COTTON, 11, 5),
        (CHINA, 12, 6),
        (SILK, 13, 6),
        (GINGER, 14, 7),
        (NUTMEG, 15, 7),
        (PEPPER, 16, 8),
    ],
)
def test_warehouse_values(commodity, sole, shared):
    state = cleared()
    state.squares[GB * 7 + commodity] = HANNA
    assert score(state)[HANNA]["warehouses"] == sole
    state = cleared()
    state.squares[GB * 7 + commodity], state.squares[DK * 7 + commodity] = HANNA, BEN
    rows = score(state)
    assert rows[HANNA]["warehouses"] == rows[BEN]["warehouses"] == shared


def test_most_notes_5_and_a_tie_2_each():
    state = cleared()
    state.notes = [20, 15, 15, 10]
    assert [r["notes"] for r in score(state)] == [5, 0, 0, 0]
    state = cleared()
    state.notes = [20, 20, 10, 10]
    assert [r["notes"] for r in score(state)] == [2, 2, 0, 0]


def test_target_counter_is_worth_4_and_each_seal_2_after_hands_are_laid_out():
    state = cleared()
    state.target_holder = DIRK
    set_row(state.laid, BEN, hand(3, 0, 0, 0, 0))
    set_row(state.hands, HANNA, hand(4, 1))  # laid out at the end: takes the GB seal from Ben
    set_row(state.hands, CARLA, hand(0, 1))  # ties Hanna in DK: that seal returns to the board
    state.notes = [15, 15, 15, 15]
    rows = score(state)
    assert rows[DIRK]["target"] == 4
    assert rows[HANNA]["seals"] == 2 and rows[BEN]["seals"] == 0 and rows[CARLA]["seals"] == 0
    assert all(r["notes"] == 2 for r in rows)


def test_totals_add_exchange_gold_and_equal_totals_share_the_win():
    state = cleared()
    state.gold = [18, 6, 0, 0]
    state.squares[GB * 7 + TEA] = BEN  # tea, sole majority: 10
    state.notes = [14, 15, 15, 15]  # three-way tie for most notes: 2 each, not Hanna
    rows = score(state)
    assert [r["total"] for r in rows] == [18, 18, 2, 2]
    assert state.scores() == [18, 18, 2, 2]
    assert state.ranking() == [1, 1, 3, 3]


def test_a_round_without_any_card_drawn_won_or_laid_ends_the_game():
    state = cleared()
    state.deck, state.discards, state.package = [], [0] * 5, [0] * 5
    give_turn(state, HANNA)
    for _ in range(4):
        state.apply("draw")
    assert state.phase == OVER


# --- review: determinisation, odd inputs ---------------------------------------------------
def ben_halfway_through_laying_out() -> BataviaState:
    """Ben has laid one Danish card against Carla's three and holds 3 Danish + 2 British.

    Everyone saw him start laying out, which was legal only because his hand could
    win a majority; a redrawn hand must still let him finish his move.
    """
    state = fresh()
    give_turn(state, BEN)
    for p in range(4):
        state.deck.extend(c for c in range(5) for _ in range(state.hands[p * 5 + c]))
        for table in (state.hands, state.laid, state.known):
            set_row(table, p, [0] * 5)
    set_row(state.laid, CARLA, hand(0, 3))
    set_row(state.laid, DIRK, hand(5, 0, 5, 0, 5))
    set_row(state.hands, BEN, hand(2, 4))
    for company in (GB, GB, DK, DK, DK, DK):
        state.deck.remove(company)
    state._legal = None
    state.apply("lay:DK")
    return state


def test_a_determinized_opponent_halfway_through_laying_out_can_still_finish_his_move():
    state = ben_halfway_through_laying_out()
    redrawn = set()
    for k in range(40):
        other = state.determinize(HANNA, Rng(k))
        assert other.current_player() == BEN and sum(row(other.hands, BEN)) == 5
        redrawn.add(tuple(row(other.hands, BEN)))
        while "stop" not in other.legal_actions():
            assert other.legal_actions(), f"no legal action for Ben after determinize({k})"
            other.apply(other.legal_actions()[0])
        other.apply("stop")
        assert other.legal_actions()[0].startswith("move:")
    assert len(redrawn) > 1  # his hand really is redrawn, not copied from the truth


def test_a_determinized_layer_after_the_target_can_still_reach_a_counter():
    state = fresh()
    board_with(state, {20: (SE, PEPPER)})
    give_turn(state, BEN)
    state.turns_taken = 1
    state.target_holder, state.positions[HANNA] = HANNA, TARGET
    for p in range(4):
        state.deck.extend(c for c in range(5) for _ in range(state.hands[p * 5 + c]))
        for table in (state.hands, state.laid, state.known):
            set_row(table, p, [0] * 5)
    set_row(state.laid, CARLA, hand(0, 0, 0, 0, 2))
    set_row(state.hands, BEN, hand(3, 0, 0, 0, 3))  # only Sweden has a counter ahead
    for company in (GB, GB, GB, SE, SE, SE):
        state.deck.remove(company)
    state._legal = None
    state.apply("lay:GB")
    for k in range(20):
        other = state.determinize(DIRK, Rng(k))
        while "stop" not in other.legal_actions():
            assert other.legal_actions(), f"no legal action for Ben after determinize({k})"
            other.apply(other.legal_actions()[0])
        other.apply("stop")
        assert other.legal_actions() == ["move:SE"]


def test_observations_refuse_a_seat_that_is_not_at_the_table():
    state = fresh(3)
    for seat in (-1, 3, 7):
        with pytest.raises(EngineError, match="seat"):
            state.observation(seat)
        with pytest.raises(EngineError, match="seat"):
            state.determinize(seat, Rng(0))


def test_a_bid_written_oddly_is_refused_with_the_right_reason():
    state = fresh()
    with pytest.raises(IllegalAction, match="write a bid as 'bid:5'"):
        state.apply("bid:05")
    with pytest.raises(IllegalAction, match="write a bid as"):
        state.apply("bid:-1")


def test_bidding_outside_the_auction_names_the_step():
    state = fresh()
    give_turn(state, HANNA)
    for action in ("pass", "bid:3"):
        with pytest.raises(IllegalAction, match="only during the auction"):
            state.apply(action)


def test_a_stack_reshuffled_from_the_discards_has_a_publicly_known_make_up():
    """The discards were laid-out cards (public); once shuffled into a new stack everyone
    still knows which cards it holds, less those turned over for an auction since."""
    state = fresh()
    state.deck.extend(c for c in range(5) for _ in range(state.package[c]))
    give_turn(state, HANNA)
    state.discards = [0] * 5
    for p in range(4):
        state.deck.extend(c for c in range(5) for _ in range(state.hands[p * 5 + c]))
        set_row(state.hands, p, [0] * 5)
        set_row(state.known, p, [0] * 5)
    state.discards[DK] = sum(1 for c in state.deck if c == DK)
    state.deck = [c for c in state.deck if c != DK]
    for p in range(4):  # every non-Danish card goes to the hands, the stack runs dry
        set_row(state.hands, p, [sum(1 for c in state.deck[p::4] if c == k) for k in range(5)])
    state.deck = []
    state.laid = [0] * 20
    assert counts_of_cards(state) == 110
    state.apply("draw")  # the 22 Danish discards become the stack; Hanna draws two of them
    view = state.observation(BEN)
    assert view["stack_from_discards"] == {"GB": 0, "DK": 22, "FR": 0, "NL": 0, "SE": 0}
    assert view["deck_size"] == 20
    for seat in (BEN, CARLA):
        for k in range(10):
            other = state.determinize(seat, Rng(k))
            assert set(other.deck) == {DK}, "the stack can only hold the reshuffled Danish cards"
            assert other.observation(seat) == state.observation(seat)


def test_cards_turned_over_for_the_auction_leave_the_known_make_up_of_the_stack():
    state = fresh()
    give_turn(state, HANNA)
    state.deck, state.discards = [], [3, 4, 0, 0, 0]
    state.apply("draw")  # reshuffle: 7 cards, Hanna draws 2 unseen ones
    assert state.observation(BEN)["stack_from_discards"] == {
        "GB": 3,
        "DK": 4,
        "FR": 0,
        "NL": 0,
        "SE": 0,
    }
    turned = list(state.deck[:3])  # the bottom three are left after two more draws
    state.rng.state = 0
    while state.rng.copy().randint(1, 6) != 3:
        state.rng.state += 1
    state.turns_taken = 3
    state.apply("draw")  # Ben ends the round (2 more unseen), the auction turns over 3
    assert state.phase == "auction" and state.die == 3
    left = state.observation(BEN)["stack_from_discards"]
    assert sum(left.values()) == 7 - 3
    assert [left["GB"], left["DK"]] == [3 - turned.count(GB), 4 - turned.count(DK)]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_legal_list_and_the_illegal_action_errors_come_from_one_set_of_rules(players):
    """At every decision of seeded games: each legal action is one the rules accept, and
    every other action of the game is refused with its own reason (never the catch-all
    that would mean the legal list and the rules disagree)."""
    vocabulary = GAME.action_vocabulary(players)
    for seed in range(2):
        state = fresh(players, seed)
        rng = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            for action in vocabulary:
                if action in legal:
                    assert state._refusal(action) is None, action
                    continue
                with pytest.raises(IllegalAction) as refused:
                    state.apply(action)
                assert "is not legal now" not in str(refused.value), action
            state.apply(rng.choice(legal))
