"""A one-ply East Indiaman heuristic: gather the cargo of one target order, fill it, invest.

Every legal action gets a value from the observation alone and the best one is played;
passing is worth zero, so the bot passes once nothing useful is left.  Stateless by design:
each decision re-derives the same target, so its two actions per turn pull the same way,
and an exchange is made only from surplus cargo into cargo the target lacks (no cycles).
"""

from __future__ import annotations

from engine.core import Action, Observation
from engine.games.east_indiaman.components import (
    CARGOES,
    INVESTMENT_MAX,
    ORDER_CARDS,
    POSTS_FOR_ARMS,
    ROUNDS,
)
from engine.games.east_indiaman.state import PARSED, exchange_yield, order_points
from engine.rng import Rng

TRADE = CARGOES[:4]
ICON_VALUE = 1.5
POST_VALUE = 2.5
LATE_ROUND_FOR_POSTS = ROUNDS - 1


def _my(obs: Observation) -> dict:
    return obs["players"][obs["seat"]]


def _levels(me: dict) -> list[int]:
    return [me["levels"][c] for c in TRADE]


def _order_gain(me: dict, card: int) -> float:
    """Points the card adds now, half of what it would add one level higher, and its icons."""
    levels, done = _levels(me), me["completed"]
    now = order_points(levels, [*done, card]) - order_points(levels, done)
    raised = [min(INVESTMENT_MAX, v + 1) for v in levels]
    later = order_points(raised, [*done, card]) - order_points(raised, done)
    return 1.0 + now + 0.5 * later + ICON_VALUE * len(ORDER_CARDS[card].icons)


def _target_needs(obs: Observation) -> list[int]:
    """Cargo still missing for the most valuable displayed order that is nearest to done."""
    me = _my(obs)
    hold = [me["hold"][c] for c in TRADE]
    best: tuple[float, list[int]] | None = None
    for card in obs["display"]:
        req = ORDER_CARDS[card].req
        deficit = [max(0, req[c] - hold[c]) for c in range(4)]
        score = _order_gain(me, card) - 2.0 * sum(deficit)
        if best is None or score > best[0]:
            best = (score, deficit)
    needs = list(best[1]) if best else [0, 0, 0, 0]
    # otherwise aim at the next investment of the cheapest track
    if not any(needs):
        levels = _levels(me)
        open_tracks = [c for c in range(4) if levels[c] < INVESTMENT_MAX]
        if open_tracks:
            c = min(open_tracks, key=lambda i: (levels[i] + 1 - hold[i], i))
            needs[c] = max(0, levels[c] + 1 - hold[c])
    return needs


def _newly_possible(obs: Observation, me: dict, hold: list[int]) -> float:
    """Best value of an order or investment that ``hold`` allows and the current hold does not."""
    before = [me["hold"][c] for c in TRADE]
    levels = _levels(me)
    best = 0.0
    for card in obs["display"]:
        req = ORDER_CARDS[card].req
        if all(hold[c] >= req[c] for c in range(4)) and not all(
            before[c] >= req[c] for c in range(4)
        ):
            best = max(best, _order_gain(me, card))
    for c in range(4):
        if levels[c] < INVESTMENT_MAX and before[c] <= levels[c] < hold[c]:
            best = max(best, 2.0)
    return best


def _exchange_value(obs: Observation, me: dict, give: int, get: int) -> float:
    """Worth making only when it immediately enables an order or investment (no cycles)."""
    prices = [obs["prices"][c] for c in TRADE]
    paid = obs["prices"][CARGOES[give]]
    hold = [me["hold"][c] for c in TRADE]
    if give < 4:
        hold[give] -= paid
    hold[get] += min(exchange_yield(prices, give, get), me["reserve"] + paid)
    gain = _newly_possible(obs, me, hold)
    return 4.0 + gain if gain > 0 else -1.0


def _value(obs: Observation, action: str, needs: list[int]) -> float:
    kind, x, y = PARSED[action]
    me = _my(obs)
    hold = [me["hold"][c] for c in CARGOES]
    if kind == "order":
        return 10.0 + _order_gain(me, x)
    if kind == "invest":
        levels = _levels(me)
        raised = list(levels)
        raised[x] += 1
        gain = order_points(raised, me["completed"]) - order_points(levels, me["completed"])
        arms = 3.0 if raised[x] == INVESTMENT_MAX else 0.0
        return 6.0 + gain + arms + (levels[x] <= 2) * 2.0
    if kind == "buy":
        return 3.0 if needs[x] > 0 else -1.0
    if kind == "exchange":
        return _exchange_value(obs, me, x, y)
    if kind == "post":
        reserve_after = me["reserve"] - y
        if obs["round"] > LATE_ROUND_FOR_POSTS and reserve_after < 2:
            return -1.0
        third = me["posts"][CARGOES[x]] + 1 == POSTS_FOR_ARMS
        return POST_VALUE + (3.0 if third else 0.0) - 0.5 * y if reserve_after >= 3 else -1.0
    if kind == "lower":
        return -float(hold[x])  # lower the price of what we hold least of
    if kind == "smuggle":
        return 0.5 if x == 1 and me["opium_ships"] == 0 else -1.0
    # pass: take the raid cargo the target needs most; opium only if nothing is needed
    return 0.0 if x == 4 else 0.1 + 0.1 * needs[x]


def east_indiaman_greedy(obs: Observation, legal: list[Action], rng: Rng) -> Action:
    needs = _target_needs(obs)
    best_value = None
    best: list[Action] = []
    for action in legal:
        value = _value(obs, action, needs)
        if best_value is None or value > best_value + 1e-9:
            best_value, best = value, [action]
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return best[0] if len(best) == 1 else rng.choice(best)
