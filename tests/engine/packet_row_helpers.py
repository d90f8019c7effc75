"""Building exact Packet Row positions for scenario tests.

Cards are moved, never conjured: every helper takes a card from where it lies (a deck,
a supply, the box) so the conservation of cards still holds in the built position.
"""

from __future__ import annotations

from engine.games.packet_row import cards as C
from engine.games.packet_row import components as K
from engine.games.packet_row.state import EMPTY, PacketRowState

BOARD = {name: b for b, name in enumerate(K.BOARDS)}


def new_game(players: int, seed: int = 0) -> PacketRowState:
    return PacketRowState(seed, players, "standard")


def refresh(state: PacketRowState) -> None:
    """Drop cached legal lists after attributes were set by hand."""
    state.forget_derived()


def current_row(state: PacketRowState, b: int) -> list[int]:
    """Board ``b``'s current supply (EMPTY where a card was taken)."""
    return state.current[b * state.slots : (b + 1) * state.slots]


def future_row(state: PacketRowState, b: int) -> list[int]:
    """Board ``b``'s future supply (EMPTY where a card was taken)."""
    return state.future[b * K.FUTURE_SUPPLY : (b + 1) * K.FUTURE_SUPPLY]


def discard_pile(state: PacketRowState, b: int) -> list[int]:
    """Board ``b``'s discard pile, in the order the cards were discarded."""
    return [c for c in state.discards if C.HOME[c] == b]


def box_of(state: PacketRowState, b: int) -> list[int]:
    """The cards of board ``b``'s deck put back in the box (two players)."""
    return [c for c in state.boxed if C.HOME[c] == b]


def piece(state: PacketRowState, player: int) -> list[int] | None:
    """Where ``player``'s piece stands: [board, 0 current / 1 future, slot], or None."""
    placed = state.pieces[3 * player : 3 * player + 3]
    return None if placed[0] == EMPTY else placed


def pull(state: PacketRowState, label: str, board: str | None = None) -> int:
    """Remove one card printed ``label`` from a deck, the box or a supply; return its id."""
    home = None if board is None else BOARD[board]
    for b, deck in enumerate(state.decks):
        for i in range(len(deck) - 1, -1, -1):
            card = deck[i]
            if C.LABEL[card] == label and (home is None or C.HOME[card] == home):
                state.decks[b] = deck[:i] + deck[i + 1 :]
                return card
    for place in (state.boxed, state.unused_starting):
        for card in reversed(place):
            if C.LABEL[card] == label and (home is None or C.HOME[card] == home):
                place.remove(card)
                return card
    for table in (state.future, state.current):
        for i, card in enumerate(table):
            if card != EMPTY and C.LABEL[card] == label and (home is None or C.HOME[card] == home):
                table[i] = EMPTY
                return card
    raise LookupError(f"no free {label} card left")


def put_under_deck(state: PacketRowState, card: int) -> None:
    """Return a card to the bottom of its own board's deck."""
    state.decks[C.HOME[card]] = bytes([card]) + state.decks[C.HOME[card]]


def empty_hands(state: PacketRowState) -> None:
    """Every player starts the scenario with no cards (starting contracts go to the box)."""
    for p in range(state.num_players):
        for card in state.hands[p]:
            if C.IS_STARTING[card]:
                state.unused_starting.append(card)
            else:
                put_under_deck(state, card)
        state.hands[p] = []
        state.start_contract[p] = EMPTY
    refresh(state)


def give(state: PacketRowState, player: int, *labels: str) -> None:
    """Put cards into a player's hand (ships in front of him)."""
    for label in labels:
        card = pull(state, label)
        if C.KIND[card] == C.SHIP:
            state.ships[player] += bytes((card,))
        else:
            state.hands[player].append(card)
    refresh(state)


def set_supply(
    state: PacketRowState, board: str, current: list[str], future: list[str] | None = None
) -> None:
    """Lay out exactly these cards (``None`` leaves a space empty) on a board."""
    b = BOARD[board]
    for card in (*current_row(state, b), *future_row(state, b)):
        if card != EMPTY:
            put_under_deck(state, card)
    slots, width = state.slots, K.FUTURE_SUPPLY
    state.current[b * slots : (b + 1) * slots] = [EMPTY] * slots
    state.future[b * width : (b + 1) * width] = [EMPTY] * width
    for i, label in enumerate(current):
        if label is not None:
            state.current[b * slots + i] = pull(state, label, board)
    for j, label in enumerate(future or []):
        if label is not None:
            state.future[b * width + j] = pull(state, label, board)
    refresh(state)


def stack_deck(state: PacketRowState, board: str, top: list[str]) -> None:
    """Put these cards on top of a board's deck, ``top[0]`` drawn first."""
    b = BOARD[board]
    cards = [pull(state, label, board) for label in top]
    state.decks[b] += bytes(reversed(cards))
    refresh(state)


def labels(ids: list[int]) -> list[str]:
    return sorted(C.LABEL[c] for c in ids if c != EMPTY)
