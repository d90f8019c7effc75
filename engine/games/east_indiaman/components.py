"""East Indiaman's component set (David Wang Studio, 2018), from ``shared/rules/components.json``.

**Reconstructed data.**  The rulebook text has no board: the price tracks, the coastal
trade-post spots, the investment costs and the 36 order cards below were reconstructed to
agree with every number the text gives (5 price markers, opium fixed at 2, 36 orders =
8 per round for four rounds + the last 4, 6 arms resource markers of which 5 are used,
investment levels 1-5, 18 wooden tokens per colour).  Every number lives in this one
module so a corrected set replaces it without touching the rules.
"""

from __future__ import annotations

from typing import NamedTuple

CARGOES: tuple[str, ...] = ("spice", "silk", "tea", "china", "opium")
"""Cargo hold order on a player board; the first four have price tracks, harbors and areas."""

TRADE_CARGOES = 4  # spice, silk, tea, china
OPIUM = 4

PRICE_MIN, PRICE_MAX, PRICE_START = 1, 5, 3
OPIUM_PRICE = 2
TOP_PRICE_BONUS_CARGOES: tuple[int, ...] = (0, 2)  # spice and tea at the top price: +1 / -1

TRADE_POST_MIN_SHIPS: tuple[tuple[int, ...], ...] = (
    (2, 2, 3, 3, 4, 5),  # spice coast
    (2, 2, 3, 3, 4, 5),  # silk coast
    (2, 2, 3, 3, 4, 5),  # tea coast
    (2, 2, 3, 3, 4, 5),  # china coast
)
"""Ships needed for each trade-post spot of the four coastal areas (reconstructed)."""

POSTS_FOR_ARMS = 3  # the third own trade post in one area gives +1 arms (once per area)

INVESTMENT_START, INVESTMENT_MAX = 1, 5
INVESTMENT_COST: dict[int, int] = {2: 2, 3: 3, 4: 4, 5: 5}
"""Cargoes of the track's own type needed to reach each level (reconstructed)."""

ARMS_TRACK_MAX = 15

ARMS_RESOURCES: tuple[str, ...] = ("cannon", "musket", "sabre")
ARMS_MARKERS: tuple[str, ...] = ("cannon", "musket", "sabre", "cannon", "musket", "sabre")
ROUNDS = 5
MAX_EXCHANGES_PER_ROUND = 12
"""Anti-stall ruling (ours, not the rulebook's): exchanges per player per round. Exchanging A
for B and back is legal forever under the printed rules, so without a cap a player could keep
a round from ending; random play makes at most 8 in a round, greedy play 3."""

TOKENS_PER_COLOUR = 18
COLOURS = 4
START_HOLD = 1  # one ship in each of the five cargo holds
START_RESERVE = 5
START_SUPPLY = 5
EXTRA_SUPPLY_BY_POSITION: tuple[int, ...] = (0, 1, 0, 1)  # 2nd and 4th player in sequence
EXTRA_RESERVE_BY_POSITION: tuple[int, ...] = (0, 0, 1, 1)  # 3rd and 4th player in sequence

RAID_TOKENS = 5  # four cargo raid markers + the opium marker, all on the pirate alert track

ORDERS_PER_ROUND: tuple[int, ...] = (8, 8, 8, 8, 4)
CARRY_ORDERS_AFTER_ROUND = 4  # uncompleted orders stay for round 5

ARMS_POINTS_PER_PLAYER_BEHIND: dict[int, int] = {2: 5, 3: 4, 4: 3}
TRADE_POST_INFLUENCE: tuple[int, ...] = (5, 3, 1)


class OrderCard(NamedTuple):
    colours: tuple[int, ...]  # cargo indices the order may be scored as
    req: tuple[int, int, int, int]  # cargoes needed: spice, silk, tea, china
    icons: tuple[str, ...]  # arms resource icons


def _card(colours: str, req: dict[str, int], *icons: str) -> OrderCard:
    return OrderCard(
        tuple(CARGOES.index(c) for c in colours.split("/")),
        (req.get("spice", 0), req.get("silk", 0), req.get("tea", 0), req.get("china", 0)),
        icons,
    )


ORDER_CARDS: tuple[OrderCard, ...] = (
    _card("spice", {"spice": 2}),
    _card("spice", {"spice": 3}, "cannon"),
    _card("spice", {"spice": 2, "china": 1}, "musket"),
    _card("spice", {"spice": 3, "silk": 1}, "sabre"),
    _card("spice", {"spice": 2, "tea": 2}, "cannon", "musket"),
    _card("spice", {"spice": 4}, "sabre"),
    _card("silk", {"silk": 2}),
    _card("silk", {"silk": 3}, "cannon"),
    _card("silk", {"silk": 2, "spice": 1}, "musket"),
    _card("silk", {"silk": 3, "tea": 1}, "sabre"),
    _card("silk", {"silk": 2, "china": 2}, "cannon", "musket"),
    _card("silk", {"silk": 4}, "sabre"),
    _card("tea", {"tea": 2}),
    _card("tea", {"tea": 3}, "cannon"),
    _card("tea", {"tea": 2, "silk": 1}, "musket"),
    _card("tea", {"tea": 3, "china": 1}, "sabre"),
    _card("tea", {"tea": 2, "spice": 2}, "cannon", "musket"),
    _card("tea", {"tea": 4}, "sabre"),
    _card("china", {"china": 2}),
    _card("china", {"china": 3}, "cannon"),
    _card("china", {"china": 2, "tea": 1}, "musket"),
    _card("china", {"china": 3, "spice": 1}, "sabre"),
    _card("china", {"china": 2, "silk": 2}, "cannon", "musket"),
    _card("china", {"china": 4}, "sabre"),
    _card("spice/silk", {"spice": 2, "silk": 1}),
    _card("spice/silk", {"spice": 1, "silk": 3}, "cannon"),
    _card("spice/tea", {"spice": 2, "tea": 1}),
    _card("spice/tea", {"spice": 1, "tea": 3}, "musket"),
    _card("spice/china", {"spice": 2, "china": 1}),
    _card("spice/china", {"spice": 1, "china": 3}, "sabre"),
    _card("silk/tea", {"silk": 2, "tea": 1}),
    _card("silk/tea", {"silk": 1, "tea": 3}, "cannon"),
    _card("silk/china", {"silk": 2, "china": 1}),
    _card("silk/china", {"silk": 1, "china": 3}, "musket"),
    _card("tea/china", {"tea": 2, "china": 1}),
    _card("tea/china", {"tea": 1, "china": 3}, "sabre"),
)
"""The 36 order cards; a card's id is its index here (reconstructed)."""

if len(ORDER_CARDS) != sum(ORDERS_PER_ROUND):
    raise ValueError(
        f"{len(ORDER_CARDS)} order cards, but the rounds reveal {sum(ORDERS_PER_ROUND)}"
    )
