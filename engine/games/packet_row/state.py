"""Packet Row's rules as a :class:`~engine.core.GameState`.

Rulings (also in ``docs/games/packet_row.md``; the rulebook wins where it is clear):

* Seat 0 is the starting player and holds the harbour master token in round 1.
* The harbour master may only choose an area with at least one card in its current
  supply.  The other players who have not placed their piece this round are asked in
  clockwise order from his left; each takes one card (``take:AREA:SLOT``, or
  ``assist:AREA:SLOT`` with an assistant for a future-supply card) or passes.  Then the
  harbour master takes a card from the area or chooses another unchosen area with cards
  (``area:X``); with none left he may only take or ``pass``, which ends the round.
* When every other player has placed his piece, the harbour master must take a card from
  the current area or from an area not chosen this round (that area then counts as chosen
  and is refilled), or ``pass``; either ends the round.
* Purchases need enough money in front of the player; money cards are cashed by the
  player's own ``cash:V`` decisions first.
* "At any time" is offered at these points: at every decision of the player's own during
  a round (taking, passing, choosing an area) the player may also start a fulfilment or
  cash a money card; after the round's refill every player, in turn order from that
  round's harbour master, gets an end-of-round window (``done`` ends it) when he can fulfil
  a contract -- judged on open cards only: a player who still hides his starting contract
  gets it whenever his open cards could fulfil some starting contract, so the window
  itself tells nobody what he hides.  After the last round that window is the final
  fulfilment.
* Fulfilling is decided in small steps (``contract:...``, ``sail``, ``ship:D`` /
  ``captain:X``, ``goods:G:N`` / ``trade:G:N:T`` / ``gold1:G`` / ``gold2:G``), each of
  which keeps the shipment completable; see :mod:`.shipment`.  A goods card is offered
  only while its type is still owed, so the last card may overshoot (excess lost); a
  card that adds nothing cannot be thrown in.
* Refill of a chosen board: the current supply is discarded, the future supply moves
  there, cards are drawn from the deck until the current supply is full again (2|2|3|4
  cards for 2|3|4|5 players; a gap an assistant left in the future supply is made up
  too), then up to two new future-supply cards.  A board is "not properly refilled" when
  its deck cannot fill its current supply; a short future supply alone does not end the
  game.  There is no reshuffle, so a short board stays short; the game ends after the
  refill in which the number of short boards reaches 1 (2-3 players) or 2 (4-5 players).
* Cards are taken face up from open supplies and used cards are discarded face up, so
  every card in an opponent's hand is public knowledge except his starting contract
  while he still holds it.  The hidden information is that contract, the order of the
  decks, the unused starting contracts and, with two players, the six cards per deck put
  back in the box.  Nothing public may depend on that contract: who gets an end-of-round
  window (above), and whether the ``sail`` step is skipped (see :mod:`.shipment`).
* Final scoring: final fulfilment window, all money cards cashed, then VP cards, bankers
  (2-3 players: 2 VP each to the richest, all tied richest; 4-5 players: 3 VP each to the
  richest; with a tie for richest all tied score 3 and nobody scores second; otherwise
  1 VP each to the second richest, all tied), then 1 VP per full $10.  Most money breaks
  ties of VP; equal VP and money share the rank.
"""

from __future__ import annotations

import copy
from typing import Any

from engine.core import (
    Action,
    GameNotOver,
    GameState,
    Observation,
    competition_ranking,
)
from engine.games.packet_row import cards as C
from engine.games.packet_row import components as K
from engine.games.packet_row.shipment import (
    BUILDER_PHASES,
    CONTRACTS,
    EMPTY,
    STARTING_KINDS,
    ShipmentSteps,
)
from engine.games.sampling import random_orders
from engine.rng import Rng

AREA, OFFER, HARBOUR, WINDOW, OVER = "area", "offer", "harbour", "window", "over"
_LEGAL_NOW = "; legal now:"
"""A refusal ending so is completed with the legal actions when it is shown to the player."""
action_vocabulary = C.action_vocabulary


def _cash_refusal(value: int, held: set[int]) -> str | None:
    """Cashing a money card of ``value``, given the values of those the player holds."""
    return None if value in held else f"you hold no ${value} money card"


class PacketRowState(ShipmentSteps, GameState):
    game_name = "packet_row"

    def __init__(self, seed: int, num_players: int, variant: str) -> None:
        n = num_players
        self.num_players = n
        self.variant = variant
        self.seed = seed
        self.rng = rng = Rng(seed)
        self.slots = K.CURRENT_SUPPLY[n]

        # Per-board rows of fixed width are kept in one flat list each: a clone copies a flat
        # list in one step, and search bots clone a lot.  Snapshots still show the rows.
        # Each deck is an immutable string of card ids, top card last: a clone shares it and
        # a draw slices it.
        self.decks: list[bytes] = []
        self.boxed: list[int] = []  # two-player removals, unseen; each card's board is C.HOME
        self.current: list[int] = []  # ``slots`` a board, EMPTY where a card was taken
        self.future: list[int] = []  # FUTURE_SUPPLY a board
        for b in range(C.NB):
            deck = list(C.DECK_IDS[b])
            rng.shuffle(deck)
            removed = K.TWO_PLAYER_REMOVED_PER_DECK if n == 2 else 0
            self.boxed.extend([deck.pop() for _ in range(removed)])
            self.future.extend([deck.pop() for _ in range(K.FUTURE_SUPPLY)])
            self.current.extend([deck.pop() for _ in range(self.slots)])
            self.decks.append(bytes(deck))
        # Every discarded card goes to its own board's pile (``C.HOME``), so one list in
        # discard order holds the four piles.
        self.discards: list[int] = []
        self.short = [False] * C.NB

        starting = list(C.STARTING_IDS)
        rng.shuffle(starting)
        self.hands: list[list[int]] = [[starting.pop()] for _ in range(n)]
        self.start_contract = [hand[0] for hand in self.hands]  # EMPTY once revealed
        self.unused_starting = starting
        # The ships in front of each player, as a byte string of card ids (shared by clones).
        self.ships: list[bytes] = [b""] * n
        self.money = [K.START_MONEY] * n
        self.supply = K.BANK_MONEY - K.START_MONEY * n

        self.round = 0
        self.harbour_master = 0
        self.chosen = [False] * C.NB
        self.area = EMPTY
        self.asking: list[int] = []
        # Per player: board, 0 current / 1 future, slot; the board is EMPTY while unplaced.
        self.pieces = [EMPTY] * (3 * n)
        self.game_over = False
        self.window_queue: list[int] = []
        self.phase = AREA
        self.active = 0

        # The fulfilment in progress (public: its cards are laid out on the table).
        self.resume = AREA
        self.b_contracts: list[int] = []
        self.b_groups: list[int] = []  # destinations still waiting for a ship
        self.b_ships: list[list[int]] = []  # [destination, ship id, captain id or EMPTY]
        self.b_goods: list[list[int]] = []  # [card id, counted as goods type, trader or EMPTY]
        self.b_demand = [0] * C.NG

        self.final: list[dict[str, int]] | None = None
        self._legal: list[str] | None = None
        self._ready: dict[int, str] = {}
        self._start_round()

    # ------------------------------------------------------------------ interface
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.active

    def apply(self, action: Action) -> None:
        self._accept_legal(action)
        p = self.active
        info = C.ACTION_INFO[action]
        verb = info[0]
        if verb == "take":
            self._take(p, info[1], info[2], from_future=False)
        elif verb == "assist":
            self._take(p, info[1], info[2], from_future=True)
        elif verb == "pass":
            if self.phase == OFFER:
                self._ask_next()
            else:
                self._end_round()
        elif verb == "area":
            self._choose_area(info[1])
        elif verb == "cash":
            self._cash(p, info[1])
        elif verb == "done":
            self._next_window()
        elif verb == "contract":
            self._add_contract(p, info[1])
        else:  # a fulfilment step: sail, ship, captain, goods, trade, gold
            self._step(p, info)
            self._settle(p)

    def scores(self) -> list[int]:
        if self.final is None:
            raise GameNotOver("Packet Row is scored when a refill leaves too many boards short")
        return [row["total"] for row in self.final]

    def ranking(self) -> list[int]:
        """VP first; the most money breaks ties (equal VP and money share the rank)."""
        scores = self.scores()
        return competition_ranking([(scores[p], self.money[p]) for p in range(self.num_players)])

    def forget_derived(self) -> None:
        """Cached legal lists and each player's ready contracts."""
        super().forget_derived()
        self._ready = {}

    # ------------------------------------------------------------------ views
    def _visible_hand(self, q: int) -> list[str]:
        hidden = self.start_contract[q]
        return sorted(C.LABEL[c] for c in self.hands[q] if c != hidden)

    def _piece_view(self, q: int) -> dict[str, Any] | None:
        board, from_future, slot = self.pieces[3 * q : 3 * q + 3]
        if board == EMPTY:
            return None
        return {
            "board": K.BOARDS[board],
            "supply": "future" if from_future else "current",
            "slot": slot,
        }

    def public_view(self) -> Observation:
        n = self.num_players
        labels = C.LABEL

        def row(ids: list[int]) -> list[str | None]:
            return [None if c == EMPTY else labels[c] for c in ids]

        boards = {
            K.BOARDS[b]: {
                "current": row(self._supply_row(b, False)),
                "future": row(self._supply_row(b, True)),
                "deck_size": len(self.decks[b]),
                "discards": sorted(labels[c] for c in self.discards if C.HOME[c] == b),
                "chosen": self.chosen[b],
                "not_properly_refilled": self.short[b],
            }
            for b in range(C.NB)
        }
        players = [
            {
                "money": self.money[q],
                "ships": sorted(labels[c] for c in self.ships[q]),
                "hand_size": len(self.hands[q]),
                "known_hand": self._visible_hand(q),
                "hidden_cards": 0 if self.start_contract[q] == EMPTY else 1,
                "piece": self._piece_view(q),
            }
            for q in range(n)
        ]
        fulfilment = None
        if self.phase in BUILDER_PHASES:
            fulfilment = {
                "contracts": [labels[c] for c in self.b_contracts],
                "ships": [
                    {
                        "destination": K.DESTINATIONS[d],
                        "ship": labels[s],
                        "captain": captain != EMPTY,
                    }
                    for d, s, captain in self.b_ships
                ],
                "destinations_waiting": [K.DESTINATIONS[d] for d in self.b_groups],
                "goods": [
                    {"card": labels[c], "as": K.GOODS[g], "trader": t != EMPTY}
                    for c, g, t in self.b_goods
                ],
                "still_owed": {K.GOODS[g]: self.b_demand[g] for g in range(C.NG)},
                "reward": sum(C.REWARD[c] for c in self.b_contracts),
            }
        return {
            "game": self.game_name,
            "variant": self.variant,
            "num_players": n,
            "round": self.round,
            "phase": self.phase,
            "current_player": self.current_player(),
            "harbour_master": self.harbour_master,
            "area": None if self.area == EMPTY else K.BOARDS[self.area],
            "harbour_master_must_take": self.phase == HARBOUR and self._forced(),
            "boards": boards,
            "players": players,
            "supply_money": self.supply,
            "game_ending": self.game_over,
            "fulfilment": fulfilment,
            "final": copy.deepcopy(self.final),
        }

    def observation(self, player: int) -> Observation:
        self.check_seat(player)
        view = self.public_view()
        view["seat"] = player
        view["hand"] = sorted(C.LABEL[c] for c in self.hands[player])
        return view

    def snapshot(self) -> dict[str, Any]:
        skip = ("rng", "_legal", "_ready")
        data = {k: copy.deepcopy(v) for k, v in vars(self).items() if k not in skip}
        data["decks"] = [list(deck) for deck in self.decks]
        data["ships"] = [list(ships) for ships in self.ships]
        # The flat lists are shown as the per-board and per-player rows the state once kept,
        # so the digests of logs written then still match.
        data["boxed"] = [[c for c in self.boxed if C.HOME[c] == b] for b in range(C.NB)]
        data["current"] = [self._supply_row(b, False) for b in range(C.NB)]
        data["future"] = [self._supply_row(b, True) for b in range(C.NB)]
        data["discards"] = [[c for c in self.discards if C.HOME[c] == b] for b in range(C.NB)]
        data["pieces"] = [
            None if self.pieces[3 * q] == EMPTY else self.pieces[3 * q : 3 * q + 3]
            for q in range(self.num_players)
        ]
        data["rng"] = self.rng.state
        return data

    def component_counts(self) -> dict[str, int]:
        cards = (
            sum(map(len, self.decks))
            + len(self.boxed)
            + sum(1 for c in self.current if c != EMPTY)
            + sum(1 for c in self.future if c != EMPTY)
            + len(self.discards)
            + sum(map(len, self.hands))
            + sum(map(len, self.ships))
            + len(self.unused_starting)
            + len(self.b_contracts)
            + sum(2 if captain != EMPTY else 1 for _d, _s, captain in self.b_ships)
            + sum(2 if trader != EMPTY else 1 for _c, _g, trader in self.b_goods)
        )
        return {"cards": cards, "money": self.supply + sum(self.money)}

    def determinize(self, player: int, rng: Rng) -> PacketRowState:
        self.check_seat(player)
        state = self.clone()
        holders = [
            q for q in range(self.num_players) if q != player and state.start_contract[q] != EMPTY
        ]
        starting = state.unused_starting + [state.start_contract[q] for q in holders]
        # Each board's deck and box form one unseen pool; so do the starting contracts not
        # seen.  One draw of ``rng`` orders all five pools.
        boxes: list[list[int]] = [[] for _ in range(C.NB)]
        for c in state.boxed:
            boxes[C.HOME[c]].append(c)
        pools = [[*state.decks[b], *boxes[b]] for b in range(C.NB)]
        orders = random_orders(rng, [*map(len, pools), len(starting)])
        state.boxed = []
        for b in range(C.NB):
            pool = [pools[b][i] for i in orders[b]]
            size = len(state.decks[b])
            state.decks[b] = bytes(pool[:size])
            state.boxed.extend(pool[size:])
        pool = [starting[i] for i in orders[C.NB]]
        for q in holders:
            old, new = state.start_contract[q], pool.pop()
            hand = state.hands[q]
            hand[hand.index(old)] = new
            state.start_contract[q] = new
        state.unused_starting = pool
        state.rng = Rng(rng.next_u64())
        return state

    # ------------------------------------------------------------------ legality
    def _forced(self) -> bool:
        hm = self.harbour_master
        return all(self.pieces[3 * q] != EMPTY for q in range(self.num_players) if q != hm)

    def _choosable(self, b: int) -> bool:
        slots = self.slots
        return not self.chosen[b] and any(
            c != EMPTY for c in self.current[b * slots : b * slots + slots]
        )

    def _supply_row(self, b: int, from_future: bool) -> list[int]:
        """Board ``b``'s current (or future) supply, EMPTY where a card was taken."""
        width = K.FUTURE_SUPPLY if from_future else self.slots
        table = self.future if from_future else self.current
        return table[b * width : b * width + width]

    def _compute_legal(self) -> list[str]:
        """The actions the refusals below accept, asked about each candidate in the order
        the legal list has always had."""
        p, phase = self.active, self.phase
        if phase in BUILDER_PHASES:
            return self._builder_options(p)
        out: list[str] = []
        forced = phase == HARBOUR and self._forced()
        if phase in (OFFER, HARBOUR):
            assistant = self._has_assistant(p)
            boards = [self.area]
            if forced:  # other boards are refused wholesale unless forced: not asked then
                boards.extend(b for b in range(C.NB) if b != self.area)
            for b in boards:
                for slot in range(self.slots):
                    if self._take_refusal(p, b, slot, False, forced, assistant) is None:
                        out.append(C.TAKE_ACT[b][slot])
                for slot in range(K.FUTURE_SUPPLY if assistant else 0):  # refused without one
                    if self._take_refusal(p, b, slot, True, forced, assistant) is None:
                        out.append(C.ASSIST_ACT[b][slot])
        if phase == AREA or (phase == HARBOUR and not forced):  # refused when forced
            out.extend(C.AREA_ACT[b] for b in range(C.NB) if self._area_refusal(b, False) is None)
        if phase in (OFFER, HARBOUR) and self._pass_refusal() is None:
            out.append(C.PASS)
        if phase in (OFFER, AREA, HARBOUR, WINDOW):
            # "At any time": fulfilment starts, then cashing, at each of p's own decisions.
            ready = self._ready_contracts(p)
            if ready:
                out.extend(label for label in self._contract_labels(p) if label in ready)
            held = self._money_values(p)
            if held:
                out.extend(act for v, act in C.CASH_ACT.items() if _cash_refusal(v, held) is None)
        if phase == WINDOW:
            out.append(C.DONE)
        return out

    def _refusal(self, action: str) -> str | None:
        """Why the player to move may not take ``action`` now, or ``None`` if he may.

        With the refusals it calls, the one statement of Packet Row's legality rules: the
        legal list is what they accept (:meth:`_compute_legal` asks them about each
        candidate) and an illegal action's error is the reason they give, so the two cannot
        disagree.  Bot authors read these reasons in their match logs, so each is specific.
        """
        p, phase = self.active, self.phase
        if phase == OVER:
            return "the game is over"
        info = C.ACTION_INFO.get(action)
        if info is None:
            return f"{action!r} is not a Packet Row action{_LEGAL_NOW}"
        verb = info[0]
        in_builder = phase in BUILDER_PHASES
        if in_builder and verb in ("take", "assist", "area", "pass", "done", "cash"):
            return f"finish the fulfilment in progress first{_LEGAL_NOW}"
        if verb in ("take", "assist"):
            forced = phase == HARBOUR and self._forced()
            assistant = self._has_assistant(p)
            return self._take_refusal(p, info[1], info[2], verb == "assist", forced, assistant)
        if verb == "area":
            return self._area_refusal(info[1], phase == HARBOUR and self._forced())
        if verb == "pass":
            return self._pass_refusal()
        if verb == "done":
            return None if phase == WINDOW else f"'done' ends the end-of-round window{_LEGAL_NOW}"
        if verb == "cash":
            return _cash_refusal(info[1], self._money_values(p))
        if verb == "contract":
            if not any(C.LABEL[c] == action for c in self.hands[p]):
                return f"you hold no {action} card"
            ready = self._builder_options(p) if in_builder else self._ready_contracts(p)
            if action in ready:
                return None
            return "your ships and goods cannot complete that contract (with this shipment)"
        if verb == "sail" and phase != CONTRACTS:
            return "'sail' ends choosing contracts for a fulfilment in progress"
        if not in_builder:
            return "ships, captains and goods are chosen while fulfilling contracts"
        if action in self._builder_options(p):
            return None
        return f"that choice cannot complete this shipment{_LEGAL_NOW}"

    def _has_assistant(self, p: int) -> bool:
        return any(C.KIND[c] == C.ASSISTANT for c in self.hands[p])

    def _contract_labels(self, p: int) -> list[str]:
        """The kinds of contract ``p`` holds, in the order actions list them."""
        labels = {C.LABEL[c] for c in self.hands[p] if C.KIND[c] == C.CONTRACT}
        return sorted(labels, key=C.CONTRACT_ORDER.__getitem__)

    def _take_refusal(
        self, p: int, b: int, slot: int, from_future: bool, forced: bool, assistant: bool
    ) -> str | None:
        """Taking the card on ``slot`` of board ``b``'s current (or, with an assistant,
        future) supply; ``forced`` and ``assistant`` are :meth:`_forced` in the harbour
        step and whether ``p`` holds an assistant, asked once per decision."""
        phase = self.phase
        if phase not in (OFFER, HARBOUR):
            return f"no card can be taken in the {phase} step"
        width = K.FUTURE_SUPPLY if from_future else self.slots
        card = (
            (self.future if from_future else self.current)[b * width + slot]
            if slot < width
            else EMPTY
        )
        if card == EMPTY:
            return f"there is no card on that {K.BOARDS[b]} space"
        if b != self.area:
            if phase == OFFER:
                return f"you were asked about the {K.BOARDS[self.area]}, not the {K.BOARDS[b]}"
            if self.chosen[b]:
                return f"the {K.BOARDS[b]} was already chosen this round"
            if not forced:
                return (
                    "you may take from another area only when everybody else has placed "
                    "a piece; choose it first (area:X)"
                )
        if from_future and not assistant:
            return "taking from the future supply needs an assistant card"
        cost = C.COST[card]
        if cost > self.money[p]:
            has_money_cards = any(C.KIND[c] == C.MONEY for c in self.hands[p])
            hint = "; cash money cards first" if has_money_cards else ""
            return f"that card costs ${cost} and you have ${self.money[p]}{hint}"
        return None

    def _area_refusal(self, b: int, forced: bool) -> str | None:
        """The harbour master choosing board ``b`` (first, or after the offers); ``forced``
        is :meth:`_forced` in the harbour step."""
        phase = self.phase
        if phase not in (AREA, HARBOUR):
            return f"only the harbour master chooses an area, not in the {phase} step"
        if self.chosen[b]:
            return f"the {K.BOARDS[b]} was already chosen this round"
        if not self._choosable(b):
            return f"the {K.BOARDS[b]} has no card in its current supply"
        if forced:
            return "everybody else has a card: take one or pass"
        return None

    def _pass_refusal(self) -> str | None:
        """Declining a card when asked; for the harbour master, ending the round."""
        phase = self.phase
        if phase == OFFER:
            return None
        if phase == HARBOUR:
            if self._forced() or not any(self._choosable(b) for b in range(C.NB)):
                return None
            return "another area is left: take a card or choose that area"
        if phase == AREA:
            return f"the harbour master must choose an area first{_LEGAL_NOW}"
        if phase == WINDOW:
            return "'done' ends your end-of-round window; 'pass' is for taking cards"
        return f"there is nothing to pass in the {phase} step{_LEGAL_NOW}"

    def _money_values(self, p: int) -> set[int]:
        """The values of the money cards ``p`` holds."""
        return {C.VALUE[c] for c in self.hands[p] if C.KIND[c] == C.MONEY}

    def _why_illegal(self, action: object) -> str:
        """The refusal of an action not in the legal list, the legal actions named if useful."""
        legal = self._legal or []
        shown = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
        if self.phase == OVER:
            return "the game is over"
        if not isinstance(action, str):
            kind = type(action).__name__
            return f"Packet Row actions are strings, not {kind}; legal now: {shown}"
        reason = self._refusal(action) or f"that action cannot be taken now{_LEGAL_NOW}"
        if reason.endswith(_LEGAL_NOW):
            reason = f"{reason} {shown}"
        return reason

    # ------------------------------------------------------------------ rounds
    def _start_round(self) -> None:
        self.round += 1
        self.chosen = [False] * C.NB
        self.area = EMPTY
        self.pieces = [EMPTY] * (3 * self.num_players)
        self.phase = AREA
        self.active = self.harbour_master
        if not any(self._choosable(b) for b in range(C.NB)):
            self._finish_game()  # no area can be chosen: nothing can happen any more

    def _choose_area(self, b: int) -> None:
        n, hm = self.num_players, self.harbour_master
        self.chosen[b] = True
        self.area = b
        self.asking = [
            (hm + k) % n for k in range(1, n) if self.pieces[3 * ((hm + k) % n)] == EMPTY
        ]
        self._ask_next()

    def _ask_next(self) -> None:
        if self.asking:
            self.active = self.asking.pop(0)
            self.phase = OFFER
        else:
            self.active = self.harbour_master
            self.phase = HARBOUR

    def _take(self, p: int, b: int, slot: int, from_future: bool) -> None:
        width = K.FUTURE_SUPPLY if from_future else self.slots
        table = self.future if from_future else self.current
        card = table[b * width + slot]
        table[b * width + slot] = EMPTY
        if from_future:
            hand = self.hands[p]
            assistant = next(c for c in hand if C.KIND[c] == C.ASSISTANT)
            hand.remove(assistant)
            self.discards.append(assistant)  # to the guildhall, its board
        cost = C.COST[card]
        self.money[p] -= cost
        self.supply += cost
        if C.KIND[card] == C.SHIP:
            self.ships[p] += bytes((card,))
        else:
            self.hands[p].append(card)
        self._ready.pop(p, None)
        self.pieces[3 * p : 3 * p + 3] = [b, 1 if from_future else 0, slot]
        self.chosen[b] = True
        if p == self.harbour_master:
            self._end_round()
        else:
            self._ask_next()

    def _cash(self, p: int, value: int) -> None:
        hand = self.hands[p]
        card = next(c for c in hand if C.KIND[c] == C.MONEY and C.VALUE[c] == value)
        hand.remove(card)
        self.discards.append(card)  # to the bank, its board
        self.money[p] += value
        self.supply -= value
        self._ready.pop(p, None)

    def _refill(self, b: int) -> None:
        """Discard the current supply, move the future supply there, fill it from the deck,
        deal a new future supply.

        The rulebook gives the supply sizes (2|2|3|4 current cards) and ends the game when
        boards "cannot be refilled properly", so the deck fills the current supply to its
        full size, a gap an assistant left in the future supply included; the board is
        short only when its deck runs out first.  Its "one (four player game) or two (five
        player game) additional cards" are that fill when no assistant was used.
        """
        deck = self.decks[b]
        self.discards.extend(c for c in self._supply_row(b, False) if c != EMPTY)
        fresh = [c for c in self._supply_row(b, True) if c != EMPTY]
        drawn = min(self.slots - len(fresh), len(deck))
        fresh.extend(reversed(deck[len(deck) - drawn :]))  # drawn from the top, one by one
        deck = deck[: len(deck) - drawn]
        if len(fresh) < self.slots:
            self.short[b] = True
        slots = self.slots
        self.current[b * slots : b * slots + slots] = fresh + [EMPTY] * (slots - len(fresh))
        width = K.FUTURE_SUPPLY
        dealt = min(width, len(deck))
        future = list(reversed(deck[len(deck) - dealt :]))
        self.decks[b] = deck[: len(deck) - dealt]
        self.future[b * width : b * width + width] = future + [EMPTY] * (width - len(future))

    def _end_round(self) -> None:
        n = self.num_players
        for b in range(C.NB):
            if self.chosen[b]:
                self._refill(b)
        if sum(self.short) >= K.BOARDS_NOT_REFILLED_TO_END[n]:
            self.game_over = True
        hm = self.harbour_master
        self.harbour_master = (hm + 1) % n
        self.pieces = [EMPTY] * (3 * n)
        self.area = EMPTY
        self.window_queue = [(hm + k) % n for k in range(n)]
        self._next_window()

    def _window_due(self, p: int) -> bool:
        """Whether ``p`` gets an end-of-round window, judged on what every player sees.

        Everyone who can fulfil a contract must get the window, but opening it exactly
        then would tell the table whether an unrevealed starting contract can be
        fulfilled.  So it opens when one of his open contracts can be fulfilled, or when
        he still hides his starting contract and his open cards could fulfil some
        starting contract; then it may hold nothing but ``done``.
        """
        if not self.ships[p]:
            return False
        hidden = self.start_contract[p]
        if hidden == EMPTY:
            return bool(self._ready_contracts(p))
        candidates = [c for c in self.hands[p] if C.KIND[c] == C.CONTRACT and c != hidden]
        return self._joinable(p, [*candidates, *STARTING_KINDS])

    def _next_window(self) -> None:
        while self.window_queue:
            p = self.window_queue.pop(0)
            if self._window_due(p):
                self.phase = WINDOW
                self.active = p
                return
        if self.game_over:
            self._finish_game()
        else:
            self._start_round()

    # ------------------------------------------------------------------ scoring
    def _finish_game(self) -> None:
        n = self.num_players
        for p in range(n):
            for c in [c for c in self.hands[p] if C.KIND[c] == C.MONEY]:
                self._cash(p, C.VALUE[c])
        rows = []
        for p in range(n):
            hand = self.hands[p]
            rows.append(
                {
                    "vp_cards": sum(C.VP_OF[c] for c in hand),
                    "bankers": sum(1 for c in hand if C.KIND[c] == C.BANKER),
                    "banker_vp": 0,
                    "money_vp": self.money[p] // K.DOLLARS_PER_VP,
                    "money": self.money[p],
                }
            )
        richest = max(self.money)
        first = [p for p in range(n) if self.money[p] == richest]
        if n <= 3:
            for p in first:
                rows[p]["banker_vp"] = K.BANKER_VP_FEW * rows[p]["bankers"]
        else:
            top, second = K.BANKER_VP_MANY
            for p in first:
                rows[p]["banker_vp"] = top * rows[p]["bankers"]
            rest = [self.money[p] for p in range(n) if self.money[p] < richest]
            if len(first) == 1 and rest:
                runner_up = max(rest)
                for p in range(n):
                    if self.money[p] == runner_up:
                        rows[p]["banker_vp"] = second * rows[p]["bankers"]
        for row in rows:
            row["total"] = row["vp_cards"] + row["banker_vp"] + row["money_vp"]
        self.final = rows
        self.phase = OVER
        self.active = EMPTY


def max_decisions(num_players: int) -> int:
    """The most decisions a game at ``num_players`` can take (docs/games/packet_row.md).

    Every round chooses at least one area and refills it; a refill draws at least one card from
    that board's deck while it lasts, and the second refill after its deck ran out leaves the
    supply empty, so a board is refilled at most its deck size plus two times. A round: the
    harbour master's area choices and last take or pass (one more than the boards), each other
    player asked at most once per area chosen, and one end-of-round window (``done``) per
    player. Fulfilment steps (``sail`` aside, at most one per contract) and cashing each use
    up a card from a hand or the table, and cards get there only by the deal (the starting
    contract) or one take per player and round.
    """
    n = num_players
    rounds = sum(len(deck) + 2 for deck in C.DECK_IDS)
    per_round = (C.NB + 1) + (n - 1) * C.NB + n
    cards_held = n * (rounds + 1)
    return rounds * per_round + 2 * cards_held + n
