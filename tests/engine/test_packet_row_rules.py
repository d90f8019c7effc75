"""Packet Row's rules: every worked example of the rulebook, then focused rule tests.

The rulebook's pictures are missing from the scan, so each example uses the
reconstructed cards (engine/games/packet_row/components.py) that match its words.
Seats: Anna 0, Ben 1, Cedric 2, David 3.
"""

from __future__ import annotations

import pytest

from engine.core import GameNotOver, IllegalAction
from engine.games.packet_row import cards as C
from engine.games.packet_row import components as K
from engine.games.packet_row.state import EMPTY
from engine.rng import Rng
from tests.engine.packet_row_helpers import (
    BOARD,
    box_of,
    current_row,
    discard_pile,
    empty_hands,
    future_row,
    give,
    labels,
    new_game,
    piece,
    refresh,
    set_supply,
    stack_deck,
)

ANNA, BEN, CEDRIC, DAVID = range(4)
MARKET, DOCKS = BOARD["market"], BOARD["docks"]


def example_round_table(david_has_assistant: bool = False):
    """The four-player table of the rulebook's example round, Anna harbour master."""
    state = new_game(4)
    empty_hands(state)
    set_supply(
        state,
        "market",
        ["vp:15:3", "goods:tobacco:1:2", "goods:grain:2:6"],
        ["goods:tobacco:3:10", "trader"],
    )
    set_supply(state, "docks", ["ship:GB", "captain", "gold:1:4"], ["ship:FR", "vp:6:1"])
    stack_deck(state, "market", ["goods:fur:2:6", "goods:cotton:1:2", "goods:fur:1:2"])
    stack_deck(state, "docks", ["ship:NL", "ship:ES", "ship:SE"])
    if david_has_assistant:
        give(state, DAVID, "assistant")
    return state


# ---------------------------------------------------------------- worked examples
def test_example_round_ben_cedric_david_anna():
    state = example_round_table()
    counts = state.component_counts()
    guildhall_before = list(current_row(state, BOARD["guildhall"]))
    assert state.current_player() == ANNA and state.phase == "area"

    state.apply("area:market")
    assert state.current_player() == BEN  # asked first: left of the harbour master
    state.apply("take:market:0")  # the library, $15
    assert state.money[BEN] == 10 and labels(state.hands[BEN]) == ["vp:15:3"]
    assert piece(state, BEN) == [MARKET, 0, 0]

    assert state.current_player() == CEDRIC
    state.apply("pass")
    assert state.current_player() == DAVID
    state.apply("take:market:1")  # one tobacco for $2; three tobacco are in the future supply
    assert state.money[DAVID] == 23

    # Anna wants nothing here: she may take the grain or choose another area, not pass.
    assert state.current_player() == ANNA and state.phase == "harbour"
    legal = state.legal_actions()
    assert "take:market:2" in legal and "pass" not in legal
    assert {"area:guildhall", "area:docks", "area:bank"} <= set(legal)
    assert "area:market" not in legal
    state.apply("area:docks")

    assert state.current_player() == CEDRIC  # the only player without a card is asked
    state.apply("pass")
    assert state.current_player() == ANNA
    state.apply("take:docks:0")  # a merchant ship costs nothing and lies open

    # The round is over: Anna took a card.  Cedric got nothing.
    assert state.money[ANNA] == 25 and labels(state.ships[ANNA]) == ["ship:GB"]
    assert state.hands[CEDRIC] == []
    assert state.harbour_master == BEN
    assert state.phase == "area" and state.current_player() == BEN
    assert [piece(state, q) for q in range(4)] == [None] * 4
    # Market and docks: leftovers discarded, future moves to current plus one deck card.
    assert labels(discard_pile(state, MARKET)) == ["goods:grain:2:6"]
    assert labels(discard_pile(state, DOCKS)) == ["captain", "gold:1:4"]
    assert labels(current_row(state, MARKET)) == ["goods:fur:2:6", "goods:tobacco:3:10", "trader"]
    assert labels(future_row(state, MARKET)) == ["goods:cotton:1:2", "goods:fur:1:2"]
    assert labels(current_row(state, DOCKS)) == ["ship:FR", "ship:NL", "vp:6:1"]
    assert labels(future_row(state, DOCKS)) == ["ship:ES", "ship:SE"]
    assert current_row(state, BOARD["guildhall"]) == guildhall_before  # not chosen: untouched
    assert state.component_counts() == counts


def test_assistant_example_david_takes_three_tobacco_from_the_future_supply():
    state = example_round_table(david_has_assistant=True)
    state.apply("area:market")
    state.apply("take:market:0")  # Ben
    state.apply("pass")  # Cedric
    assert state.current_player() == DAVID
    legal = state.legal_actions()
    assert "assist:market:0" in legal and "assist:market:1" in legal
    state.apply("assist:market:0")
    assert state.money[DAVID] == 15  # he still pays $10
    assert labels(state.hands[DAVID]) == ["goods:tobacco:3:10"]
    assert labels(discard_pile(state, BOARD["guildhall"])) == ["assistant"]
    assert piece(state, DAVID) == [MARKET, 1, 0]
    assert future_row(state, MARKET)[0] == EMPTY
    state.apply("take:market:1")  # Anna takes the single tobacco: the round ends
    # The current supply is refilled to its full size (3 cards with 4 players): the trader
    # left in the future supply plus two deck cards, one of them making up David's gap.
    assert labels(current_row(state, MARKET)) == ["goods:cotton:1:2", "goods:fur:2:6", "trader"]
    assert EMPTY not in current_row(state, MARKET)
    assert labels(future_row(state, MARKET)) == ["goods:fur:1:2", "vp:8:1"]
    assert not state.short[MARKET]


def test_assistant_needed_for_the_future_supply():
    state = example_round_table()
    state.apply("area:market")
    legal = state.legal_actions()
    assert not any(a.startswith("assist:") for a in legal)
    with pytest.raises(IllegalAction, match="needs an assistant"):
        state.apply("assist:market:0")


def fulfil_table(*cards: str):
    state = new_game(3)
    empty_hands(state)
    give(state, ANNA, *cards)
    return state


def test_anna_fulfils_one_contract_for_35_dollars():
    state = fulfil_table("contract:fur:SE:5:35", "goods:fur:2:6", "goods:fur:3:10", "ship:SE")
    counts = state.component_counts()
    assert "contract:fur:SE:5:35" in state.legal_actions()
    state.apply("contract:fur:SE:5:35")
    # The only ship and the only way to sail are chosen automatically; goods are asked.
    assert state.phase == "load"
    assert sorted(state.legal_actions()) == ["goods:fur:2", "goods:fur:3"]
    state.apply("goods:fur:3")
    assert state.money[ANNA] == 60
    assert state.hands[ANNA] == [] and not state.ships[ANNA]
    assert labels(discard_pile(state, BOARD["guildhall"])) == ["contract:fur:SE:5:35"]
    assert labels(discard_pile(state, MARKET)) == ["goods:fur:2:6", "goods:fur:3:10"]
    assert labels(discard_pile(state, DOCKS)) == ["ship:SE"]
    assert state.phase == "area" and state.current_player() == ANNA  # back where she was
    assert state.component_counts() == counts


def test_david_fulfils_three_contracts_for_65_dollars_tobacco_split_cotton_lost():
    state = fulfil_table(
        "contract:tobacco:NL:5:35",
        "contract:tobacco:SE:1:15",
        "contract:cotton:DE:1:15",
        "goods:tobacco:3:10",
        "goods:tobacco:3:10",
        "goods:cotton:2:6",
        "ship:NL",
        "ship:SE",
        "ship:DE",
    )
    state.apply("contract:tobacco:NL:5:35")
    assert state.phase == "contracts"
    assert state.legal_actions() == [
        "contract:cotton:DE:1:15",
        "contract:tobacco:SE:1:15",
        "sail",
    ]
    state.apply("contract:tobacco:SE:1:15")
    state.apply("contract:cotton:DE:1:15")  # the last one: sailing is automatic
    assert state.phase == "load"  # each destination had exactly one ship
    assert state.b_demand == [0, 1, 0, 6]
    state.apply("goods:tobacco:3")
    state.apply("goods:cotton:2")  # one cotton is owed; the second is lost
    assert state.money[ANNA] == 25 + 65
    assert state.hands[ANNA] == [] and not state.ships[ANNA]


def test_several_contracts_of_one_destination_share_one_ship():
    state = fulfil_table(
        "contract:grain:GB:1:15", "contract:cotton:GB:2:20", "goods:grain:1:2",
        "goods:cotton:2:6", "ship:GB",
    )  # fmt: skip
    state.apply("contract:cotton:GB:2:20")
    assert "contract:grain:GB:1:15" in state.legal_actions()
    state.apply("contract:grain:GB:1:15")
    assert state.phase == "load" and state.b_demand == [1, 2, 0, 0]
    state.apply("goods:grain:1")
    assert state.money[ANNA] == 25 + 35 and not state.ships[ANNA]


def test_trader_example_changes_two_cotton_into_fur():
    cards = ["contract:fur:GB:3:25", "goods:fur:1:2", "goods:cotton:2:6", "ship:GB"]
    without = fulfil_table(*cards)
    assert "contract:fur:GB:3:25" not in without.legal_actions()
    state = fulfil_table(*cards, "trader")
    state.apply("contract:fur:GB:3:25")
    assert sorted(state.legal_actions()) == ["goods:fur:1", "trade:cotton:2:fur"]
    state.apply("trade:cotton:2:fur")  # then the single fur is the only choice
    assert state.money[ANNA] == 50
    assert labels(discard_pile(state, MARKET)) == ["goods:cotton:2:6", "goods:fur:1:2", "trader"]


def test_captain_example_ship_for_spain_sails_to_france():
    cards = ["contract:fur:FR:3:25", "goods:fur:3:10", "ship:ES"]
    assert "contract:fur:FR:3:25" not in fulfil_table(*cards).legal_actions()
    state = fulfil_table(*cards, "captain")
    state.apply("contract:fur:FR:3:25")
    assert state.money[ANNA] == 50
    assert labels(discard_pile(state, DOCKS)) == ["captain", "ship:ES"]


def test_one_ship_serves_one_destination_even_with_a_captain():
    state = fulfil_table(
        "contract:fur:FR:3:25", "contract:grain:GB:1:15", "goods:fur:3:10", "goods:grain:1:2",
        "ship:FR", "captain",
    )  # fmt: skip
    state.apply("contract:fur:FR:3:25")  # the GB contract cannot join: no second ship
    assert state.money[ANNA] == 50 and state.phase == "area"
    assert labels(state.hands[ANNA]) == ["captain", "contract:grain:GB:1:15", "goods:grain:1:2"]


def test_captain_choice_is_offered_when_it_matters():
    state = fulfil_table("contract:fur:ES:1:15", "goods:fur:1:2", "ship:ES", "ship:GB", "captain")
    state.apply("contract:fur:ES:1:15")
    assert state.phase == "ships"
    assert state.legal_actions() == ["ship:ES", "captain:GB"]
    state.apply("captain:GB")  # keep the Spanish ship for later
    assert labels(state.ships[ANNA]) == ["ship:ES"] and state.money[ANNA] == 40


def test_gold_nuggets_single_any_kind_double_two_of_one_kind():
    state = fulfil_table("contract:grain:FR:2:20", "gold:2:8", "ship:FR")
    state.apply("contract:grain:FR:2:20")
    assert state.money[ANNA] == 45
    # Two contracts of different goods cannot share one double nugget.
    state = fulfil_table(
        "contract:grain:GB:1:15", "contract:cotton:GB:2:20", "goods:cotton:1:2", "gold:2:8",
        "ship:GB",
    )  # fmt: skip
    assert "contract:grain:GB:1:15" in state.legal_actions()
    state.apply("contract:grain:GB:1:15")
    assert "contract:cotton:GB:2:20" not in state.legal_actions()
    # Singles mix kinds.
    state = fulfil_table(
        "contract:grain:GB:1:15", "contract:cotton:GB:2:20", "goods:cotton:1:2", "gold:1:4",
        "gold:1:4", "ship:GB",
    )  # fmt: skip
    state.apply("contract:grain:GB:1:15")
    state.apply("contract:cotton:GB:2:20")
    while state.phase == "load":
        state.apply(state.legal_actions()[0])
    assert state.money[ANNA] == 25 + 35 and state.hands[ANNA] == []


def test_fulfilment_steps_never_dead_end():
    state = fulfil_table(
        "contract:fur:SE:5:35", "contract:fur:NL:4:30", "goods:fur:3:10", "goods:fur:2:6",
        "goods:grain:3:10", "goods:cotton:1:2", "trader", "gold:1:4", "ship:SE", "ship:NL",
    )  # fmt: skip
    for seed in range(30):
        game = state.clone()
        rng = Rng(seed)
        game.apply(rng.choice([a for a in game.legal_actions() if a.startswith("contract:")]))
        while game.phase in ("contracts", "ships", "load"):
            legal = game.legal_actions()
            assert legal
            game.apply(rng.choice(legal))
        assert game.money[ANNA] > 25


# ---------------------------------------------------------------- round structure
def test_forced_take_when_everybody_else_has_a_card():
    state = new_game(3)
    empty_hands(state)
    state.apply("area:market")
    state.apply(next(a for a in state.legal_actions() if a.startswith("take:")))
    state.apply(next(a for a in state.legal_actions() if a.startswith("take:")))
    legal = state.legal_actions()
    assert state.current_player() == ANNA and state.observation(ANNA)["harbour_master_must_take"]
    assert not any(a.startswith("area:") for a in legal)
    assert "pass" in legal
    assert any(a.startswith("take:docks:") for a in legal)  # an area not chosen this round
    with pytest.raises(IllegalAction, match=r"already chosen|everybody else"):
        state.apply("area:docks")
    docks_before = list(future_row(state, DOCKS))
    state.apply("take:docks:0")
    # Taking there chose the docks: they are refilled too.
    assert [c for c in current_row(state, DOCKS) if c != EMPTY] == [
        c for c in docks_before if c != EMPTY
    ]
    assert state.harbour_master == BEN


def test_forced_harbour_master_may_pass_and_end_the_round():
    state = new_game(2)
    empty_hands(state)
    state.apply("area:bank")
    state.apply("take:bank:0")
    state.apply("pass")
    assert state.round == 2 and state.harbour_master == BEN and state.hands[ANNA] == []


def test_round_ends_when_no_area_is_left():
    state = new_game(2)
    empty_hands(state)
    for area in ("guildhall", "docks", "market", "bank"):
        state.apply(f"area:{area}")
        state.apply("pass")  # Ben
        if area != "bank":
            assert "pass" not in state.legal_actions()
            continue
        assert "pass" in state.legal_actions()  # no area left: take or pass
        state.apply("pass")
    assert state.round == 2 and state.hands == [[], []]


def test_harbour_master_chooses_only_areas_with_cards():
    state = new_game(3)
    empty_hands(state)
    set_supply(state, "bank", [None, None])
    assert "area:bank" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="no card in its current supply"):
        state.apply("area:bank")


def test_purchases_need_money_and_money_cards_cash_at_any_time():
    state = new_game(3)
    empty_hands(state)
    set_supply(state, "guildhall", ["vp:28:7", "vp:6:1"])
    give(state, BEN, "money:5")
    state.apply("area:guildhall")
    assert state.current_player() == BEN
    legal = state.legal_actions()
    assert "take:guildhall:0" not in legal and "take:guildhall:1" in legal
    assert "cash:5" in legal
    with pytest.raises(IllegalAction, match=r"costs \$28 and you have \$25"):
        state.apply("take:guildhall:0")
    state.apply("cash:5")
    assert state.money[BEN] == 30 and state.current_player() == BEN
    state.apply("take:guildhall:0")
    assert state.money[BEN] == 2 and labels(state.hands[BEN]) == ["vp:28:7"]


def test_end_of_round_window_offers_fulfilment_in_turn_order():
    state = new_game(3)
    empty_hands(state)
    give(state, CEDRIC, "contract:grain:GB:1:15", "goods:grain:1:2", "ship:GB")
    give(state, BEN, "contract:fur:ES:1:15", "ship:ES")
    set_supply(state, "market", ["goods:fur:1:2", "goods:fur:2:6"])
    state.apply("area:market")
    assert "contract:fur:ES:1:15" not in state.legal_actions()  # Ben has no fur yet
    state.apply("take:market:0")
    assert "contract:grain:GB:1:15" in state.legal_actions()  # Cedric may fulfil now ...
    state.apply("pass")  # ... but waits
    state.apply("take:market:1")  # Anna takes a card: the round ends
    # Windows in turn order from Anna; she cannot fulfil, so Ben is first.
    assert state.phase == "window" and state.current_player() == BEN
    assert state.legal_actions() == ["contract:fur:ES:1:15", "done"]
    with pytest.raises(IllegalAction, match="'done' ends your end-of-round window"):
        state.apply("pass")
    state.apply("done")
    assert state.phase == "window" and state.current_player() == CEDRIC
    state.apply("contract:grain:GB:1:15")
    assert state.money[CEDRIC] == 40 and state.phase == "window"
    state.apply("done")
    assert state.phase == "area" and state.current_player() == BEN and state.round == 2


def test_setup_by_player_count():
    for n, slots in ((2, 2), (3, 2), (4, 3), (5, 4)):
        state = new_game(n, seed=n)
        assert all(
            len(row) == slots and EMPTY not in row
            for row in (current_row(state, b) for b in range(4))
        )
        assert all(
            len(row) == 2 and EMPTY not in row for row in (future_row(state, b) for b in range(4))
        )
        assert state.money == [25] * n
        assert all(len(h) == 1 and C.IS_STARTING[h[0]] for h in state.hands)
        removed = 6 if n == 2 else 0
        for b, deck in enumerate(state.decks):
            assert len(box_of(state, b)) == removed
            assert len(deck) == len(K.DECKS[b]) - removed - 2 - slots
        assert len(state.unused_starting) == 12 - n


def test_refill_adds_extra_cards_for_four_and_five_players():
    for n, extra in ((4, 1), (5, 2)):
        state = new_game(n)
        empty_hands(state)
        future = list(future_row(state, MARKET))
        top = list(state.decks[MARKET][-extra:])
        state.apply("area:market")
        for _ in range(n - 1):
            state.apply("pass")
        state.apply("take:market:0")
        assert current_row(state, MARKET) == future + top[::-1]


def test_game_ends_when_one_board_cannot_be_refilled_with_two_players():
    state = new_game(2)
    empty_hands(state)
    give(state, BEN, "contract:fur:ES:1:15", "goods:fur:1:2", "ship:ES")
    b = BOARD["bank"]
    state.boxed.extend(state.decks[b][:-1])
    state.decks[b] = state.decks[b][-1:]  # one card: the future supply refills short only
    refresh(state)
    state.apply("area:bank")
    state.apply("pass")
    state.apply("take:bank:0")
    assert not state.short[b]  # current refilled from the future: the game goes on
    assert future_row(state, b).count(EMPTY) == 1
    state.apply("done")  # Ben's end-of-round window
    state.apply("area:bank")
    state.apply("pass")
    state.apply("take:bank:0")  # Ben is harbour master; his own card ends the round
    assert state.short[b] and state.game_over
    # Final fulfilment before scoring: Anna cannot, Ben can.
    assert state.phase == "window" and state.current_player() == BEN
    with pytest.raises(GameNotOver):
        state.scores()
    state.apply("contract:fur:ES:1:15")
    assert state.money[BEN] == 40
    state.apply("done")
    assert state.is_terminal()


def test_four_players_need_two_boards_not_properly_refilled():
    state = new_game(4)
    empty_hands(state)
    for name in ("bank", "guildhall"):
        b = BOARD[name]
        state.boxed.extend(state.decks[b])
        state.decks[b] = b""
    refresh(state)
    state.apply("area:bank")
    for _ in range(3):
        state.apply("pass")
    state.apply("take:bank:0")
    assert state.short[BOARD["bank"]] and not state.is_terminal()
    assert current_row(state, BOARD["bank"]).count(EMPTY) == 1  # fewer cards to choose from
    state.apply("area:guildhall")  # Ben is harbour master now
    for _ in range(3):
        state.apply("pass")
    state.apply("take:guildhall:0")
    assert state.is_terminal()


# ---------------------------------------------------------------- scoring
def score_table(n: int, money: list[int], hands: list[list[str]]):
    state = new_game(n)
    empty_hands(state)
    state.money = list(money)
    for p, cards in enumerate(hands):
        give(state, p, *cards)
    state._finish_game()
    return state


def test_scoring_vp_cards_money_and_the_university():
    state = score_table(2, [47, 30], [["vp:18:4", "money:3"], ["banker"]])
    # Anna cashes $3: $50 = 5 VP, the university 4 VP, no banker.  Ben $30 = 3 VP, his
    # banker scores nothing: Anna is richer.
    assert state.final[ANNA]["total"] == 9 and state.money[ANNA] == 50
    assert state.final[BEN]["total"] == 3


def test_bankers_two_or_three_players_richest_and_ties():
    state = score_table(3, [40, 40, 10], [["banker", "banker"], ["banker"], ["banker"]])
    assert [row["banker_vp"] for row in state.final] == [4, 2, 0]


def test_bankers_four_five_players_first_and_second():
    state = score_table(4, [50, 30, 30, 10], [["banker"], ["banker", "banker"], ["banker"], []])
    assert [row["banker_vp"] for row in state.final] == [3, 2, 1, 0]


def test_bankers_tie_for_richest_means_no_second_place():
    state = score_table(
        5, [50, 50, 30, 10, 5], [["banker"], ["banker", "banker"], ["banker"], ["banker"], []]
    )
    assert [row["banker_vp"] for row in state.final] == [3, 6, 0, 0, 0]


def test_bankers_are_scored_after_final_cashing():
    state = score_table(2, [40, 42], [["banker", "money:5"], []])
    assert state.final[ANNA]["banker_vp"] == 2


def test_most_money_breaks_ties():
    state = score_table(3, [49, 41, 41], [[], ["vp:6:1"], ["vp:6:1"]])
    assert state.scores() == [4, 5, 5]
    assert state.ranking() == [3, 1, 1]
    state = score_table(3, [59, 41, 40], [[], ["vp:6:1"], ["vp:6:1"]])
    assert state.scores() == [5, 5, 5] and state.ranking() == [1, 2, 3]


def test_scores_wait_for_the_end():
    with pytest.raises(GameNotOver):
        new_game(2).scores()


# ---------------------------------------------------------------- information
def test_opponents_see_taken_cards_but_not_the_starting_contract():
    state = new_game(3, seed=5)
    start = C.LABEL[state.start_contract[BEN]]
    view = state.observation(ANNA)["players"][BEN]
    assert view["hidden_cards"] == 1 and view["hand_size"] == 1 and view["known_hand"] == []
    assert start in state.observation(BEN)["hand"]
    state.apply("area:market")
    state.apply("take:market:0")
    taken = C.LABEL[state.hands[BEN][-1]]
    assert state.observation(ANNA)["players"][BEN]["known_hand"] == [taken]
    assert start not in str(state.public_view()["players"][BEN])


def test_determinize_resamples_decks_and_hidden_starting_contracts_only():
    state = new_game(2, seed=9)
    me = ANNA
    seen_ben_contracts, deck_orders, boxes = set(), set(), set()
    for k in range(12):
        other = state.determinize(me, Rng(k))
        assert other.hands[me] == state.hands[me]
        assert other.observation(me) == state.observation(me)
        seen_ben_contracts.add(other.start_contract[BEN])
        deck_orders.add(tuple(other.decks[MARKET]))
        boxes.add(tuple(sorted(box_of(other, MARKET))))
        assert sorted([*other.decks[MARKET], *box_of(other, MARKET)]) == sorted(
            [*state.decks[MARKET], *box_of(state, MARKET)]
        )
        assert other.start_contract[BEN] != state.start_contract[ANNA]
    assert len(seen_ben_contracts) > 1 and len(deck_orders) > 1 and len(boxes) > 1


def test_a_revealed_starting_contract_is_no_longer_resampled():
    state = new_game(3)
    empty_hands(state)
    give(state, BEN, "contract:grain:GB:2:20", "goods:grain:2:6", "ship:GB")
    state.start_contract[BEN] = state.hands[BEN][0]  # it is his starting contract
    refresh(state)
    state.apply("area:market")
    state.apply("contract:grain:GB:2:20")  # Ben fulfils it: everybody sees it now
    assert state.start_contract[BEN] == EMPTY
    assert state.determinize(ANNA, Rng(1)).discards == state.discards


def test_illegal_actions_say_why():
    state = new_game(3)
    with pytest.raises(IllegalAction, match="must choose an area first"):
        state.apply("pass")
    with pytest.raises(IllegalAction, match="not a Packet Row action"):
        state.apply("fly:away")
    with pytest.raises(IllegalAction, match="strings, not int"):
        state.apply(3)
    with pytest.raises(IllegalAction, match="no card can be taken in the area step"):
        state.apply("take:market:0")
    state.apply("area:market")
    with pytest.raises(IllegalAction, match="asked about the market, not the bank"):
        state.apply("take:bank:0")
    with pytest.raises(IllegalAction, match="only the harbour master"):
        state.apply("area:docks")
    with pytest.raises(IllegalAction, match="hold no"):
        state.apply("cash:6")


def test_reconstructed_cards_agree_with_the_rulebook_figures():
    assert C.card_ids("contract:cotton:NL:3:25")  # 3 cotton to the Netherlands pays $25
    assert C.card_ids("vp:18:4")  # the university: $18 for 4 VP
    assert C.card_ids("vp:15:3")  # the library costs $15
    assert C.card_ids("goods:fur:2:6")  # $6 for two fur
    assert C.card_ids("goods:tobacco:1:2") and C.card_ids("goods:tobacco:3:10")
    assert C.card_ids("gold:1:4") and C.card_ids("money:4")
    assert [len(d) for d in K.DECKS] == [38, 42, 42, 38]
    assert len(K.STARTING_CONTRACTS) == 12
    goods = [c for c in K.BANK if c[0] == "money"]
    contract_rewards = sum(int(c[4]) for c in K.GUILDHALL if c[0] == "contract")
    most_paid = contract_rewards + 5 * 20 + sum(int(c[1]) for c in goods)
    assert most_paid < K.BANK_MONEY - 5 * K.START_MONEY  # the supply never runs dry


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_never_overspend_and_end_by_short_boards(players):
    for seed in range(15):
        state = new_game(players, seed)
        rng = Rng(seed)
        while not state.is_terminal():
            state.apply(rng.choice(state.legal_actions()))
            assert min(state.money) >= 0 and state.supply >= 0
        assert sum(state.short) >= K.BOARDS_NOT_REFILLED_TO_END[players]
        assert all(not hand or C.KIND[c] != C.MONEY for hand in state.hands for c in hand)


# ---------------------------------------------------------------- review: rule text
def test_two_player_refill_makes_up_an_assistant_gap_from_the_deck():
    """Two players: the current supply (2 cards) is the future supply, and the deck fills
    the space an assistant emptied, so the board keeps its full size."""
    state = new_game(2)
    empty_hands(state)
    set_supply(state, "market", ["goods:grain:1:2", "goods:fur:1:2"], ["trader", "vp:6:1"])
    stack_deck(state, "market", ["goods:cotton:1:2", "goods:fur:2:6", "goods:grain:2:6"])
    give(state, BEN, "assistant")
    deck_size = len(state.decks[MARKET])
    state.apply("area:market")
    state.apply("assist:market:0")  # Ben takes the trader from the future supply
    state.apply("take:market:0")  # Anna takes: the round ends
    assert labels(current_row(state, MARKET)) == ["goods:cotton:1:2", "vp:6:1"]
    assert labels(future_row(state, MARKET)) == ["goods:fur:2:6", "goods:grain:2:6"]
    assert len(state.decks[MARKET]) == deck_size - 3
    assert not state.short[MARKET] and not state.game_over


def test_assistants_never_freeze_a_board_that_still_has_a_deck():
    """The review's position (3 players, seed 4, seat 1 holding an assistant): once the
    refill left the market one card short, and two assistants could empty it for good
    with 36 cards still in its deck.  Refilled to full size, it stays choosable."""
    state = new_game(3, seed=4)
    give(state, BEN, "assistant")
    give(state, CEDRIC, "assistant")
    for action in ("area:market", "assist:market:0", "pass", "take:market:0"):
        state.apply(action)
    assert EMPTY not in current_row(state, MARKET) and not state.short[MARKET]
    # Ben, harbour master now, chooses the market again; Cedric uses his assistant.
    for action in ("area:market", "assist:market:0", "pass", "take:market:0"):
        state.apply(action)
    assert EMPTY not in current_row(state, MARKET) and not state.short[MARKET]
    assert len(state.decks[MARKET]) > 0 and not state.game_over
    assert "area:market" in state.legal_actions()


def test_a_future_supply_dealt_short_makes_the_next_refill_improper():
    """The deck ran short for the future supply (the game goes on, as the note says);
    when that future supply later becomes the current supply the empty deck cannot fill
    it, so the board is not properly refilled."""
    state = new_game(3)
    empty_hands(state)
    b = BOARD["bank"]
    state.boxed.extend(state.decks[b][:-1])  # boxed by hand: a deck of one card
    state.decks[b] = state.decks[b][-1:]
    refresh(state)
    state.apply("area:bank")
    state.apply("pass")  # Ben
    state.apply("pass")  # Cedric
    state.apply("take:bank:0")  # Anna ends the round
    assert not state.short[b] and future_row(state, b).count(EMPTY) == 1
    give(state, CEDRIC, "assistant")
    state.apply("area:bank")  # Ben is harbour master
    state.apply("assist:bank:0")  # Cedric takes the only future card
    state.apply("pass")  # Anna
    state.apply("take:bank:0")
    assert state.short[b] and state.game_over


def window_leak_table(starting: str):
    """Ben holds a ship, two grain and an unrevealed starting contract ``starting``."""
    state = new_game(3)
    empty_hands(state)
    give(state, BEN, "ship:GB", "goods:grain:2:6", starting)
    state.start_contract[BEN] = state.hands[BEN][-1]
    refresh(state)
    return state


def test_end_of_round_windows_do_not_reveal_an_unrevealed_starting_contract():
    """Whether Ben gets a window must follow from what the others can see."""
    can = window_leak_table("contract:grain:GB:2:20")
    cannot = window_leak_table("contract:fur:FR:2:20")
    for state in (can, cannot):
        state.apply("area:market")
        state.apply("pass")  # Ben
        state.apply("pass")  # Cedric
        state.apply("take:market:0")  # Anna: the round ends
    for seat in (ANNA, CEDRIC):
        assert can.observation(seat) == cannot.observation(seat)
    assert can.phase == "window" and can.current_player() == BEN
    assert "contract:grain:GB:2:20" in can.legal_actions()
    assert cannot.legal_actions() == ["done"]


def test_no_window_when_the_open_cards_rule_out_every_starting_contract():
    state = window_leak_table("contract:grain:GB:2:20")
    state.ships[BEN], state.decks[DOCKS] = b"", state.decks[DOCKS] + state.ships[BEN]
    refresh(state)
    state.apply("area:market")
    state.apply("pass")
    state.apply("pass")
    state.apply("take:market:0")
    assert state.phase == "area" and state.round == 2


def test_taking_from_an_area_chosen_earlier_says_so():
    state = new_game(3)
    empty_hands(state)
    state.apply("area:market")
    state.apply("pass")
    state.apply("pass")
    state.apply("area:docks")
    state.apply("pass")
    state.apply("pass")
    with pytest.raises(IllegalAction, match="market was already chosen this round"):
        state.apply("take:market:0")


def test_skipping_the_contract_choice_does_not_reveal_a_starting_contract():
    """A single-choice step is skipped only when the others could tell it is one."""

    def table(starting: str):
        state = new_game(3)
        empty_hands(state)
        give(state, BEN, "ship:GB", "goods:grain:3:10", "contract:grain:GB:1:15", starting)
        state.start_contract[BEN] = state.hands[BEN][-1]
        refresh(state)
        state.apply("area:market")
        state.apply("contract:grain:GB:1:15")  # Ben starts a fulfilment when asked
        return state

    can, cannot = table("contract:grain:GB:2:20"), table("contract:fur:FR:2:20")
    assert can.observation(ANNA) == cannot.observation(ANNA)
    assert can.phase == "contracts" and "contract:grain:GB:2:20" in can.legal_actions()
    assert cannot.legal_actions() == ["sail"]
    cannot.apply("sail")  # the only ship and goods card follow automatically
    assert cannot.money[BEN] == 40 and cannot.phase == "offer"


@pytest.mark.parametrize("players", [3, 4])
def test_what_follows_a_move_never_depends_on_what_a_player_cannot_see(players):
    """Resample a player's unknowns, play the same move in both worlds: whose turn it is,
    the phase and every player's open cards must agree afterwards (the boards may not,
    since a refill draws from the resampled decks)."""
    keys = ("phase", "current_player", "harbour_master", "players", "fulfilment")
    for seed in range(3):
        state = new_game(players, seed)
        rng = Rng(seed)
        step = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if step % 4 == 0:
                for seat in range(players):
                    twin = state.determinize(seat, Rng(step * 10 + seat))
                    for action in set(legal) & set(twin.legal_actions()):
                        here, there = state.clone(), twin.clone()
                        here.apply(action)
                        there.apply(action)
                        if here.is_terminal():
                            continue  # final scores show every hand
                        mine, theirs = here.observation(seat), there.observation(seat)
                        assert [mine[k] for k in keys] == [theirs[k] for k in keys], action
            state.apply(rng.choice(legal))
            step += 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_legal_list_and_the_illegal_action_errors_come_from_one_set_of_rules(players):
    """At every decision of seeded games: each legal action is one the rules accept, and
    every other action of the game is refused with its own reason (never the catch-all
    that would mean the legal list and the rules disagree)."""
    vocabulary = C.action_vocabulary(players)
    for seed in range(2):
        state = new_game(players, seed)
        rng = Rng(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            for action in vocabulary:
                if action in legal:
                    assert state._refusal(action) is None, action
                    continue
                with pytest.raises(IllegalAction) as refused:
                    state.apply(action)
                assert "cannot be taken now" not in str(refused.value), action
            state.apply(rng.choice(legal))
