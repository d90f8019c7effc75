"""A one-ply Batavia heuristic: win cheap seals that lead to valuable trading posts.

Stateless by design: every decision re-derives the same plan from the observation,
so the split decisions (``lay:XX`` ... ``stop``, ``move:XX``) stay consistent.
"""

from __future__ import annotations

from engine.core import Action, Observation
from engine.games.batavia.components import COMMODITIES, WAREHOUSE_VALUES
from engine.rng import Rng

SOLE_VALUE = {name: WAREHOUSE_VALUES[i][0] for i, name in enumerate(COMMODITIES)}
NEW_COMPANY_BONUS = 3
CARD_COST = 2.5
MAX_CARDS_FOR_ONE_MOVE = 4


def _next_counter(obs: Observation, company: str) -> list[str] | None:
    position = obs["players"][obs["seat"]]["position"]
    for entry in obs["board"][position + 1 :]:
        if isinstance(entry, list) and entry[0] == company:
            return entry
    return None


def _counter_value(obs: Observation, company: str) -> float:
    counter = _next_counter(obs, company)
    if counter is None:
        return -1.0
    held = obs["players"][obs["seat"]]["counters"]
    return SOLE_VALUE[counter[1]] + (NEW_COMPANY_BONUS if held[company] == 0 else 0)


def _cards_needed(obs: Observation, company: str) -> int:
    """Cards still to lay for a strict majority (0 or less: the seal is ours)."""
    me = obs["seat"]
    mine = obs["players"][me]["laid"][company]
    best_other = max(
        (p["laid"][company] for i, p in enumerate(obs["players"]) if i != me), default=0
    )
    return best_other + 1 - mine


def _plan(obs: Observation) -> tuple[str, int] | None:
    """The company whose seal is worth its card cost most, and the cards it still needs."""
    best: tuple[float, str, int] | None = None
    for company, in_hand in obs["hand"].items():
        need = _cards_needed(obs, company)
        value = _counter_value(obs, company)
        if value < 0 or need > in_hand:
            continue
        score = value - CARD_COST * max(need, 1)
        if best is None or score > best[0]:
            best = (score, company, need)
    return None if best is None else (best[1], best[2])


def _auction(obs: Observation, legal: list[Action]) -> Action:
    cards = sum(obs["package"].values())
    notes = obs["players"][obs["seat"]]["notes"]
    limit = min(notes - 3, cards)  # keep a reserve for the most-notes bonus
    next_bid = obs["auction"]["high_bid"] + 1
    action = f"bid:{next_bid}"
    return action if next_bid <= limit and action in legal else "pass"


def batavia_greedy(obs: Observation, legal: list[Action], rng: Rng) -> Action:
    phase = obs["phase"]
    if phase == "auction":
        return _auction(obs, legal)
    if phase == "exchange":
        held = sum(1 for n in obs["players"][obs["seat"]]["counters"].values() if n)
        return "exchange" if held >= 3 else "keep"
    if phase == "move":
        moves = [a for a in legal if a != "move:target"]
        if not moves:
            return legal[0]
        return max(moves, key=lambda a: _counter_value(obs, a[5:]))
    plan = _plan(obs)
    if phase == "turn" and (
        plan is None or plan[1] > MAX_CARDS_FOR_ONE_MOVE or legal[-1] == "draw"
    ):
        return "draw"
    if plan is None:  # laying already started: finish as cheaply as possible
        return "stop" if "stop" in legal else legal[0]
    company, need = plan
    if need <= 0 and "stop" in legal and phase == "laying":
        return "stop"
    action = f"lay:{company}"
    if action in legal:
        return action
    return "stop" if "stop" in legal else legal[0]
