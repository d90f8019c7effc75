"""A one-ply Borneo heuristic: high ranks in busy companies, shipments that pay us now.

Stateless by design: each decision is re-derived from the observation, so split
decisions (paying a mission item by item, playing fight cards one at a time) stay
consistent.  Rule helpers come from the engine so the bot never re-implements them.
"""

from __future__ import annotations

from engine.core import Action, Observation
from engine.games.borneo.components import COMPANIES, MISSION_NEEDS, SPICES
from engine.games.borneo.state import (
    AMOUNT,
    FLAGS,
    MISSION_VP,
    SPICE,
    flag_counts,
    monopoly_company,
    monopoly_order,
    shared_order,
    shared_ranking,
)
from engine.rng import Rng

RANK_VALUE = (3.0, 2.0, 1.2, 0.7, 0.4, 0.2)
"""Rough worth of holding each rank of a company (first rank picks first)."""
MOVE_MARGIN = 0.8
CARD_COST = 0.7  # a hand card spent in a fight
HARBOR_VALUE = 1.5
OPPONENT_WEIGHT = 0.35


def _columns(obs: Observation) -> list[list[int]]:
    return [obs["companies"][c] for c in COMPANIES]


def _company_weight(obs: Observation) -> list[float]:
    """Busier companies (more flags at the open harbors) are worth more."""
    weight = [1.0] * len(COMPANIES)
    for harbor in obs["harbors"]:
        if harbor:
            for c, name in enumerate(COMPANIES):
                weight[c] += 0.3 * harbor["flags"][name]
    return weight


def _rank_value(rank: int) -> float:
    return RANK_VALUE[min(rank, len(RANK_VALUE) - 1)]


def _pick_share(obs: Observation, order: list[int]) -> float:
    me = obs["seat"]
    mine = order.count(me)
    return mine - OPPONENT_WEIGHT * (len(order) - mine)


def _ship_value(obs: Observation, card: int, slot: int) -> float:
    harbor = obs["harbors"][slot]
    pile = [*harbor["cards"], card]
    columns = _columns(obs)
    company = monopoly_company(pile, harbor["monopoly"])
    if company is not None:
        return HARBOR_VALUE + _pick_share(obs, monopoly_order(columns, company, len(pile)))
    if len(pile) >= harbor["card_limit"]:
        order = shared_order(columns, shared_ranking(pile), len(pile))
        return HARBOR_VALUE + _pick_share(obs, order)
    # Not yet distributed: lean the harbor towards companies where we rank high, and avoid
    # leaving it one card short for the next player.
    order = shared_order(columns, shared_ranking(pile), len(pile))
    lean = 0.2 * _pick_share(obs, order)
    ripe = len(pile) == harbor["card_limit"] - 1 or max(flag_counts(pile)) >= harbor["monopoly"] - 3
    return lean - (0.5 if ripe else 0.0) - 0.1 * AMOUNT[card]


def _best_mission(obs: Observation, legal: list[Action]) -> Action:
    best, best_gain = "no-mission", 0.0
    for action in legal:
        if not action.startswith("mission:"):
            continue
        kind = action.split(":")[1]
        k, same = MISSION_NEEDS[kind]
        gain = MISSION_VP[kind] - (k if same else k * len(SPICES))
        if gain > best_gain:
            best, best_gain = action, gain
    return best


def _pay(obs: Observation, legal: list[Action]) -> Action:
    needed = obs["payment"]["still_needed"]

    def cost(action: str) -> float:
        head, item = action.split(":")
        if head == "trade":
            return 10.0  # the pirate ship costs two points: only when nothing else pays
        if item[0] == "h":
            return 1.5  # keep wild and harbor cards for later if possible
        card = int(item[1:])
        waste = AMOUNT[card] - min(AMOUNT[card], needed[SPICES[SPICE[card]]])
        return waste + 0.01 * card

    return min(legal, key=cost)


def _attack_plan(obs: Observation, action: str) -> float:
    """Expected worth of an attack: rank gained if our best cards beat a likely defence."""
    _, company, rank, target = action.split(":")
    c = COMPANIES.index(company)
    r, d = int(rank) - 1, int(target) - 1
    hand = obs["hand"]
    flags = sorted((FLAGS[card][c] for card in hand if FLAGS[card][c]), reverse=True)
    playable = flags[: max(0, len(flags) - 1)][:2]  # one card of the company is kept
    strength = sum(playable)
    defender = obs["companies"][company][d]
    defender_cards = min(len(playable), obs["players"][defender]["hand_size"] - 1)
    defence = (r - d - 1) + 1.2 * max(0, defender_cards)
    if strength < defence:
        return -1.0
    gain = (_rank_value(d) - _rank_value(r)) * _company_weight(obs)[c]
    return gain - CARD_COST * len(playable)


def _company(obs: Observation, legal: list[Action]) -> Action:
    weight = _company_weight(obs)
    best, best_value = "stay", MOVE_MARGIN
    for action in legal:
        if action.startswith("move:"):
            _, company, rank, target = action.split(":")
            c, t = COMPANIES.index(company), COMPANIES.index(target)
            new_rank = len(obs["companies"][target])
            value = _rank_value(new_rank) * weight[t] - _rank_value(int(rank) - 1) * weight[c]
        elif action.startswith("attack:"):
            value = _attack_plan(obs, action)
        else:
            continue
        if value > best_value:
            best, best_value = action, value
    return best


def _fight(obs: Observation, legal: list[Action]) -> Action:
    c = COMPANIES.index(obs["fight"]["company"])
    cards = [a for a in legal if a.startswith("fight:")]
    if cards and len(obs["fight"]["attacker_cards"]) < 2:
        return max(cards, key=lambda a: FLAGS[int(a[6:])][c])
    return "fight-done" if "fight-done" in legal else cards[0]


def _defend(obs: Observation, legal: list[Action]) -> Action:
    fight = obs["fight"]
    c = COMPANIES.index(fight["company"])
    attack = sum(FLAGS[card][c] for card in fight["attacker_cards"])
    defence = sum(FLAGS[card][c] for card in fight["defender_cards"])
    defence += fight["attacker_rank"] - fight["defender_rank"] - 1
    if defence > attack:
        return "defend-done"
    cards = sorted(
        (a for a in legal if a.startswith("defend:")),
        key=lambda a: FLAGS[int(a[7:])][c],
        reverse=True,
    )
    room = len(fight["attacker_cards"]) - len(fight["defender_cards"])
    reachable = defence + sum(FLAGS[int(a[7:])][c] for a in cards[:room])
    if cards and reachable > attack:
        return cards[0]
    return "defend-done"


def _retreat(obs: Observation, legal: list[Action]) -> Action:
    fight = obs["fight"]
    weight = _company_weight(obs)

    def value(action: str) -> float:
        if action == "retreat:stay":
            c = COMPANIES.index(fight["company"])
            return _rank_value(fight["attacker_rank"] - 1) * weight[c]
        target = action[8:]
        return _rank_value(len(obs["companies"][target])) * weight[COMPANIES.index(target)]

    return max(legal, key=value)


def _card_keep_value(obs: Observation, card: int) -> float:
    me = obs["seat"]
    value = 0.0
    for c, name in enumerate(COMPANIES):
        column = obs["companies"][name]
        if me in column:
            value += FLAGS[card][c] * _rank_value(column.index(me))
    return value


def _take_value(obs: Observation, card: int) -> float:
    mine = obs["players"][obs["seat"]]["warehouse_cards"]
    same = sum(AMOUNT[x] for x in mine if SPICE[x] == SPICE[card])
    return AMOUNT[card] + 0.1 * same - 0.001 * card


def borneo_greedy(obs: Observation, legal: list[Action], rng: Rng) -> Action:
    phase = obs["phase"]
    if len(legal) == 1:
        return legal[0]
    if phase == "place":
        weight = _company_weight(obs)
        return max(
            legal,
            key=lambda a: (
                _rank_value(len(obs["companies"][a[6:]])) * weight[COMPANIES.index(a[6:])]
            ),
        )
    if phase in ("mission", "last-mission"):
        return _best_mission(obs, legal)
    if phase == "pay":
        return _pay(obs, legal)
    if phase == "company":
        return _company(obs, legal)
    if phase == "fight":
        return _fight(obs, legal)
    if phase == "defend":
        return _defend(obs, legal)
    if phase == "retreat":
        return _retreat(obs, legal)
    if phase == "reward":
        cards = [a for a in legal if a.startswith("reward:")]
        return max(cards, key=lambda a: AMOUNT[int(a[7:])]) if cards else legal[0]
    if phase == "ship":

        def ship_value(action: str) -> float:
            _, card, slot = action.split(":")
            return _ship_value(obs, int(card), int(slot)) - 0.3 * _card_keep_value(obs, int(card))

        return max(legal, key=ship_value)
    if phase == "pick":
        return max(legal, key=lambda a: _take_value(obs, int(a[5:])))
    if phase == "discard":
        return min(legal, key=lambda a: _card_keep_value(obs, int(a[8:])))
    return rng.choice(legal)
