"""Fulfilling contracts as a sequence of small decisions (a mixin of the game state).

A fulfilment ("shipment") may combine several contracts, ships, captains, goods cards,
traders and gold nuggets.  Offering every combination at once would make huge action
lists, so it is decided step by step, every step naming a card *kind*:

1. ``contract:G:D:N:R`` starts the shipment (from any of the player's own decisions or
   his end-of-round window); more ``contract:...`` may join it; ``sail`` closes the list.
2. Each destination of the shipment, in the order GB FR NL SE ES DE, gets a ship:
   ``ship:D`` (an own ship of D) or ``captain:X`` (a captain and a ship of X).
3. The goods owed are summed per goods type over all contracts (so goods split freely
   between contracts and ships); each step adds one card: ``goods:G:N``,
   ``trade:G:N:T`` (that card with a trader, counting as T), ``gold1:G``, ``gold2:G``.
   A card is offered only while its (traded) type is still owed; the last may overshoot.

Every offered step keeps the whole shipment completable (:mod:`.feasibility`), so a
started fulfilment always ends in payment, and a step with a single possible choice is
taken automatically -- except ``sail`` while the player hides a starting contract that,
for all the others know, could still join (skipping it would tell them it cannot).
When nothing is owed the cards are discarded, the rewards paid and play returns to the
decision the fulfilment interrupted.  The shipment in progress
lives in the state's ``b_*`` attributes and is public (its cards lie on the table).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.games.packet_row import cards as C
from engine.games.packet_row.feasibility import goods_feasible, ships_feasible

CONTRACTS, SHIPS, LOAD = "contracts", "ships", "load"
BUILDER_PHASES = (CONTRACTS, SHIPS, LOAD)
EMPTY = -1
STARTING_KINDS = tuple({C.LABEL[c]: c for c in C.STARTING_IDS}.values())
"""One card of each starting contract: what an unrevealed one may be, for the others."""


class ShipmentSteps:
    """The fulfilment half of :class:`~engine.games.packet_row.state.PacketRowState`."""

    # Attributes provided by the game state.
    hands: list[list[int]]
    ships: list[bytes]
    start_contract: list[int]
    discards: list[int]
    money: list[int]
    supply: int
    phase: str
    resume: str
    b_contracts: list[int]
    b_groups: list[int]
    b_ships: list[list[int]]
    b_goods: list[list[int]]
    b_demand: list[int]
    _legal: list[str] | None
    _ready: dict[int, str]

    def _holdings(self, p: int) -> tuple[list[int], list[tuple[int, int]], int, int, int, int]:
        """Ships per destination, goods cards, traders, single and double nuggets, captains."""
        ships = [0] * C.ND
        for s in self.ships[p]:
            ships[C.DEST[s]] += 1
        goods: list[tuple[int, int]] = []
        traders = singles = doubles = captains = 0
        for c in self.hands[p]:
            kind = C.KIND[c]
            if kind == C.GOODS:
                goods.append((C.GOODS_OF[c], C.AMOUNT[c]))
            elif kind == C.TRADER:
                traders += 1
            elif kind == C.GOLD:
                if C.AMOUNT[c] == 1:
                    singles += 1
                else:
                    doubles += 1
            elif kind == C.CAPTAIN:
                captains += 1
        return ships, goods, traders, singles, doubles, captains

    def _contract_options(self, p: int) -> list[str]:
        """Contracts that can join the shipment (an empty one at a top-level decision)."""
        contracts = sorted(
            {C.LABEL[c]: c for c in self.hands[p] if C.KIND[c] == C.CONTRACT}.items(),
            key=lambda item: C.CONTRACT_ORDER[item[0]],
        )
        if not contracts or not self.ships[p]:
            return []
        can_join = self._can_join(p)
        return [label for label, card in contracts if can_join(card)]

    def _joinable(self, p: int, contracts: list[int]) -> bool:
        """Whether any one of ``contracts`` can join the shipment (or start one)."""
        if not self.ships[p]:
            return False
        can_join = self._can_join(p)
        return any(can_join(card) for card in contracts)

    def _can_join(self, p: int) -> Callable[[int], bool]:
        """A test of whether one contract card can join ``p``'s shipment (or start one),
        with ``p``'s holdings counted once for all the contracts it is asked about."""
        ships, goods, traders, singles, doubles, captains = self._holdings(p)
        destinations = sorted({C.DEST[c] for c in self.b_contracts})
        # Contracts share destinations and goods: each check is made once per value.
        ships_ok: dict[int, bool] = {}
        goods_ok: dict[tuple[int, int], bool] = {}

        def can_join(card: int) -> bool:
            dest = C.DEST[card]
            fits = ships_ok.get(dest)
            if fits is None:
                wanted = destinations if dest in destinations else [*destinations, dest]
                fits = ships_ok[dest] = ships_feasible(ships, captains, wanted)
            if not fits:
                return False
            need = (C.GOODS_OF[card], C.AMOUNT[card])
            fits = goods_ok.get(need)
            if fits is None:
                demand = list(self.b_demand)
                demand[need[0]] += need[1]
                fits = goods_ok[need] = goods_feasible(demand, goods, traders, singles, doubles)
            return fits

        return can_join

    def _hidden_may_join(self, p: int) -> bool:
        """Whether the others must reckon with ``p``'s unrevealed starting contract
        joining the shipment: he still hides it and his open cards could carry one."""
        return self.start_contract[p] != EMPTY and self._joinable(p, list(STARTING_KINDS))

    def _ready_contracts(self, p: int) -> list[str]:
        """The contracts ``p`` could start a fulfilment with, kept until his cards change
        (as one string, which a clone shares instead of copying)."""
        ready = self._ready.get(p)
        if ready is None:
            ready = self._ready[p] = " ".join(self._contract_options(p))
        return ready.split()

    def _builder_options(self, p: int) -> list[str]:
        if self.phase == CONTRACTS:
            return [*self._contract_options(p), C.SAIL]
        ships, goods, traders, singles, doubles, captains = self._holdings(p)
        if self.phase == SHIPS:
            dest, rest = self.b_groups[0], self.b_groups[1:]
            options = []
            if ships[dest]:
                ships[dest] -= 1
                if ships_feasible(ships, captains, rest):
                    options.append(C.SHIP_ACT[dest])
                ships[dest] += 1
            if captains:
                for other in range(C.ND):
                    if other != dest and ships[other]:
                        ships[other] -= 1
                        if ships_feasible(ships, captains - 1, rest):
                            options.append(C.CAPTAIN_ACT[other])
                        ships[other] += 1
            return options
        owed = self.b_demand
        options = []
        for kind in sorted(set(goods)):
            g, amount = kind
            others = list(goods)
            others.remove(kind)
            if owed[g]:
                left = list(owed)
                left[g] = max(0, left[g] - amount)
                if goods_feasible(left, others, traders, singles, doubles):
                    options.append(C.GOODS_ACT[kind])
            if traders:
                for t in range(C.NG):
                    if t != g and owed[t]:
                        left = list(owed)
                        left[t] = max(0, left[t] - amount)
                        if goods_feasible(left, others, traders - 1, singles, doubles):
                            options.append(C.TRADE_ACT[(g, amount, t)])
        for g in range(C.NG):
            if not owed[g]:
                continue
            for nuggets, have in ((1, singles), (2, doubles)):
                if have:
                    left = list(owed)
                    left[g] = max(0, left[g] - nuggets)
                    s1, s2 = (singles - 1, doubles) if nuggets == 1 else (singles, doubles - 1)
                    if goods_feasible(left, goods, traders, s1, s2):
                        options.append(C.GOLD_ACT[(nuggets, g)])
        return options

    def _take_from_hand(self, p: int, match: Callable[[int], bool]) -> int:
        hand = self.hands[p]
        card = next(c for c in hand if match(c))
        hand.remove(card)
        return card

    def _add_contract(self, p: int, label: str) -> None:
        if self.phase not in BUILDER_PHASES:
            self.resume = self.phase
            self.phase = CONTRACTS
        hidden = self.start_contract[p]
        # An identical open copy is used before the hidden starting contract.
        card = next(
            (c for c in self.hands[p] if C.LABEL[c] == label and c != hidden),
            hidden,
        )
        self.hands[p].remove(card)
        if card == hidden:
            self.start_contract[p] = EMPTY
        self.b_contracts.append(card)
        self.b_demand[C.GOODS_OF[card]] += C.AMOUNT[card]
        self._ready.pop(p, None)
        self._settle(p)

    def _step(self, p: int, info: tuple) -> None:
        """One fulfilment step after ``contract``: sail, a ship, or a card of goods."""
        verb = info[0]
        if verb == "sail":
            self.b_groups = sorted({C.DEST[c] for c in self.b_contracts})
            self.phase = SHIPS
        elif verb in ("ship", "captain"):
            dest = self.b_groups[0]
            ships = self.ships[p]
            at = next(i for i, s in enumerate(ships) if C.DEST[s] == info[1])
            ship = ships[at]
            self.ships[p] = ships[:at] + ships[at + 1 :]
            captain = EMPTY
            if verb == "captain":
                captain = self._take_from_hand(p, lambda c: C.KIND[c] == C.CAPTAIN)
            self.b_ships.append([dest, ship, captain])
            self.b_groups.pop(0)
            if not self.b_groups:
                self.phase = LOAD
        elif verb in ("goods", "trade"):
            g, amount = info[1], info[2]
            card = self._take_from_hand(
                p, lambda c: C.KIND[c] == C.GOODS and C.GOODS_OF[c] == g and C.AMOUNT[c] == amount
            )
            as_goods, trader = g, EMPTY
            if verb == "trade":
                as_goods = info[3]
                trader = self._take_from_hand(p, lambda c: C.KIND[c] == C.TRADER)
            self.b_goods.append([card, as_goods, trader])
            self.b_demand[as_goods] = max(0, self.b_demand[as_goods] - amount)
        else:  # gold
            nuggets, as_goods = info[1], info[2]
            card = self._take_from_hand(p, lambda c: C.KIND[c] == C.GOLD and C.AMOUNT[c] == nuggets)
            self.b_goods.append([card, as_goods, EMPTY])
            self.b_demand[as_goods] = max(0, self.b_demand[as_goods] - nuggets)

    def _settle(self, p: int) -> None:
        """Take single-choice steps automatically; pay the shipment when nothing is owed."""
        while True:
            if self.phase == LOAD and not any(self.b_demand):
                self._pay_shipment(p)
                return
            options = self._builder_options(p)
            if len(options) != 1 or (self.phase == CONTRACTS and self._hidden_may_join(p)):
                self._legal = options
                return
            self._step(p, C.ACTION_INFO[options[0]])

    def _pay_shipment(self, p: int) -> None:
        reward = sum(C.REWARD[c] for c in self.b_contracts)
        self.money[p] += reward
        self.supply -= reward
        discards = self.discards
        for c in self.b_contracts:
            discards.append(c)  # to its own board's pile
        for _d, ship, captain in self.b_ships:
            for c in (ship, captain):
                if c != EMPTY:
                    discards.append(c)  # to its own board's pile
        for card, _g, trader in self.b_goods:
            for c in (card, trader):
                if c != EMPTY:
                    discards.append(c)  # to its own board's pile
        self.b_contracts = []
        self.b_groups = []
        self.b_ships = []
        self.b_goods = []
        self.b_demand = [0] * C.NG
        self._ready.pop(p, None)
        self.phase = self.resume
        self._legal = None
