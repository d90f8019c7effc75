"""Batavia's rules as a :class:`~engine.core.GameState`.

Rulings (also in ``docs/games/batavia.md``; the rulebook wins where it is clear):

* Seat 0 is "the oldest player": the first auctioneer and the first starter player.
* Auction: the auctioneer's die roll turns over that many cards (added to any package
  carried over).  Bids go clockwise from the auctioneer's left, minimum bid 1, each higher
  than the last, no more than the bidder's notes; a pass is final for that auction; the
  auction ends when one bidder is left (or everybody passed: the package is carried over
  and the starter player does not change).  The winner pays the bid one note at a time to
  the other players starting at his left.  Note counts are public.
* Laying out is split into single-card decisions ``lay:XX`` ended by ``stop``; ``stop`` is
  legal once the player holds at least one company's strict majority (Case 1 or Case 2),
  and laying may only start when such a majority is reachable with the hand.
* Seals follow the laid-out cards: a seal belongs to the player with strictly the most
  laid-out cards of its company, otherwise it lies on the board.
* Movement: ``move:XX`` for a seal with a trading post ahead; with none ahead the player
  must take the Target Counter (``move:target``).  After the Target Counter is taken the
  remaining players of the round may lay out only if they can end with a seal that has a
  trading post ahead.
* A player without crates still takes the counter but places no crate.
* Exchange (``exchange``/``keep``) is offered only when the new counter's company was not
  held before; it hands in one counter of every company held.  The Target taker cannot.
* Pirates: after each move, while the laid-out cards number at least 21 (3 players) or 25
  (4-5 players), all laid-out cards of the largest company (all tied largest) are
  discarded; their seals return to the board.
* Empty stack: the discards are shuffled into a new stack (whose make-up, being the public
  discards, stays public); with both empty, what exists is drawn.  A round in which no
  card is drawn, won at auction or laid out ends the game.
* The quick-start variant ``open`` deals the counters exactly as the standard game but
  face up (the printed numbering of the quick-start layout is not in the text).
* Final scoring lays out every hand and re-assigns seals (no pirates, no moves), then:
  warehouse majorities (needs at least one crate; ties get the bracketed value), most notes
  5 (tie: 2 each), Target Counter 4, 2 per seal, plus exchanged gold.  Equal totals share
  the rank ("the win is split").
"""

from __future__ import annotations

import copy
from typing import Any

from engine.core import (
    Action,
    GameNotOver,
    GameState,
    IllegalAction,
    Observation,
    competition_ranking,
)
from engine.games.batavia import components as K
from engine.games.sampling import random_orders, shuffled
from engine.rng import Rng

NC = len(K.COMPANIES)
NCOM = len(K.COMMODITIES)
START = -1
TARGET = K.NUM_HEXES
EMPTY = -1

AUCTION, TURN, LAYING, MOVE, EXCHANGE, OVER = (
    "auction",
    "turn",
    "laying",
    "move",
    "exchange",
    "over",
)

LAY = tuple(f"lay:{c}" for c in K.COMPANIES)
MOVE_TO = tuple(f"move:{c}" for c in K.COMPANIES)
MOVE_TARGET = "move:target"
_MAX_NOTES = K.START_NOTES * 5
BIDS = tuple(f"bid:{k}" for k in range(_MAX_NOTES + 1))
COMPANY_INDEX = {c: i for i, c in enumerate(K.COMPANIES)}
_REDEAL_ATTEMPTS = 32  # rejection sampling for a determinized layer's hand, then constructive
_LEGAL_NOW = "; legal now:"
"""A refusal ending so is completed with the legal actions when it is shown to the player."""

PER_PLAYER_TABLES = ("hands", "known", "laid", "counters")
"""Tables with one count per (player, company), kept flat: ``table[player * NC + company]``.

Flat lists copy in one step, so a clone (search bots make many) is cheap; snapshots and
views still show one row per player."""


def action_vocabulary(num_players: int) -> list[str]:
    """Every action that can be legal at a table of ``num_players`` (stable order)."""
    bids = list(BIDS[1 : K.START_NOTES * num_players + 1])
    return ["pass", *bids, "draw", *LAY, "stop", *MOVE_TO, MOVE_TARGET, "exchange", "keep"]


def _by_company(counts: list[int]) -> dict[str, int]:
    return {c: counts[i] for i, c in enumerate(K.COMPANIES)}


def _rows(table: list[int], width: int) -> list[list[int]]:
    """A flat table as its rows."""
    return [table[i : i + width] for i in range(0, len(table), width)]


class BataviaState(GameState):
    game_name = "batavia"

    def __init__(self, seed: int, num_players: int, variant: str) -> None:
        n = num_players
        self.num_players = n
        self.variant = variant
        self.seed = seed
        self.rng = rng = Rng(seed)

        # Trading posts: five company stacks shuffled, then each block of five takes the
        # top counter of every stack, shuffled onto hexes 5k..5k+4.
        stacks = []
        for _company in range(NC):
            commodities = list(range(NCOM))
            rng.shuffle(commodities)
            stacks.append(commodities)
        self.hexes: list[int] = []
        for k in range(NCOM):
            block = [c * NCOM + stacks[c][k] for c in range(NC)]
            rng.shuffle(block)
            self.hexes.extend(block)
        self.open_upto = K.NUM_HEXES if variant == "open" else K.OPEN_HEXES_AT_START

        self.deck: list[int] = [c for c in range(NC) for _ in range(K.SHIP_CARDS_PER_COMPANY[c])]
        rng.shuffle(self.deck)
        self.discards = [0] * NC
        # After a reshuffle the stack's make-up is public (the discards were laid out face
        # up): these cards, less those turned over since, are the stack plus secret draws.
        self.restocked: list[int] | None = None
        # Per (player, company), flat (see PER_PLAYER_TABLES).
        self.hands = [0] * (n * NC)
        self.known = [0] * (n * NC)  # public lower bound of each hand
        self.laid = [0] * (n * NC)
        for p in range(n):
            for _ in range(K.START_CARDS):
                self.hands[p * NC + self.deck.pop()] += 1
        self.package = [0] * NC

        self.positions = [START] * n
        self.counters = [0] * (n * NC)  # trading posts held, per (player, company)
        self.exchanged = 0  # trading posts handed in (removed from the game)
        self.gold = [0] * n
        self.notes = [K.START_NOTES] * n
        self.crates = [K.START_CRATES] * n
        # The warehouses' squares, flat: ``squares[company * NCOM + commodity]`` = owner.
        self.squares = [EMPTY] * (NC * NCOM)
        self.target_holder: int | None = None
        self.final: list[dict[str, int]] | None = None

        self.round = 1
        self.auctioneer = 0
        self.starter = 0
        self.turns_taken = 0
        self.activity = False
        self.phase = AUCTION
        self.active = 0
        self.die = 0
        self.passed = [False] * n
        self.high_bid = 0
        self.high_bidder: int | None = None
        self._legal: list[str] | None = None
        self._start_auction()

    # ------------------------------------------------------------------ interface
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.active

    def apply(self, action: Action) -> None:
        self._accept_legal(action)
        p = self.active
        phase = self.phase
        if phase == AUCTION:
            self._bid_or_pass(p, action)
        elif action == "draw":
            self._draw_two(p)
        elif action.startswith("lay:"):
            self._lay(p, COMPANY_INDEX[action[4:]])
        elif action == "stop":
            self.phase = MOVE
        elif action == MOVE_TARGET:
            self.positions[p] = TARGET
            self.target_holder = p
            self._end_turn()
        elif action.startswith("move:"):
            self._move(p, COMPANY_INDEX[action[5:]])
        elif action == "exchange":
            self._exchange(p)
            self._end_turn()
        else:  # keep
            self._end_turn()

    def scores(self) -> list[int]:
        if self.final is None:
            raise GameNotOver("Batavia is scored when the round with the Target Counter ends")
        return [row["total"] for row in self.final]

    def ranking(self) -> list[int]:
        return competition_ranking(self.scores())

    # ------------------------------------------------------------------ views
    def _row(self, table: list[int], p: int) -> list[int]:
        """Player ``p``'s counts per company in a per-player table."""
        return table[p * NC : p * NC + NC]

    def _seal_holder(self, c: int) -> int | None:
        best, holder = 0, None
        for p, v in enumerate(self.laid[c::NC]):
            if v > best:
                best, holder = v, p
            elif v == best:
                holder = None
        return holder

    def _board_view(self) -> list[Any]:
        view: list[Any] = []
        for h, v in enumerate(self.hexes):
            if v == EMPTY:
                view.append(None)
            elif h >= self.open_upto:
                view.append("hidden")
            else:
                view.append([K.COMPANIES[v // NCOM], K.COMMODITIES[v % NCOM]])
        return view

    def public_view(self) -> Observation:
        n = self.num_players
        seals = [self._seal_holder(c) for c in range(NC)]
        players = []
        for p in range(n):
            players.append(
                {
                    "hand_size": sum(self._row(self.hands, p)),
                    "known_cards": _by_company(self._row(self.known, p)),
                    "laid": _by_company(self._row(self.laid, p)),
                    "seals": [K.COMPANIES[c] for c in range(NC) if seals[c] == p],
                    "position": self.positions[p],
                    "counters": _by_company(self._row(self.counters, p)),
                    "gold": self.gold[p],
                    "notes": self.notes[p],
                    "crates_left": self.crates[p],
                }
            )
        laid_total = sum(self.laid)
        squares = self.squares
        view: Observation = {
            "game": self.game_name,
            "variant": self.variant,
            "num_players": n,
            "round": self.round,
            "phase": self.phase,
            "current_player": self.current_player(),
            "auctioneer": self.auctioneer,
            "starter": self.starter,
            "die": self.die,
            "package": _by_company(self.package),
            "auction": {
                "high_bid": self.high_bid,
                "high_bidder": self.high_bidder,
                "passed": list(self.passed),
            }
            if self.phase == AUCTION
            else None,
            "deck_size": len(self.deck),
            "stack_from_discards": None if self.restocked is None else _by_company(self.restocked),
            "discards": _by_company(self.discards),
            "board": self._board_view(),
            "target": TARGET,
            "target_holder": self.target_holder,
            "players": players,
            "seals": {K.COMPANIES[c]: seals[c] for c in range(NC)},
            "warehouses": {
                K.COMMODITIES[m]: {
                    K.COMPANIES[c]: (
                        None if squares[c * NCOM + m] == EMPTY else squares[c * NCOM + m]
                    )
                    for c in range(NC)
                }
                for m in range(NCOM)
            },
            "laid_total": laid_total,
            "cannon": min(laid_total, K.CANNON_SCALE_TOP),
            "pirate_threshold": K.PIRATE_THRESHOLD[n],
            "final": copy.deepcopy(self.final),
        }
        return view

    def observation(self, player: int) -> Observation:
        self.check_seat(player)
        view = self.public_view()
        view["seat"] = player
        view["hand"] = _by_company(self._row(self.hands, player))
        return view

    def snapshot(self) -> dict[str, Any]:
        # ``restocked`` is public bookkeeping fixed by seed + actions; leaving it out keeps the
        # digests of logs written before it existed, so those logs still replay.  For the same
        # reason the flat tables are shown as the rows (one per player, one per company) that
        # the state once kept.
        skip = ("rng", "_legal", "restocked")
        data = {k: copy.deepcopy(v) for k, v in vars(self).items() if k not in skip}
        for name in PER_PLAYER_TABLES:
            data[name] = _rows(data[name], NC)
        data["squares"] = _rows(data["squares"], NCOM)
        data["rng"] = self.rng.state
        return data

    def component_counts(self) -> dict[str, int]:
        on_board = sum(1 for v in self.hexes if v != EMPTY)
        placed = sum(1 for v in self.squares if v != EMPTY)
        cards = (
            len(self.deck)
            + sum(self.discards)
            + sum(self.package)
            + sum(self.hands)
            + sum(self.laid)
        )
        return {
            "ship_cards": cards,
            "trading_posts": on_board + sum(self.counters) + self.exchanged,
            "promissory_notes": sum(self.notes),
            "crates": sum(self.crates) + placed,
        }

    def determinize(self, player: int, rng: Rng) -> BataviaState:
        self.check_seat(player)
        state = self.clone()
        state._redeal_unseen_cards(player, rng)
        # Face-down counters: whole blocks of five, one per company; which commodity of a
        # company lies in which hidden block, and where in its block, is unknown.
        hidden_blocks = range(state.open_upto, K.NUM_HEXES, K.BLOCK)
        if hidden_blocks:
            hexes = state.hexes
            per_company: list[list[int]] = [[] for _ in range(NC)]
            for b in hidden_blocks:
                for v in hexes[b : b + K.BLOCK]:
                    if v != EMPTY:
                        per_company[v // NCOM].append(v % NCOM)
            orders = random_orders(rng, [*map(len, per_company), *[K.BLOCK] * len(hidden_blocks)])
            drawn = [
                [commodities[i] for i in order]
                for commodities, order in zip(per_company, orders, strict=False)
            ]
            for i, b in enumerate(hidden_blocks):
                order = orders[NC + i]
                block = [c * NCOM + drawn[c][i] for c in range(NC)]
                hexes[b : b + K.BLOCK] = [block[k] for k in order]
        state.rng = Rng(rng.next_u64())  # future dice and shuffles are unknown too
        return state

    def _redeal_unseen_cards(self, player: int, rng: Rng) -> None:
        """The stack and every opponent's unknown cards form one pool, dealt anew.

        An opponent caught halfway through laying out began only because his hand could
        win a qualifying majority (that is public: starting was legal), so his new hand must
        allow it too, or the state would have no legal action.  Redeals that break this are
        rejected; after a few failures the needed cards are dealt to him first.
        """
        pool = list(self.deck)
        hidden_counts = [0] * self.num_players
        hands, known = self.hands, self.known
        for q in range(self.num_players):
            if q == player:
                continue
            for i in range(q * NC, q * NC + NC):
                hidden = hands[i] - known[i]
                if hidden:
                    pool.extend([i - q * NC] * hidden)
                    hidden_counts[q] += hidden
                hands[i] = known[i]
        base = list(hands)  # known cards of the others, the whole hand of ``player``
        layer = self.active if self.phase == LAYING and self.active != player else None
        for _attempt in range(_REDEAL_ATTEMPTS):
            pool = shuffled(pool, rng)
            self._deal_from(pool, base, hidden_counts)
            if layer is None or self._can_start_laying(layer):
                return
        # Rare: give the layer the cards one reachable majority needs, then deal the rest.
        if layer is None:  # pragma: no cover - the loop returns when there is no layer
            return
        available = [pool.count(c) for c in range(NC)]
        needs = {}
        for c in range(NC):
            i = layer * NC + c
            need = max(0, self._max_other(layer, c) + 1 - self.laid[i] - base[i])
            if (
                need <= min(hidden_counts[layer], available[c])
                and (self.target_holder is None or self._next_counter(layer, c) is not None)
                and self._stack_fits(available, c, need, len(self.deck))
            ):
                needs[c] = need
        company = rng.choice(sorted(needs))  # never empty: the true hand is one solution
        for _ in range(needs[company]):
            pool.remove(company)
        base[layer * NC + company] += needs[company]
        hidden_counts[layer] -= needs[company]
        pool = shuffled(pool, rng)
        self._deal_from(pool, base, hidden_counts)

    def _stack_fits(self, available: list[int], c: int, taken: int, size: int) -> bool:
        """Whether a stack of ``size`` fitting its public make-up remains after ``taken``
        cards of company ``c`` leave the pool of ``available`` cards."""
        if self.restocked is None:
            return True
        left = [available[k] - (taken if k == c else 0) for k in range(NC)]
        return sum(min(left[k], self.restocked[k]) for k in range(NC)) >= size

    def _deal_from(self, pool: list[int], base: list[int], counts: list[int]) -> None:
        """Hands = ``base`` + ``counts[q]`` cards of the shuffled ``pool``; rest = stack.

        A stack formed from the discards holds only cards of its public make-up, so it
        takes the first cards of the pool that fit that make-up; the hands get the rest.
        """
        if self.restocked is not None:
            room = list(self.restocked)
            stack: list[int] = []
            rest: list[int] = []
            size = len(pool) - sum(counts)
            for card in pool:
                if len(stack) < size and room[card] > 0:
                    room[card] -= 1
                    stack.append(card)
                else:
                    rest.append(card)
            pool = stack + rest  # never short: the true deal is one that fits
        hands = self.hands
        hands[:] = base
        end = len(pool)
        for q, count in enumerate(counts):
            offset = q * NC
            for card in pool[end - count : end]:
                hands[offset + card] += 1
            end -= count
        self.deck = pool[:end]

    # ------------------------------------------------------------------ legality
    def _max_other(self, p: int, c: int) -> int:
        column = self.laid[c::NC]
        column[p] = 0
        return max(column)

    def _next_counter(self, p: int, c: int) -> int | None:
        hexes = self.hexes
        for h in range(self.positions[p] + 1, K.NUM_HEXES):
            v = hexes[h]
            if v != EMPTY and v // NCOM == c:
                return h
        return None

    def _can_start_laying(self, p: int) -> bool:
        offset = p * NC
        hands, laid = self.hands, self.laid
        for c in range(NC):
            if laid[offset + c] + hands[offset + c] > self._max_other(p, c) and (
                self.target_holder is None or self._next_counter(p, c) is not None
            ):
                return True
        return False

    def _seals_with_counter_ahead(self, p: int) -> list[int]:
        return [
            c
            for c in range(NC)
            if self._seal_holder(c) == p and self._next_counter(p, c) is not None
        ]

    def _can_stop(self, p: int) -> bool:
        if self.target_holder is None:
            return any(self._seal_holder(c) == p for c in range(NC))
        return bool(self._seals_with_counter_ahead(p))

    def _bids_open(self, p: int) -> range:
        """The bids ``p`` may make now: above the current bid, within his notes."""
        return range(self.high_bid + 1, self.notes[p] + 1)

    def _compute_legal(self) -> list[str]:
        """The actions the refusals below accept, from the few each step can offer."""
        p, phase = self.active, self.phase
        if phase == AUCTION:
            bids = self._bids_open(p)
            return ["pass", *BIDS[bids.start : bids.stop]]
        if phase == TURN:
            can_start = self._can_start_laying(p)
            lays = [LAY[c] for c in range(NC) if self._lay_refusal(p, c, can_start) is None]
            return ["draw", *lays]  # drawing is always allowed at the start of a turn
        if phase == LAYING:
            actions = [LAY[c] for c in range(NC) if self._lay_refusal(p, c, True) is None]
            if self._stop_refusal(p) is None:
                actions.append("stop")
            return actions
        if phase == MOVE:
            ahead = self._seals_with_counter_ahead(p)
            actions = [MOVE_TO[c] for c in range(NC) if self._move_refusal(p, c, ahead) is None]
            if not ahead:
                actions.append(MOVE_TARGET)
            return actions
        if phase == EXCHANGE:
            return ["exchange", "keep"]
        return []

    def _refusal(self, action: str) -> str | None:
        """Why the player to move may not take ``action`` now, or ``None`` if he may.

        With the refusals it calls, the one statement of Batavia's legality rules: the legal
        list is what they accept (:meth:`_compute_legal` asks them about each candidate), and
        an illegal action's error is the reason they give, so the two cannot disagree.  Bot
        authors read these reasons in their match logs, so each is specific.
        """
        p, phase = self.active, self.phase
        if phase == OVER:
            return "the game is over"
        if action == "pass" or action.startswith("bid:"):
            if phase != AUCTION:
                return f"bids and passes are made only during the auction; it is the {phase} step"
            if action == "pass":
                return None
            amount = action[4:]
            if not (amount.isascii() and amount.isdigit()):
                return f"write a bid as 'bid:N' with N a whole number{_LEGAL_NOW}"
            k = int(amount)
            if action != f"bid:{k}":
                return f"write a bid as 'bid:{k}'"
            bids = self._bids_open(p)
            if k < bids.start:
                return f"a bid must be higher than the current bid of {self.high_bid}"
            if k not in bids:
                return f"a bid of {k} exceeds your {self.notes[p]} promissory notes"
            return None
        if phase == AUCTION:
            return f"the package is being auctioned: 'pass' or 'bid:N'{_LEGAL_NOW}"
        verb, _, company = action.partition(":")
        unknown = f"unknown company {company!r}; companies are {', '.join(K.COMPANIES)}"
        if verb == "lay":
            if company not in COMPANY_INDEX:
                return unknown
            if phase not in (TURN, LAYING):
                return f"cards cannot be laid out in the {phase} step"
            return self._lay_refusal(p, COMPANY_INDEX[company], self._can_start_laying(p))
        if action == "draw":
            if phase == TURN:
                return None
            return "you have begun laying out cards this turn and cannot draw now"
        if action == "stop":
            if phase != LAYING:
                return f"'stop' ends laying out cards; it is the {phase} step"
            return self._stop_refusal(p)
        if verb == "move":
            if phase != MOVE:
                return f"the merchant moves after laying out cards; it is the {phase} step"
            ahead = self._seals_with_counter_ahead(p)
            if action == MOVE_TARGET:
                if ahead:
                    return "one of your seals has a trading post ahead: you must move there"
                return None
            if company not in COMPANY_INDEX:
                return unknown
            return self._move_refusal(p, COMPANY_INDEX[company], ahead)
        if action in ("exchange", "keep"):
            if phase == EXCHANGE:
                return None
            return (
                "exchange is offered only right after taking a counter of a company "
                "you did not hold"
            )
        return f"{action!r} is not a Batavia action{_LEGAL_NOW}"

    def _lay_refusal(self, p: int, c: int, can_start: bool) -> str | None:
        """Laying out a card of company ``c`` in the turn or laying step; ``can_start`` is
        :meth:`_can_start_laying` (asked once per decision, not once per company)."""
        if not self.hands[p * NC + c]:
            return f"you hold no {K.COMPANIES[c]} ship cards"
        if self.phase == LAYING or can_start:
            return None
        if self.target_holder is not None:
            return (
                "the Target Counter is taken: you may lay out only if you can win a "
                "seal with a trading post ahead; draw two cards instead"
            )
        return "you cannot reach a majority in any company with your hand; draw instead"

    def _stop_refusal(self, p: int) -> str | None:
        if self._can_stop(p):
            return None
        if self.target_holder is not None:
            return "the Target Counter is taken: hold a seal with a trading post ahead first"
        return "you hold no company's majority yet: lay out more cards"

    def _move_refusal(self, p: int, c: int, ahead: list[int]) -> str | None:
        """Moving to company ``c``'s next trading post; ``ahead`` is
        :meth:`_seals_with_counter_ahead` (the Target Counter is taken only without one)."""
        if c in ahead:
            return None
        if self._seal_holder(c) != p:
            return f"you do not hold the {K.COMPANIES[c]} seal"
        return f"there is no {K.COMPANIES[c]} trading post ahead of your merchant"

    def _why_illegal(self, action: object) -> str:
        """The refusal of an action not in the legal list, the legal actions named if useful."""
        legal = self._legal or []
        shown = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
        if self.phase == OVER:
            return "the game is over"
        if not isinstance(action, str):
            return f"Batavia actions are strings, not {type(action).__name__}; legal now: {shown}"
        reason = self._refusal(action) or f"{action!r} is not legal now{_LEGAL_NOW}"
        if reason.endswith(_LEGAL_NOW):
            reason = f"{reason} {shown}"
        return reason

    # ------------------------------------------------------------------ auction
    def _draw_card(self) -> int | None:
        if not self.deck:
            if not any(self.discards):
                return None
            self.deck = [c for c in range(NC) for _ in range(self.discards[c])]
            self.restocked = list(self.discards)
            self.discards = [0] * NC
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def _start_auction(self) -> None:
        self.phase = AUCTION
        self.activity = False
        self.die = self.rng.randint(1, K.DIE_SIDES)
        for _ in range(self.die):
            card = self._draw_card()
            if card is None:
                break
            self.package[card] += 1
            if self.restocked is not None:
                self.restocked[card] -= 1  # turned over face up: no longer unseen
        n = self.num_players
        self.passed = [False] * n
        self.high_bid = 0
        self.high_bidder = None
        self.active = (self.auctioneer + 1) % n

    def _bid_or_pass(self, p: int, action: str) -> None:
        n = self.num_players
        if action == "pass":
            self.passed[p] = True
        else:
            self.high_bid = int(action[4:])
            self.high_bidder = p
        if all(self.passed):
            self._start_turns()  # package carried over, starter unchanged
            return
        nxt = (p + 1) % n
        while self.passed[nxt]:
            nxt = (nxt + 1) % n
        if nxt == self.high_bidder:
            self._award_package(nxt)
        else:
            self.active = nxt

    def _award_package(self, winner: int) -> None:
        n = self.num_players
        bid = self.high_bid
        self.notes[winner] -= bid
        others = [(winner + i) % n for i in range(1, n)]
        for i in range(bid):
            self.notes[others[i % len(others)]] += 1
        offset = winner * NC
        for c in range(NC):
            self.hands[offset + c] += self.package[c]
            self.known[offset + c] += self.package[c]
            if self.package[c]:
                self.activity = True
        self.package = [0] * NC
        self.starter = winner
        self._start_turns()

    # ------------------------------------------------------------------ turns
    def _start_turns(self) -> None:
        self.turns_taken = 0
        self.phase = TURN
        self.active = self.starter

    def _draw_two(self, p: int) -> None:
        for _ in range(2):
            card = self._draw_card()
            if card is None:
                break
            self.hands[p * NC + card] += 1
            self.activity = True
        self._end_turn()

    def _lay(self, p: int, c: int) -> None:
        i = p * NC + c
        self.phase = LAYING
        self.hands[i] -= 1
        self.laid[i] += 1
        if self.known[i]:
            self.known[i] -= 1
        self.activity = True

    def _move(self, p: int, c: int) -> None:
        h = self._next_counter(p, c)
        if h is None:  # the legal list offers only seals with a trading post ahead
            raise IllegalAction(f"there is no {K.COMPANIES[c]} trading post ahead")
        commodity = self.hexes[h] % NCOM
        self.hexes[h] = EMPTY
        self.positions[p] = h
        i = p * NC + c
        is_new_company = self.counters[i] == 0
        self.counters[i] += 1
        if self.crates[p]:
            self.crates[p] -= 1
            self.squares[c * NCOM + commodity] = p
        if self.open_upto < K.NUM_HEXES and h >= self.open_upto - K.BLOCK:
            self.open_upto += K.BLOCK
        if is_new_company:
            self.phase = EXCHANGE
        else:
            self._end_turn()

    def _exchange(self, p: int) -> None:
        held = [i for i in range(p * NC, p * NC + NC) if self.counters[i]]
        for i in held:
            self.counters[i] -= 1
        self.exchanged += len(held)
        self.gold[p] += K.EXCHANGE_GOLD[len(held)]

    def _pirates(self) -> None:
        threshold = K.PIRATE_THRESHOLD[self.num_players]
        laid = self.laid
        while sum(laid) >= threshold:
            totals = [sum(laid[c::NC]) for c in range(NC)]
            largest = max(totals)
            for c in range(NC):
                if totals[c] == largest:
                    for i in range(c, len(laid), NC):
                        self.discards[c] += laid[i]
                        laid[i] = 0

    def _end_turn(self) -> None:
        self._pirates()
        self.turns_taken += 1
        if self.turns_taken < self.num_players:
            self.phase = TURN
            self.active = (self.starter + self.turns_taken) % self.num_players
            return
        if self.target_holder is not None or not self.activity:
            self._score()
            return
        self.round += 1
        self.auctioneer = self.starter
        self._start_auction()

    # ------------------------------------------------------------------ scoring
    def _score(self) -> None:
        n = self.num_players
        for i in range(n * NC):
            self.laid[i] += self.hands[i]
            self.hands[i] = 0
            self.known[i] = 0
        rows = [
            {"exchanges": self.gold[p], "warehouses": 0, "notes": 0, "target": 0, "seals": 0}
            for p in range(n)
        ]
        for m in range(NCOM):
            crates = [0] * n
            for c in range(NC):
                owner = self.squares[c * NCOM + m]
                if owner != EMPTY:
                    crates[owner] += 1
            most = max(crates)
            if most == 0:
                continue
            leaders = [p for p in range(n) if crates[p] == most]
            sole, shared = K.WAREHOUSE_VALUES[m]
            for p in leaders:
                rows[p]["warehouses"] += sole if len(leaders) == 1 else shared
        most_notes = max(self.notes)
        note_leaders = [p for p in range(n) if self.notes[p] == most_notes]
        for p in note_leaders:
            rows[p]["notes"] = K.MOST_NOTES_GOLD[0 if len(note_leaders) == 1 else 1]
        if self.target_holder is not None:
            rows[self.target_holder]["target"] = K.TARGET_GOLD
        for c in range(NC):
            holder = self._seal_holder(c)
            if holder is not None:
                rows[holder]["seals"] += K.SEAL_GOLD
        for row in rows:
            row["total"] = sum(row.values())
        self.final = rows
        self.phase = OVER


def max_decisions(num_players: int) -> int:
    """The most decisions a game at ``num_players`` can take (docs/games/batavia.md).

    Rounds: a round with a move takes a trading post or the Target Counter (which ends the
    game), so at most ``NUM_HEXES + 1`` rounds have one. Any other round that does not end
    the game moves at least one card from the stack, the discards or the package into a hand;
    cards go back to that pool only through pirates, which strike only after a move, so at most
    ``SHIP_CARDS`` such rounds fall between two moves. A round: an auction of at most one pass
    per player and strictly rising bids up to all notes in play, then one turn per player of at
    most four decisions besides laying out (draw or the first card, ``stop``, the move, the
    exchange). Every card laid out entered a hand first: the deal, two per drawing turn, at
    most ``DIE_SIDES`` won per auction.
    """
    n = num_players
    cards = sum(K.SHIP_CARDS_PER_COMPANY)
    moves = K.NUM_HEXES + 1
    rounds = moves + (moves + 1) * cards + 1
    per_round = (n + K.START_NOTES * n) + 4 * n
    laid = K.START_CARDS * n + rounds * (2 * n + K.DIE_SIDES)
    return rounds * per_round + laid
