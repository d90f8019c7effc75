"""Borneo's rules as a :class:`~engine.core.GameState`.

Rulings (also in ``docs/games/borneo.md``; the rulebook wins where it is clear):

* Seat 0 is the first player.  Setup placement: the first round clockwise from seat 0,
  every further round (two, or three with four merchants) in reverse order.  A merchant
  only joins a company with a free slot (five per company).
* A turn is: (1) at most one mission, (2) stay / move / attack, (3) one shipment card on
  a harbor and any distribution, (4) draw two and discard down to six.  A mission step is
  only offered when the player can complete some mission; no other step is skipped.
* Missions are paid from the warehouse only, one item per decision (``pay:sID`` for a
  shipment card, ``pay:hN`` for a harbor card).  An item may be paid only if it still
  counts towards an unmet need and the mission stays completable afterwards; a double
  counts twice and any excess is lost (no change).  Wild harbors count as one spice of any
  type.  Missions of the same kind are interchangeable; "four/eight of the same type"
  names the type when chosen (``mission:four_same:pepper``).
* Blackbeard: one item per mission may be traded (``trade:...``) to count as one spice of
  any type; only an item whose own type is no longer needed may be traded, a double traded
  counts once, and the player then takes the pirate ship.  Not allowed to the ship's
  holder nor in the last mission round.  The holder loses 2 points at the end.
* Fights: the attacker must always keep in hand at least one card showing the attacked
  company's flag ("you can never play all the cards you have in hand that match the company
  in question"), so an attack needs two such cards; cards are played one at a time
  (``fight:ID``) and ``fight-done`` ends (ruling of 2026-11-26, played since 2026-11-28;
  before, any one card kept was enough).  The defender must keep one card of any kind (he
  needs one for his next shipment).  The defender (now the player to move) plays up to as
  many matching cards as the attacker (``defend:ID`` / ``defend-done``).  All four flags of
  a played card count. The defender adds one per merchant between the two.  Ties go to the
  attacker.  A beaten defender chooses ``retreat:stay`` (the attacker's old slot) or
  ``retreat:COMPANY`` (first free slot of another company); a winning defender may keep one
  of his played cards (``reward:ID`` or ``no-reward``).  Other fight cards are discarded.
* A step whose only legal action is to finish (``fight-done`` with no playable card left,
  ``defend-done`` with nothing to play, ``retreat:stay`` with no other free company) is
  taken automatically, as is a spice pick when one card is left or when every remaining
  pick goes to the same player.
* After each shipment card: monopoly first (visible flags: top rows of all cards plus the
  last card's bottom flag), then the card limit.  Several companies at the monopoly number:
  the company whose flag comes first on the last card (flag counts play no part).  Shared
  distribution ranks companies with at least one flag by flags, ties to the flag appearing
  first reading the cards in play order, left to right, top to bottom; picks go in rank
  waves over the companies, skipping a company with no merchant at that rank, and wrap
  round while spices remain.  Spices nobody can take (a monopoly company without
  merchants, no merchants in any flagged company) are discarded.
* The discard pile is face up (public); the deck and the harbor deck are face down.
* Drawing: the discards are reshuffled when the deck runs out; when the deck and the
  discards together hold fewer than the two cards needed, the game ends instead (drawing
  the single card first and finding none for the second would end it the same way, and
  hands are discarded at the end).  The
  game also ends when a completed harbor cannot be replaced.  Then the table and all hands
  are discarded and each player, from the left of the last to play, may complete one last
  mission.  Score: one point per warehouse card (shipment or harbor), mission values, -2
  for the pirate ship; ties go to the player with more missions, then stay shared.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from engine.core import (
    Action,
    BadSetup,
    GameNotOver,
    GameState,
    Observation,
    Refusal,
    competition_ranking,
    refusal_text,
)
from engine.games.borneo import components as K
from engine.rng import Rng

NC = len(K.COMPANIES)
NS = len(K.SPICES)
SLOTS = K.COMPANY_SLOTS
SPICE_INDEX = {s: i for i, s in enumerate(K.SPICES)}
COMPANY_INDEX = {c: i for i, c in enumerate(K.COMPANIES)}
CARD_IDS: tuple[int, ...] = tuple(card[0] for card in K.SHIPMENT_CARDS)
MAX_ID = max(CARD_IDS)

# Per-card tables indexed by card id (index 0 unused).
TOP: list[tuple[int, ...]] = [()] * (MAX_ID + 1)
BOTTOM: list[int] = [0] * (MAX_ID + 1)
SPICE: list[int] = [0] * (MAX_ID + 1)
AMOUNT: list[int] = [0] * (MAX_ID + 1)
FLAGS: list[tuple[int, ...]] = [()] * (MAX_ID + 1)  # all four flags per company (fights)
for _id, _top, _bottom, _spice, _amount in K.SHIPMENT_CARDS:
    TOP[_id] = tuple(K.COMPANY_LETTER[x] for x in _top)
    BOTTOM[_id] = K.COMPANY_LETTER[_bottom]
    SPICE[_id] = SPICE_INDEX[_spice]
    AMOUNT[_id] = _amount
    FLAGS[_id] = tuple((*TOP[_id], BOTTOM[_id]).count(c) for c in range(NC))

NH = len(K.HARBORS)
HARBOR_NAME = tuple(h[0] for h in K.HARBORS)
HARBOR_SPICE = tuple(-1 if h[1] == K.WILD else SPICE_INDEX[h[1]] for h in K.HARBORS)
MONOPOLY = tuple(h[2] for h in K.HARBORS)
CARD_LIMIT = tuple(h[3] for h in K.HARBORS)

MISSION_VP = {kind: vp for kind, vp, _five in K.MISSIONS}

# Phases.
PLACE, MISSION, PAY, COMPANY, FIGHT, DEFEND, RETREAT, REWARD = (
    "place",
    "mission",
    "pay",
    "company",
    "fight",
    "defend",
    "retreat",
    "reward",
)
SHIP, PICK, DISCARD, LAST_MISSION, OVER = "ship", "pick", "discard", "last-mission", "over"

VARIANTS = ("standard", "four-merchants", "blackbeard", "four-merchants+blackbeard")

# Action strings, built once (the legal lists reuse these objects).
PLACE_ACT = tuple(f"place:{c}" for c in K.COMPANIES)
NO_MISSION = "no-mission"
MISSION_ACT: list[tuple[str, str, int]] = []  # (action, kind, spice or -1 for "of each")
for _kind, (_k, _same) in K.MISSION_NEEDS.items():
    if _same:
        MISSION_ACT.extend((f"mission:{_kind}:{s}", _kind, i) for i, s in enumerate(K.SPICES))
    else:
        MISSION_ACT.append((f"mission:{_kind}", _kind, -1))
MISSION_LOOKUP = {a: (kind, s) for a, kind, s in MISSION_ACT}
PAY_CARD = tuple(f"pay:s{i}" for i in range(MAX_ID + 1))
PAY_HARBOR = tuple(f"pay:h{h}" for h in range(NH))
TRADE_CARD = tuple(f"trade:s{i}" for i in range(MAX_ID + 1))
TRADE_HARBOR = tuple(f"trade:h{h}" for h in range(NH))
STAY = "stay"
MOVE_ACT = tuple(
    tuple(
        tuple(f"move:{K.COMPANIES[c]}:{r + 1}:{K.COMPANIES[t]}" for t in range(NC))
        for r in range(SLOTS)
    )
    for c in range(NC)
)
ATTACK_ACT = tuple(
    tuple(
        tuple(f"attack:{K.COMPANIES[c]}:{r + 1}:{d + 1}" for d in range(SLOTS))
        for r in range(SLOTS)
    )
    for c in range(NC)
)
FIGHT_ACT = tuple(f"fight:{i}" for i in range(MAX_ID + 1))
FIGHT_DONE = "fight-done"
DEFEND_ACT = tuple(f"defend:{i}" for i in range(MAX_ID + 1))
DEFEND_DONE = "defend-done"
RETREAT_STAY = "retreat:stay"
RETREAT_ACT = tuple(f"retreat:{c}" for c in K.COMPANIES)
REWARD_ACT = tuple(f"reward:{i}" for i in range(MAX_ID + 1))
NO_REWARD = "no-reward"
SHIP_ACT = tuple(
    tuple(f"ship:{i}:{slot}" for slot in range(K.OPEN_HARBORS)) for i in range(MAX_ID + 1)
)
TAKE_ACT = tuple(f"take:{i}" for i in range(MAX_ID + 1))
DISCARD_ACT = tuple(f"discard:{i}" for i in range(MAX_ID + 1))


Group = tuple[str, ...]
Verdict = tuple[Group, Refusal | None]
"""Actions sharing one verdict in :meth:`BorneoState._options`: ``None`` means legal."""

ALL_TRADES: Group = tuple(TRADE_CARD[i] for i in CARD_IDS) + TRADE_HARBOR
ALL_PAYMENTS: Group = tuple(PAY_CARD[i] for i in CARD_IDS) + PAY_HARBOR + ALL_TRADES
FROM_RANK: tuple[tuple[Group, ...], ...] = tuple(
    tuple(
        tuple(MOVE_ACT[c][r][t] for t in range(NC) if t != c)
        + ATTACK_ACT[c][r]  # those at or below the attacker's rank too, refused with a reason
        for r in range(SLOTS)
    )
    for c in range(NC)
)
FROM_COMPANY: tuple[Group, ...] = tuple(
    tuple(a for group in FROM_RANK[c] for a in group) for c in range(NC)
)
ALL_MISSIONS: Group = tuple(a for a, _kind, _spice in MISSION_ACT)
ALL_FIGHT: Group = tuple(FIGHT_ACT[i] for i in CARD_IDS)
ALL_DEFEND: Group = tuple(DEFEND_ACT[i] for i in CARD_IDS)
ALL_REWARDS: Group = tuple(REWARD_ACT[i] for i in CARD_IDS)
SHIP_TO: tuple[Group, ...] = tuple(
    tuple(SHIP_ACT[i][s] for i in CARD_IDS) for s in range(K.OPEN_HARBORS)
)
ALL_SHIPS: Group = tuple(a for group in SHIP_TO for a in group)
ALL_TAKES: Group = tuple(TAKE_ACT[i] for i in CARD_IDS)
ALL_DISCARDS: Group = tuple(DISCARD_ACT[i] for i in CARD_IDS)

# Refusal templates (engine.core.Refusal): formatted only when an illegal action is reported.
COMPANY_FULL = "that company has no free slot (five merchants per company)"
NO_PIRATE_TRADE = (
    "you may not trade with the pirates now (holder of the ship, last round, "
    "or not the Blackbeard variant)"
)
ONE_TRADE = "only one spice per mission may be traded with the pirates"
CANNOT_USE_ITEM = (
    "that item is not in your warehouse, is not needed, or would leave the mission unpayable"
)
NO_FREE_SLOT_IN = "{} has no free slot (five merchants per company)"
OWN_MERCHANT = "{} rank {} is your own merchant"
DEFENDER_ABOVE = "the defender must be above your merchant: a rank from 1 to {}"
NO_FLAG_IN_HAND = "no card in your hand shows a {} flag"
ATTACK_NEEDS_TWO = (
    "you need two cards showing a {0} flag to attack: you play at least one and must "
    "keep one showing a {0} flag"
)
KEEP_MATCHING_CARD = "you must keep one showing a {} flag in hand: this is your last one"
KEEP_ONE_CARD = "you must keep at least one card in hand"
DEFENDER_LIMIT = "the defender may play no more cards than the attacker"
CARD_WITHOUT_FLAG = "card {} shows no {} flag"
PLAY_ONE_CARD = "the attacker must play at least one card"
RETREAT_ELSEWHERE = "retreat to a company other than {}, or stay (retreat:stay)"
REWARD_FROM_DEFENCE = "the reward is one of the cards you played in defence"
NO_HARBOR_AT = "harbor slot {} has no harbor now"
TAKE_FROM_HARBOR = "take a shipment card lying at the harbor being distributed"
DISCARD_FROM_HAND = "discard a card from your hand"

STEP_ACTIONS = {
    PLACE: "place",
    MISSION: "mission",
    LAST_MISSION: "mission",
    PAY: "pay",
    COMPANY: "stay/move/attack",
    FIGHT: "fight",
    DEFEND: "defend",
    RETREAT: "retreat",
    REWARD: "reward",
    SHIP: "ship",
    PICK: "take",
    DISCARD: "discard",
}
"""The action each step asks for, named when an action of another step is sent."""


def action_vocabulary(num_players: int) -> list[str]:
    """Every action that can be legal at a table of ``num_players`` (stable order)."""
    ids = CARD_IDS
    actions: list[str] = [*PLACE_ACT, NO_MISSION, *(a for a, _k, _s in MISSION_ACT)]
    actions += [PAY_CARD[i] for i in ids] + list(PAY_HARBOR)
    actions += [TRADE_CARD[i] for i in ids] + [TRADE_HARBOR[h] for h in range(NH)]
    actions.append(STAY)
    for c in range(NC):
        for r in range(SLOTS):
            actions += [MOVE_ACT[c][r][t] for t in range(NC) if t != c]
    for c in range(NC):
        for r in range(SLOTS):
            actions += [ATTACK_ACT[c][r][d] for d in range(r)]
    actions += [FIGHT_ACT[i] for i in ids] + [FIGHT_DONE]
    actions += [DEFEND_ACT[i] for i in ids] + [DEFEND_DONE]
    actions += [RETREAT_STAY, *RETREAT_ACT]
    actions += [REWARD_ACT[i] for i in ids] + [NO_REWARD]
    actions += [SHIP_ACT[i][s] for i in ids for s in range(K.OPEN_HARBORS)]
    actions += [TAKE_ACT[i] for i in ids]
    actions += [DISCARD_ACT[i] for i in ids]
    return actions


VOCABULARY = frozenset(action_vocabulary(3))  # the same at every table size


# ---------------------------------------------------------------------- pure rule helpers
def visible_flags(pile: Sequence[int]) -> list[int]:
    """Companies of the flags showing at a harbor, in reading order.

    Every card shows its top row; only the last card still shows its bottom flag.
    """
    flags: list[int] = []
    for card in pile:
        flags.extend(TOP[card])
    if pile:
        flags.append(BOTTOM[pile[-1]])
    return flags


def flag_counts(pile: Sequence[int]) -> list[int]:
    counts = [0] * NC
    for c in visible_flags(pile):
        counts[c] += 1
    return counts


def monopoly_company(pile: Sequence[int], threshold: int) -> int | None:
    """The company with a monopoly at a harbor whose monopoly number is ``threshold``.

    When several companies reach the number with the same card, the rulebook breaks the
    tie by the flag that comes first on that last card alone, whatever the flag counts.
    Each of them gained flags from that card (none was at the number before it), so each
    shows a flag on it.
    """
    if not pile:
        return None
    counts = flag_counts(pile)
    reached = [c for c in range(NC) if counts[c] >= threshold]
    if not reached:
        return None
    last = pile[-1]
    order = (*TOP[last], BOTTOM[last])
    return min(reached, key=lambda c: order.index(c) if c in order else len(order))


def shared_ranking(pile: Sequence[int]) -> list[int]:
    """Companies with at least one visible flag, most flags first, ties by first flag."""
    flags = visible_flags(pile)
    counts = [0] * NC
    first = [len(flags)] * NC
    for pos, c in enumerate(flags):
        counts[c] += 1
        if first[c] == len(flags):
            first[c] = pos
    ranked = [c for c in range(NC) if counts[c]]
    ranked.sort(key=lambda c: (-counts[c], first[c]))
    return ranked


def monopoly_order(columns: Sequence[Sequence[int]], company: int, spices: int) -> list[int]:
    """Seats picking at a monopoly: the company's ranks in order, round again."""
    column = columns[company]
    if not column:
        return []
    return [column[i % len(column)] for i in range(spices)]


def shared_order(columns: Sequence[Sequence[int]], ranked: Sequence[int], spices: int) -> list[int]:
    """Seats picking at a shared distribution: rank waves over the ranked companies."""
    wave = [columns[c][r] for r in range(SLOTS) for c in ranked if len(columns[c]) > r]
    if not wave:
        return []
    return [wave[i % len(wave)] for i in range(spices)]


def mission_need(kind: str, spice: int) -> list[int]:
    k, same = K.MISSION_NEEDS[kind]
    if same:
        need = [0] * NS
        need[spice] = k
        return need
    return [k] * NS


def feasible(
    units: Sequence[int],
    wilds: int,
    smallest: Sequence[int],
    need: Sequence[int],
    wild_paid: int,
    trade_ok: bool,
) -> bool:
    """Whether a warehouse supply can still cover ``need``.

    ``units`` are spices per type (doubles count twice), ``wilds`` the wild harbor
    cards, ``smallest`` the smallest item per type (0 = none), ``wild_paid`` the
    flexible spices already paid.  One pirate trade adds one flexible spice, made with
    an item whose own type is covered without it.
    """
    deficit = -wilds - wild_paid
    for s in range(NS):
        if need[s] > units[s]:
            deficit += need[s] - units[s]
    if deficit <= 0:
        return True
    if deficit == 1 and trade_ok:
        return any(smallest[s] and units[s] - smallest[s] >= need[s] for s in range(NS))
    return False


class BorneoState(GameState):
    game_name = "borneo"

    # Every attribute, declared: :meth:`GameState.clone` copies each by its declared type.
    seed: int
    blackbeard: bool
    merchants_each: int
    deck: list[int]
    discards: list[int]
    hands: list[list[int]]
    harbors_out: list[int]
    harbor_deck: list[int]
    open_harbors: list[int]
    piles: list[list[int]]
    spent_harbors: list[int]
    missions_board: list[int]
    missions_out: list[int]
    missions_done: list[list[int]]
    ware_cards: list[list[int]]
    ware_harbors: list[list[int]]
    columns: list[list[int]]
    ship_holder: int | None
    place_order: list[int]
    place_pos: int
    turn_player: int
    active: int
    phase: str
    pay_mission: int
    pay_need: list[int]
    pay_wild: int
    pay_traded: bool
    pay_cards: list[int]
    pay_harbors: list[int]
    fight_company: int
    att_rank: int
    def_rank: int
    defender: int
    att_cards: list[int]
    def_cards: list[int]
    fight_winner: str | None
    dist_slot: int
    dist_kind: str | None
    dist_company: int
    pick_order: list[int]
    pick_pos: int
    last_player: int
    last_queue: list[int]
    last_pos: int
    final: list[dict[str, int]] | None
    _legal: list[str] | None

    def __init__(self, seed: int, num_players: int, variant: str) -> None:
        n = num_players
        if variant not in VARIANTS:
            raise BadSetup(
                f"borneo has no variant {variant!r}; choose one of {', '.join(VARIANTS)}"
            )
        four = variant.startswith("four-merchants")
        if four and n != 3:
            raise BadSetup(f"the four-merchant variant is for 3 players, not {n}")
        if not 3 <= n <= 5:
            raise BadSetup(f"borneo is for 3-5 players, not {n}")
        self.num_players = n
        self.variant = variant
        self.seed = seed
        self.blackbeard = variant.endswith("blackbeard")
        self.merchants_each = K.MERCHANTS_FOUR_MERCHANT_VARIANT if four else K.MERCHANTS_PER_PLAYER
        self.rng = rng = Rng(seed)

        self.deck: list[int] = list(CARD_IDS)
        rng.shuffle(self.deck)
        self.discards: list[int] = []
        self.hands: list[list[int]] = [
            [self.deck.pop() for _ in range(K.START_HAND)] for _ in range(n)
        ]

        self.harbors_out = [h for h in range(NH) if n not in K.HARBORS[h][4]]  # back in the box
        self.harbor_deck = [h for h in range(NH) if n in K.HARBORS[h][4]]
        rng.shuffle(self.harbor_deck)
        self.open_harbors: list[int] = [self.harbor_deck.pop() for _ in range(K.OPEN_HARBORS)]
        self.piles: list[list[int]] = [[] for _ in range(K.OPEN_HARBORS)]
        self.spent_harbors: list[int] = []  # harbor cards paid for missions

        self.missions_board = [
            m for m, (_k, _vp, five) in enumerate(K.MISSIONS) if n == 5 or not five
        ]
        self.missions_out = [m for m in range(len(K.MISSIONS)) if m not in self.missions_board]
        self.missions_done: list[list[int]] = [[] for _ in range(n)]
        self.ware_cards: list[list[int]] = [[] for _ in range(n)]
        self.ware_harbors: list[list[int]] = [[] for _ in range(n)]
        self.columns: list[list[int]] = [[] for _ in range(NC)]
        self.ship_holder: int | None = None

        self.place_order = list(range(n))
        for _ in range(self.merchants_each - 1):
            self.place_order += list(range(n - 1, -1, -1))
        self.place_pos = 0

        self.turn_player = 0
        self.active = 0
        self.phase = PLACE
        # mission payment in progress
        self.pay_mission = -1
        self.pay_need = [0] * NS
        self.pay_wild = 0
        self.pay_traded = False
        self.pay_cards: list[int] = []
        self.pay_harbors: list[int] = []
        # fight in progress
        self.fight_company = -1
        self.att_rank = -1
        self.def_rank = -1
        self.defender = -1
        self.att_cards: list[int] = []
        self.def_cards: list[int] = []
        self.fight_winner: str | None = None
        # distribution in progress
        self.dist_slot = -1
        self.dist_kind: str | None = None
        self.dist_company = -1
        self.pick_order: list[int] = []
        self.pick_pos = 0
        # end of game
        self.last_player = -1
        self.last_queue: list[int] = []
        self.last_pos = 0
        self.final: list[dict[str, int]] | None = None
        self._legal: list[str] | None = None

    # ------------------------------------------------------------------ interface
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.active

    def apply(self, action: Action) -> None:
        self._accept_legal(action)
        phase = self.phase
        if phase == PLACE:
            self._place(COMPANY_INDEX[action[6:]])
        elif phase in (MISSION, LAST_MISSION):
            if action == NO_MISSION:
                self._after_mission()
            else:
                kind, spice = MISSION_LOOKUP[action]
                self._start_payment(kind, spice)
        elif phase == PAY:
            self._pay(action)
        elif phase == COMPANY:
            self._company(action)
        elif phase == FIGHT:
            self._fight(action)
        elif phase == DEFEND:
            self._defend(action)
        elif phase == RETREAT:
            self._retreat(action)
        elif phase == REWARD:
            self._reward(action)
        elif phase == SHIP:
            _, card, slot = action.split(":")
            self._ship(int(card), int(slot))
        elif phase == PICK:
            self._take(int(action[5:]))
        else:  # DISCARD
            discarded = int(action[8:])
            self.hands[self.active].remove(discarded)
            self.discards.append(discarded)
            if len(self.hands[self.active]) <= K.HAND_LIMIT:
                self._next_turn()

    def scores(self) -> list[int]:
        if self.final is None:
            raise GameNotOver("Borneo is scored after the last mission round")
        return [row["total"] for row in self.final]

    def ranking(self) -> list[int]:
        """Higher score wins; equal scores go to the player with more missions."""
        scores = self.scores()
        return competition_ranking(
            [(scores[p], len(self.missions_done[p])) for p in range(self.num_players)]
        )

    # ------------------------------------------------------------------ views
    def public_view(self) -> Observation:
        n = self.num_players
        players = [
            {
                "hand_size": len(self.hands[p]),
                "warehouse_cards": sorted(self.ware_cards[p]),
                "warehouse_harbors": sorted(HARBOR_NAME[h] for h in self.ware_harbors[p]),
                "missions": sorted(K.MISSIONS[m][0] for m in self.missions_done[p]),
                "mission_points": sum(K.MISSIONS[m][1] for m in self.missions_done[p]),
                "pirate_ship": self.ship_holder == p,
            }
            for p in range(n)
        ]
        harbors = []
        for slot, h in enumerate(self.open_harbors):
            harbors.append(
                None
                if h < 0
                else {
                    "slot": slot,
                    "name": HARBOR_NAME[h],
                    "spice": K.HARBORS[h][1],
                    "monopoly": MONOPOLY[h],
                    "card_limit": CARD_LIMIT[h],
                    "cards": list(self.piles[slot]),
                    "flags": {
                        K.COMPANIES[c]: v for c, v in enumerate(flag_counts(self.piles[slot]))
                    },
                }
            )
        board_missions: dict[str, int] = {}
        for m in self.missions_board:
            board_missions[K.MISSIONS[m][0]] = board_missions.get(K.MISSIONS[m][0], 0) + 1
        view: Observation = {
            "game": self.game_name,
            "variant": self.variant,
            "num_players": n,
            "phase": self.phase,
            "current_player": self.current_player(),
            "turn_player": self.turn_player,
            "companies": {K.COMPANIES[c]: list(self.columns[c]) for c in range(NC)},
            "harbors": harbors,
            "harbor_deck_size": len(self.harbor_deck),
            "deck_size": len(self.deck),
            "discards": sorted(self.discards),
            "missions_on_board": board_missions,
            "pirate_ship": self.ship_holder,
            "players": players,
            "payment": {
                "mission": K.MISSIONS[self.pay_mission][0],
                "still_needed": {K.SPICES[s]: max(0, v) for s, v in enumerate(self.pay_need)},
                "wild_paid": self.pay_wild,
                "traded": self.pay_traded,
                "cards_paid": list(self.pay_cards),
                "harbors_paid": [HARBOR_NAME[h] for h in self.pay_harbors],
            }
            if self.phase == PAY
            else None,
            "fight": {
                "company": K.COMPANIES[self.fight_company],
                "attacker": self.turn_player,
                "attacker_rank": self.att_rank + 1,
                "defender": self.defender,
                "defender_rank": self.def_rank + 1,
                "attacker_cards": list(self.att_cards),
                "defender_cards": list(self.def_cards),
                "winner": self.fight_winner,
            }
            if self.phase in (FIGHT, DEFEND, RETREAT, REWARD)
            else None,
            "distribution": {
                "slot": self.dist_slot,
                "kind": self.dist_kind,
                "company": K.COMPANIES[self.dist_company] if self.dist_company >= 0 else None,
                "cards": list(self.piles[self.dist_slot]),  # face up until picked
                "pickers": self.pick_order[self.pick_pos :],
            }
            if self.phase == PICK
            else None,
            "last_round_order": list(self.last_queue),
            "final": copy.deepcopy(self.final),
        }
        return view

    def observation(self, player: int) -> Observation:
        self.check_seat(player)
        view = self.public_view()
        view["seat"] = player
        view["hand"] = sorted(self.hands[player])
        return view

    def snapshot(self) -> dict[str, Any]:
        data = {k: copy.deepcopy(v) for k, v in vars(self).items() if k not in ("rng", "_legal")}
        data["rng"] = self.rng.state
        return data

    def component_counts(self) -> dict[str, int]:
        cards = (
            len(self.deck)
            + len(self.discards)
            + sum(map(len, self.hands))
            + sum(map(len, self.piles))
            + sum(map(len, self.ware_cards))
            + len(self.pay_cards)
            + len(self.att_cards)
            + len(self.def_cards)
        )
        harbors = (
            len(self.harbor_deck)
            + sum(1 for h in self.open_harbors if h >= 0)
            + sum(map(len, self.ware_harbors))
            + len(self.spent_harbors)
            + len(self.harbors_out)
            + len(self.pay_harbors)
        )
        missions = (
            len(self.missions_board)
            + sum(map(len, self.missions_done))
            + len(self.missions_out)
            + (1 if self.phase == PAY else 0)
        )
        merchants = sum(map(len, self.columns)) + len(self.place_order) - self.place_pos
        return {
            "shipment_cards": cards,
            "harbors": harbors,
            "missions": missions,
            "merchants": merchants,
        }

    def determinize(self, player: int, rng: Rng) -> BorneoState:
        """Redraw opponents' hands and the deck from the unseen cards; reshuffle harbors.

        The unseen cards are the deck plus every opponent's hand (everything else is face
        up).  Harbor deck order and future shuffles are unknown as well.
        """
        self.check_seat(player)
        state = self.clone()
        pool = list(state.deck)
        for q in range(self.num_players):
            if q != player:
                pool.extend(state.hands[q])
        rng.shuffle(pool)
        for q in range(self.num_players):
            if q != player:
                size = len(state.hands[q])
                state.hands[q] = [pool.pop() for _ in range(size)]
        state.deck = pool
        rng.shuffle(state.harbor_deck)
        state.rng = Rng(rng.next_u64())
        return state

    # ------------------------------------------------------------------ legality
    def _trade_allowed(self, p: int) -> bool:
        """Pirate trades: Blackbeard only, never by the ship's holder or in the last round."""
        return self.blackbeard and not self.last_queue and self.ship_holder != p

    def _supply(
        self, p: int, skip_card: int = 0, skip_harbor: int = -1
    ) -> tuple[list[int], int, list[int]]:
        units = [0] * NS
        smallest = [0] * NS
        wilds = 0
        for card in self.ware_cards[p]:
            if card == skip_card:
                continue
            s, a = SPICE[card], AMOUNT[card]
            units[s] += a
            if not smallest[s] or a < smallest[s]:
                smallest[s] = a
        for h in self.ware_harbors[p]:
            if h == skip_harbor:
                continue
            s = HARBOR_SPICE[h]
            if s < 0:
                wilds += 1
            else:
                units[s] += 1
                smallest[s] = 1
        return units, wilds, smallest

    def _mission_verdicts(self, p: int, trade_ok: bool) -> Iterator[Verdict]:
        """The mission choices (``mission:...``) ``p`` can pay for, then every other one refused."""
        kinds = {K.MISSIONS[m][0] for m in self.missions_board}
        if kinds and (self.ware_cards[p] or self.ware_harbors[p]):
            units, wilds, smallest = self._supply(p)
            total = sum(units) + wilds + (1 if trade_ok else 0)
            for action, kind, spice in MISSION_ACT:
                if kind not in kinds:
                    continue
                k, same = K.MISSION_NEEDS[kind]
                if total >= (k if same else k * NS) and feasible(
                    units, wilds, smallest, mission_need(kind, spice), 0, trade_ok
                ):
                    yield (action,), None
        yield ALL_MISSIONS, (_mission_refusal, kinds)

    def _mission_options(self, p: int, trade_ok: bool) -> list[str]:
        return [
            a
            for group, refusal in self._mission_verdicts(p, trade_ok)
            if not refusal
            for a in group
        ]

    def _payment_verdicts(self) -> Iterator[Verdict]:
        """Each warehouse item paid (``pay:``) or traded (``trade:``), catch-alls last."""
        p = self.active
        need, paid = self.pay_need, self.pay_wild
        allowed = self._trade_allowed(p)
        trade_ok = allowed and not self.pay_traded
        for card in self.ware_cards[p]:
            s, a = SPICE[card], AMOUNT[card]
            units, wilds, smallest = self._supply(p, skip_card=card)
            if need[s] > 0:
                after = list(need)
                after[s] -= a
                if feasible(units, wilds, smallest, after, paid, trade_ok):
                    yield (PAY_CARD[card],), None
            elif trade_ok and feasible(units, wilds, smallest, need, paid + 1, False):
                yield (TRADE_CARD[card],), None
        for h in self.ware_harbors[p]:
            s = HARBOR_SPICE[h]
            units, wilds, smallest = self._supply(p, skip_harbor=h)
            if s < 0 or need[s] > 0:
                after = list(need)
                if s < 0:
                    ok = feasible(units, wilds, smallest, after, paid + 1, trade_ok)
                else:
                    after[s] -= 1
                    ok = feasible(units, wilds, smallest, after, paid, trade_ok)
                if ok:
                    yield (PAY_HARBOR[h],), None
            elif trade_ok and feasible(units, wilds, smallest, need, paid + 1, False):
                yield (TRADE_HARBOR[h],), None
        if not allowed:
            yield ALL_TRADES, (NO_PIRATE_TRADE,)
        elif self.pay_traded:
            yield ALL_TRADES, (ONE_TRADE,)
        yield ALL_PAYMENTS, (CANNOT_USE_ITEM,)

    def _company_verdicts(self) -> Iterator[Verdict]:
        """Stay, every move or attack of the player's merchants, then every other one refused."""
        p = self.active
        columns = self.columns
        yield (STAY,), None
        free = [len(col) < SLOTS for col in columns]
        hand = self.hands[p]
        for c in range(NC):
            col = columns[c]
            for r, seat in enumerate(col):
                if seat != p:
                    continue
                for t in range(NC):
                    if t != c:
                        yield (
                            (MOVE_ACT[c][r][t],),
                            None if free[t] else (NO_FREE_SLOT_IN, K.COMPANIES[t]),
                        )
                matching = _matching(hand, c)
                for d in range(r):
                    if col[d] == p:
                        refusal: Refusal | None = (OWN_MERCHANT, K.COMPANIES[c], d + 1)
                    elif not matching:
                        refusal = (NO_FLAG_IN_HAND, K.COMPANIES[c])
                    elif matching < 2:
                        refusal = (ATTACK_NEEDS_TWO, K.COMPANIES[c])
                    else:
                        refusal = None
                    yield (ATTACK_ACT[c][r][d],), refusal
                yield ATTACK_ACT[c][r][r:], (DEFENDER_ABOVE, r)
            yield FROM_COMPANY[c], (_not_your_merchant, col)

    def _fight_verdicts(
        self, player: int, limit: int | None
    ) -> Iterator[tuple[int, Refusal | None]]:
        """Each card in ``player``'s hand: may it join the fight (matching, a card kept)?

        ``limit`` is the attacker's card count when the defender plays, ``None`` for the
        attacker.  The attacker keeps a card of the fight's company, the defender any card.
        """
        hand = self.hands[player]
        c = self.fight_company
        matching = _matching(hand, c)
        for card in hand:
            if limit is None and FLAGS[card][c] and matching < 2:
                yield card, (KEEP_MATCHING_CARD, K.COMPANIES[c])
            elif limit is not None and len(hand) < 2:
                yield card, (KEEP_ONE_CARD,)
            elif limit is not None and len(self.def_cards) >= limit:
                yield card, (DEFENDER_LIMIT,)
            elif not FLAGS[card][c]:
                yield card, (CARD_WITHOUT_FLAG, card, K.COMPANIES[c])
            else:
                yield card, None

    def _fight_cards(self, player: int, limit: int | None) -> list[int]:
        """Cards ``player`` may still add to the fight (matching, keeping one in hand)."""
        return [card for card, refusal in self._fight_verdicts(player, limit) if refusal is None]

    def _retreat_verdicts(self) -> Iterator[Verdict]:
        c = self.fight_company
        yield (RETREAT_STAY,), None
        for t in range(NC):
            if t == c:
                yield (RETREAT_ACT[t],), (RETREAT_ELSEWHERE, K.COMPANIES[t])
            elif len(self.columns[t]) < SLOTS:
                yield (RETREAT_ACT[t],), None
            else:
                yield (RETREAT_ACT[t],), (NO_FREE_SLOT_IN, K.COMPANIES[t])

    def _retreat_options(self) -> list[str]:
        return [a for group, refusal in self._retreat_verdicts() if not refusal for a in group]

    def _options(self) -> Iterator[Verdict]:
        """Every action of the current step, in groups: ``None`` (legal) or why not.

        The one statement of the rules on what may be done. The legal list is the groups with
        ``None``, in this order; an illegal action's error formats the refusal of the first
        group holding it (so catch-alls, such as every card not in hand, come last).
        """
        step = STEP_OPTIONS.get(self.phase)
        return step(self) if step is not None else iter(())

    def _place_verdicts(self) -> Iterator[Verdict]:
        for c in range(NC):
            full = len(self.columns[c]) >= SLOTS
            yield (PLACE_ACT[c],), (COMPANY_FULL,) if full else None

    def _mission_step_verdicts(self) -> Iterator[Verdict]:
        p = self.active
        yield (NO_MISSION,), None
        yield from self._mission_verdicts(p, self._trade_allowed(p))

    def _fight_step_verdicts(self) -> Iterator[Verdict]:
        """The attacker's or the defender's cards, then finishing (the attacker after one)."""
        attacking = self.phase == FIGHT
        acts = FIGHT_ACT if attacking else DEFEND_ACT
        limit = None if attacking else len(self.att_cards)
        for card, refusal in self._fight_verdicts(self.active, limit):
            yield (acts[card],), refusal
        if attacking:
            yield (FIGHT_DONE,), None if self.att_cards else (PLAY_ONE_CARD,)
        else:
            yield (DEFEND_DONE,), None
        yield ALL_FIGHT if attacking else ALL_DEFEND, (_not_in_hand,)

    def _reward_verdicts(self) -> Iterator[Verdict]:
        yield tuple(REWARD_ACT[card] for card in self.def_cards), None
        yield (NO_REWARD,), None
        yield ALL_REWARDS, (REWARD_FROM_DEFENCE,)

    def _ship_verdicts(self) -> Iterator[Verdict]:
        """Any card in hand onto any slot that holds a harbor."""
        slots = [s for s in range(K.OPEN_HARBORS) if self.open_harbors[s] >= 0]
        hand = sorted(self.hands[self.active])
        yield tuple(SHIP_ACT[card][s] for card in hand for s in slots), None
        for s in range(K.OPEN_HARBORS):
            if s not in slots:
                yield SHIP_TO[s], (NO_HARBOR_AT, s)
        yield ALL_SHIPS, (_not_in_hand,)

    def _pick_verdicts(self) -> Iterator[Verdict]:
        yield tuple(TAKE_ACT[card] for card in sorted(self.piles[self.dist_slot])), None
        yield ALL_TAKES, (TAKE_FROM_HARBOR,)

    def _discard_verdicts(self) -> Iterator[Verdict]:
        yield tuple(DISCARD_ACT[card] for card in sorted(self.hands[self.active])), None
        yield ALL_DISCARDS, (DISCARD_FROM_HAND,)

    def _compute_legal(self) -> list[str]:
        legal: list[str] = []
        for actions, refusal in self._options():
            if refusal is None:
                legal += actions
        return legal

    def _why_illegal(self, action: object) -> str:
        """A specific reason, because bot authors read these in their match logs."""
        if self.phase == OVER:
            return "the game is over"
        legal = self._legal or []
        shown = ", ".join(legal[:12]) + (" ..." if len(legal) > 12 else "")
        if not isinstance(action, str):
            return f"Borneo actions are strings, not {type(action).__name__}; legal now: {shown}"
        malformed = _malformed(action)
        if malformed:
            return malformed
        for actions, refusal in self._options():
            if action in actions and refusal is not None:
                return refusal_text(refusal, action)
        expected = STEP_ACTIONS[self.phase]
        return (
            f"{action!r} is not possible in the {self.phase} step ({expected}); legal now: {shown}"
        )

    # ------------------------------------------------------------------ setup
    def _place(self, c: int) -> None:
        self.columns[c].append(self.active)
        self.place_pos += 1
        if self.place_pos < len(self.place_order):
            self.active = self.place_order[self.place_pos]
        else:
            self._begin_turn(0)

    # ------------------------------------------------------------------ turn flow
    def _begin_turn(self, p: int) -> None:
        self.turn_player = self.active = p
        self.phase = MISSION if self._mission_options(p, self._trade_allowed(p)) else COMPANY

    def _after_mission(self) -> None:
        if self.last_queue:
            self.last_pos += 1
            self._advance_last_round()
        else:
            self.phase = COMPANY
            self.active = self.turn_player

    def _next_turn(self) -> None:
        self._begin_turn((self.turn_player + 1) % self.num_players)

    # ------------------------------------------------------------------ missions
    def _start_payment(self, kind: str, spice: int) -> None:
        self.pay_mission = next(m for m in self.missions_board if K.MISSIONS[m][0] == kind)
        self.missions_board.remove(self.pay_mission)
        self.pay_need = mission_need(kind, spice)
        self.pay_wild = 0
        self.pay_traded = False
        self.pay_cards = []
        self.pay_harbors = []
        self.phase = PAY

    def _pay(self, action: str) -> None:
        p = self.active
        head, item = action.split(":")
        is_card = item[0] == "s"
        ident = int(item[1:])
        if is_card:
            self.ware_cards[p].remove(ident)
            self.pay_cards.append(ident)
            spice, amount = SPICE[ident], AMOUNT[ident]
        else:
            self.ware_harbors[p].remove(ident)
            self.pay_harbors.append(ident)
            spice, amount = HARBOR_SPICE[ident], 1
        if head == "trade":
            self.pay_traded = True
            self.ship_holder = p
            self.pay_wild += 1
        elif spice < 0:
            self.pay_wild += 1
        else:
            self.pay_need[spice] -= amount
        if sum(v for v in self.pay_need if v > 0) <= self.pay_wild:
            self._finish_payment(p)

    def _finish_payment(self, p: int) -> None:
        self.missions_done[p].append(self.pay_mission)
        self.discards.extend(self.pay_cards)
        self.spent_harbors.extend(self.pay_harbors)
        self.pay_cards = []
        self.pay_harbors = []
        self.pay_mission = -1
        self.pay_need = [0] * NS
        self.pay_wild = 0
        self.pay_traded = False
        if self.last_queue:
            self.last_pos += 1
            self._advance_last_round()
        else:
            self.phase = COMPANY

    # ------------------------------------------------------------------ companies
    def _company(self, action: str) -> None:
        p = self.active
        if action == STAY:
            self.phase = SHIP
            return
        head, company, rank, other = action.split(":")
        c, r = COMPANY_INDEX[company], int(rank) - 1
        if head == "move":
            self.columns[c].pop(r)
            self.columns[COMPANY_INDEX[other]].append(p)
            self.phase = SHIP
            return
        self.fight_company = c
        self.att_rank = r
        self.def_rank = int(other) - 1
        self.defender = self.columns[c][self.def_rank]
        self.att_cards = []
        self.def_cards = []
        self.fight_winner = None
        self.phase = FIGHT

    def _fight(self, action: str) -> None:
        p = self.active
        if action != FIGHT_DONE:
            card = int(action[6:])
            self.hands[p].remove(card)
            self.att_cards.append(card)
            if self._fight_cards(p, None):
                return
        self._start_defence()

    def _start_defence(self) -> None:
        self.phase = DEFEND
        self.active = self.defender
        if not self._fight_cards(self.defender, len(self.att_cards)):
            self._resolve_fight()

    def _defend(self, action: str) -> None:
        p = self.active
        if action != DEFEND_DONE:
            card = int(action[7:])
            self.hands[p].remove(card)
            self.def_cards.append(card)
            if self._fight_cards(p, len(self.att_cards)):
                return
        self._resolve_fight()

    def _resolve_fight(self) -> None:
        c = self.fight_company
        attack = sum(FLAGS[card][c] for card in self.att_cards)
        defence = sum(FLAGS[card][c] for card in self.def_cards)
        defence += self.att_rank - self.def_rank - 1
        column = self.columns[c]
        if attack >= defence:
            self.fight_winner = "attacker"
            column[self.def_rank], column[self.att_rank] = (
                column[self.att_rank],
                column[self.def_rank],
            )
            self.phase = RETREAT
            self.active = self.defender
            if len(self._retreat_options()) == 1:
                self._retreat(RETREAT_STAY)
        else:
            self.fight_winner = "defender"
            self.phase = REWARD
            self.active = self.defender
            if not self.def_cards:
                self._reward(NO_REWARD)

    def _retreat(self, action: str) -> None:
        if action != RETREAT_STAY:
            self.columns[self.fight_company].pop(self.att_rank)
            self.columns[COMPANY_INDEX[action[8:]]].append(self.defender)
        self._end_fight()

    def _reward(self, action: str) -> None:
        if action != NO_REWARD:
            card = int(action[7:])
            self.def_cards.remove(card)
            self.ware_cards[self.defender].append(card)
        self._end_fight()

    def _end_fight(self) -> None:
        self.discards.extend(self.att_cards)
        self.discards.extend(self.def_cards)
        self.att_cards = []
        self.def_cards = []
        self.fight_company = self.att_rank = self.def_rank = self.defender = -1
        self.fight_winner = None
        self.phase = SHIP
        self.active = self.turn_player

    # ------------------------------------------------------------------ shipments
    def _ship(self, card: int, slot: int) -> None:
        p = self.active
        self.hands[p].remove(card)
        pile = self.piles[slot]
        pile.append(card)
        harbor = self.open_harbors[slot]
        company = monopoly_company(pile, MONOPOLY[harbor])
        if company is not None:
            self.dist_kind = "monopoly"
            self.dist_company = company
            order = monopoly_order(self.columns, company, len(pile))
        elif len(pile) >= CARD_LIMIT[harbor]:
            self.dist_kind = "shared"
            self.dist_company = -1
            order = shared_order(self.columns, shared_ranking(pile), len(pile))
        else:
            self._draw_step()
            return
        self.ware_harbors[p].append(harbor)
        self.open_harbors[slot] = -1
        self.dist_slot = slot
        self.pick_order = order
        self.pick_pos = 0
        self._advance_picks()

    def _advance_picks(self) -> None:
        pile = self.piles[self.dist_slot]
        order = self.pick_order
        while pile:
            if self.pick_pos >= len(order):
                self.discards.extend(pile)
                pile.clear()
                break
            seat = order[self.pick_pos]
            rest = order[self.pick_pos : self.pick_pos + len(pile)]
            if len(pile) == 1 or rest.count(seat) == len(rest):
                self.ware_cards[seat].extend(pile)
                pile.clear()
                break
            self.phase = PICK
            self.active = seat
            return
        slot = self.dist_slot
        self.dist_slot = -1
        self.dist_kind = None
        self.dist_company = -1
        self.pick_order = []
        self.pick_pos = 0
        self.active = self.turn_player
        if self.harbor_deck:
            self.open_harbors[slot] = self.harbor_deck.pop()
            self._draw_step()
        else:
            self._end_game()

    def _take(self, card: int) -> None:
        self.piles[self.dist_slot].remove(card)
        self.ware_cards[self.active].append(card)
        self.pick_pos += 1
        self._advance_picks()

    # ------------------------------------------------------------------ drawing
    def _draw_step(self) -> None:
        p = self.turn_player
        self.active = p
        if len(self.deck) + len(self.discards) < K.DRAW_PER_TURN:
            self._end_game()
            return
        hand = self.hands[p]
        for _ in range(K.DRAW_PER_TURN):
            if not self.deck:
                self.deck = self.discards
                self.discards = []
                self.rng.shuffle(self.deck)
            hand.append(self.deck.pop())
        if len(hand) > K.HAND_LIMIT:
            self.phase = DISCARD
        else:
            self._next_turn()

    # ------------------------------------------------------------------ the end
    def _end_game(self) -> None:
        self.last_player = self.turn_player
        for slot, pile in enumerate(self.piles):
            self.discards.extend(pile)
            pile.clear()
            if self.open_harbors[slot] >= 0:
                self.harbors_out.append(self.open_harbors[slot])
                self.open_harbors[slot] = -1
        for hand in self.hands:
            self.discards.extend(hand)
            hand.clear()
        n = self.num_players
        self.last_queue = [(self.last_player + 1 + i) % n for i in range(n)]
        self.last_pos = 0
        self._advance_last_round()

    def _advance_last_round(self) -> None:
        while self.last_pos < len(self.last_queue):
            p = self.last_queue[self.last_pos]
            self.turn_player = self.active = p
            if self._mission_options(p, False):
                self.phase = LAST_MISSION
                return
            self.last_pos += 1
        self._score()

    def _score(self) -> None:
        rows = []
        for p in range(self.num_players):
            row = {
                "shipment_cards": len(self.ware_cards[p]),
                "harbors": len(self.ware_harbors[p]),
                "missions": sum(K.MISSIONS[m][1] for m in self.missions_done[p]),
                "pirate_ship": -K.PIRATE_PENALTY if self.ship_holder == p else 0,
            }
            row["total"] = sum(row.values())
            rows.append(row)
        self.final = rows
        self.phase = OVER


STEP_OPTIONS: dict[str, Callable[[BorneoState], Iterator[Verdict]]] = {
    PLACE: BorneoState._place_verdicts,
    MISSION: BorneoState._mission_step_verdicts,
    LAST_MISSION: BorneoState._mission_step_verdicts,
    PAY: BorneoState._payment_verdicts,
    COMPANY: BorneoState._company_verdicts,
    FIGHT: BorneoState._fight_step_verdicts,
    DEFEND: BorneoState._fight_step_verdicts,
    RETREAT: BorneoState._retreat_verdicts,
    REWARD: BorneoState._reward_verdicts,
    SHIP: BorneoState._ship_verdicts,
    PICK: BorneoState._pick_verdicts,
    DISCARD: BorneoState._discard_verdicts,
}
"""The rules of each step (:meth:`BorneoState._options`); the game's end has none."""


def _matching(hand: list[int], company: int) -> int:
    """How many cards of ``hand`` show ``company``'s flag (any of the four positions)."""
    return sum(1 for card in hand if FLAGS[card][company])


def _card_of(action: str) -> int:
    tail = action.rsplit(":", 1)[-1]
    return int(tail) if tail.isdigit() and 0 < int(tail) <= MAX_ID else 0


def _mission_refusal(action: str, kinds: set[str]) -> str:
    """Why a mission the player may not choose is refused: none left, or not payable."""
    kind = MISSION_LOOKUP[action][0]
    if kind not in kinds:
        return f"no {kind} mission is left on the board"
    return f"your warehouse cannot pay for {kind} (hand cards never pay for missions)"


def _not_your_merchant(action: str, column: list[int]) -> str:
    """Why a move or attack from someone else's merchant (or an empty rank) is refused."""
    _head, company, rank = action.split(":")[:3]
    r = int(rank) - 1
    if r >= len(column):
        return f"{company} has no merchant at rank {rank}"
    return f"{company} rank {rank} is seat {column[r]}'s merchant, not yours"


def _not_in_hand(action: str) -> str:
    """The refusal of a card action (``ship:ID:SLOT``, ``fight:ID``...) naming a card not held."""
    return f"card {action.split(':')[1]} is not in your hand"


def _malformed(action: str) -> str | None:
    """Why ``action`` can never be a Borneo action, or ``None`` when it is one.

    Only the spelling is judged here (names, ranks and slots that do not exist); whether a
    well-spelled action is legal now is :meth:`BorneoState._options`'s to say.
    """
    if action in VOCABULARY:
        return None
    parts = action.split(":")
    head = parts[0]
    companies = ", ".join(K.COMPANIES)
    if head == "place":
        return f"unknown company {action[6:]!r}; companies: {companies}"
    if head == "mission":
        return f"unknown mission {action!r}"
    if head == "ship" and len(parts) == 3 and _card_of(":".join(parts[:2])):
        return f"there is no harbor slot {parts[2]}: play onto 0, 1 or 2 (ship:ID:SLOT)"
    if head == "ship":
        return "play a card from your hand onto harbor slot 0, 1 or 2 (ship:ID:SLOT)"
    if head in ("move", "attack"):
        return _malformed_company_action(parts)
    return None


def _malformed_company_action(parts: list[str]) -> str | None:
    """Why ``move:C:R:T`` / ``attack:C:R:D`` is misspelled, or ``None`` if the rules decide."""
    head = parts[0]
    companies = ", ".join(K.COMPANIES)
    form = "move:COMPANY:RANK:TARGET" if head == "move" else "attack:COMPANY:RANK:DEFENDER_RANK"
    if len(parts) != 4 or not parts[2].isdigit():
        return f"write {form}, e.g. {head}:yellow:2:{'red' if head == 'move' else '1'}"
    company, rank, other = parts[1], int(parts[2]), parts[3]
    if company not in COMPANY_INDEX:
        return f"unknown company {company!r}; companies: {companies}"
    if not 1 <= rank <= SLOTS:
        return f"{company} has no merchant at rank {rank}"
    if head == "move":
        if other not in COMPANY_INDEX:
            return f"unknown company {other!r}; companies: {companies}"
        return "a merchant can only move to a different company"
    if other.isdigit() and 1 <= int(other) <= SLOTS:
        return None  # spelled right: the attacker's rank decides (BorneoState._options)
    return DEFENDER_ABOVE.format(rank - 1)


def max_decisions(num_players: int) -> int:
    """The most decisions a game at ``num_players`` can take (docs/games/borneo.md).

    Every turn ships one card onto an open harbor, and a harbor is completed (and replaced from
    the harbor deck, or the game ends) once it holds its card limit, so there are at most as
    many turns as the card limits of all harbor cards together. A turn: the mission choice, one
    payment step per spice it needs (each step pays at least one, 12 at most) plus one pirate
    trade, the companies step, a fight of at most a hand less one card on each side plus each
    side's ``-done``, retreat, reward, the shipment, one pick per card of the pile and at most
    two discards. Before: every merchant placed; after: each seat one last mission.
    """
    hand = K.HAND_LIMIT
    payment = max(
        count * (1 if same else len(K.SPICES)) for count, same in K.MISSION_NEEDS.values()
    )
    mission = 1 + payment + 1
    per_turn = mission + 1 + 2 * hand + 2 + 1 + max(CARD_LIMIT) + K.DRAW_PER_TURN
    turns = sum(CARD_LIMIT)
    placements = num_players * K.MERCHANTS_FOUR_MERCHANT_VARIANT
    return placements + turns * per_turn + num_players * mission
