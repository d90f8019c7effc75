"""Packet Row's component set (Pegasus Spiele, 2013), from ``shared/rules/components.json``.

RECONSTRUCTED DATA.  The rulebook scan names every kind of card and the deck sizes
(38 guildhall, 42 docks, 42 market, 38 bank, 12 starting contracts), but every card's
cost, amount and value is illegible.  The numbers below are a reconstruction chosen
to agree with every figure the rule text does give: 3 cotton to the Netherlands pays
$25, the university costs $18 for 4 VP, the library costs $15, one tobacco costs $2
and three cost $10, a single gold nugget costs $4, Anna's contract pays $35, David's
three contracts pay $35 + $15 + $15.  Keep every number here so a corrected set
replaces this one module.

Cards are plain tuples whose first field is the kind:

* ``("contract", goods, destination, amount, reward)``
* ``("goods", goods, amount, cost)``, ``("gold", nuggets, cost)``, ``("vp", cost, vp)``
* ``("ship", destination)``, ``("money", value)``
* ``("assistant",)``, ``("captain",)``, ``("trader",)``, ``("banker",)``
"""

Card = tuple[str | int, ...]

BOARDS: tuple[str, ...] = ("guildhall", "docks", "market", "bank")
GOODS: tuple[str, ...] = ("grain", "cotton", "fur", "tobacco")
DESTINATIONS: tuple[str, ...] = ("GB", "FR", "NL", "SE", "ES", "DE")
"""Great Britain, France, the Netherlands, Sweden, Spain, the German Confederation."""

START_MONEY = 25
FUTURE_SUPPLY = 2
CURRENT_SUPPLY: dict[int, int] = {2: 2, 3: 2, 4: 3, 5: 4}
"""Cards in each board's current supply, by player count (the rulebook's table)."""
BOARDS_NOT_REFILLED_TO_END: dict[int, int] = {2: 1, 3: 1, 4: 2, 5: 2}
TWO_PLAYER_REMOVED_PER_DECK = 6
DOLLARS_PER_VP = 10
BANKER_VP_FEW = 2  # 2-3 players: the richest
BANKER_VP_MANY = (3, 1)  # 4-5 players: the richest, the second richest
BANK_MONEY = 2000
"""The rulebook does not count the bills; the supply starts with this much in total
(players' $25 each included), more than every contract and money card can pay out."""

GUILDHALL: tuple[Card, ...] = (
    ("contract", "grain", "GB", 1, 15),
    ("contract", "grain", "FR", 2, 20),
    ("contract", "grain", "NL", 3, 25),
    ("contract", "grain", "SE", 3, 25),
    ("contract", "grain", "ES", 4, 30),
    ("contract", "grain", "DE", 5, 35),
    ("contract", "cotton", "GB", 2, 20),
    ("contract", "cotton", "FR", 3, 25),
    ("contract", "cotton", "NL", 3, 25),
    ("contract", "cotton", "SE", 4, 30),
    ("contract", "cotton", "ES", 5, 35),
    ("contract", "cotton", "DE", 1, 15),
    ("contract", "fur", "GB", 3, 25),
    ("contract", "fur", "FR", 3, 25),
    ("contract", "fur", "NL", 4, 30),
    ("contract", "fur", "SE", 5, 35),
    ("contract", "fur", "ES", 1, 15),
    ("contract", "fur", "DE", 2, 20),
    ("contract", "tobacco", "GB", 3, 25),
    ("contract", "tobacco", "FR", 4, 30),
    ("contract", "tobacco", "NL", 5, 35),
    ("contract", "tobacco", "SE", 1, 15),
    ("contract", "tobacco", "ES", 2, 20),
    ("contract", "tobacco", "DE", 3, 25),
    ("assistant",),
    ("assistant",),
    ("assistant",),
    ("assistant",),
    ("assistant",),
    ("vp", 6, 1),
    ("vp", 8, 1),
    ("vp", 10, 2),
    ("vp", 12, 2),
    ("vp", 15, 3),
    ("vp", 18, 4),
    ("vp", 21, 5),
    ("vp", 24, 6),
    ("vp", 28, 7),
)

DOCKS: tuple[Card, ...] = (
    ("ship", "GB"),
    ("ship", "GB"),
    ("ship", "GB"),
    ("ship", "FR"),
    ("ship", "FR"),
    ("ship", "FR"),
    ("ship", "NL"),
    ("ship", "NL"),
    ("ship", "NL"),
    ("ship", "SE"),
    ("ship", "SE"),
    ("ship", "SE"),
    ("ship", "ES"),
    ("ship", "ES"),
    ("ship", "ES"),
    ("ship", "DE"),
    ("ship", "DE"),
    ("ship", "DE"),
    ("captain",),
    ("captain",),
    ("captain",),
    ("captain",),
    ("captain",),
    ("gold", 1, 4),
    ("gold", 1, 4),
    ("gold", 1, 4),
    ("gold", 1, 4),
    ("gold", 1, 4),
    ("gold", 2, 8),
    ("gold", 2, 8),
    ("gold", 2, 8),
    ("gold", 2, 8),
    ("gold", 2, 8),
    ("vp", 6, 1),
    ("vp", 8, 1),
    ("vp", 10, 2),
    ("vp", 12, 2),
    ("vp", 15, 3),
    ("vp", 18, 4),
    ("vp", 21, 5),
    ("vp", 24, 6),
    ("vp", 28, 7),
)

MARKET: tuple[Card, ...] = (
    ("goods", "grain", 1, 2),
    ("goods", "grain", 1, 2),
    ("goods", "grain", 2, 6),
    ("goods", "grain", 2, 6),
    ("goods", "grain", 2, 6),
    ("goods", "grain", 3, 10),
    ("goods", "grain", 3, 10),
    ("goods", "cotton", 1, 2),
    ("goods", "cotton", 1, 2),
    ("goods", "cotton", 2, 6),
    ("goods", "cotton", 2, 6),
    ("goods", "cotton", 2, 6),
    ("goods", "cotton", 3, 10),
    ("goods", "cotton", 3, 10),
    ("goods", "fur", 1, 2),
    ("goods", "fur", 1, 2),
    ("goods", "fur", 2, 6),
    ("goods", "fur", 2, 6),
    ("goods", "fur", 2, 6),
    ("goods", "fur", 3, 10),
    ("goods", "fur", 3, 10),
    ("goods", "tobacco", 1, 2),
    ("goods", "tobacco", 1, 2),
    ("goods", "tobacco", 2, 6),
    ("goods", "tobacco", 2, 6),
    ("goods", "tobacco", 2, 6),
    ("goods", "tobacco", 3, 10),
    ("goods", "tobacco", 3, 10),
    ("trader",),
    ("trader",),
    ("trader",),
    ("trader",),
    ("trader",),
    ("vp", 6, 1),
    ("vp", 8, 1),
    ("vp", 10, 2),
    ("vp", 12, 2),
    ("vp", 15, 3),
    ("vp", 18, 4),
    ("vp", 21, 5),
    ("vp", 24, 6),
    ("vp", 28, 7),
)

BANK: tuple[Card, ...] = (
    ("money", 3),
    ("money", 3),
    ("money", 3),
    ("money", 3),
    ("money", 3),
    ("money", 3),
    ("money", 4),
    ("money", 4),
    ("money", 4),
    ("money", 4),
    ("money", 4),
    ("money", 4),
    ("money", 5),
    ("money", 5),
    ("money", 5),
    ("money", 5),
    ("money", 5),
    ("money", 5),
    ("money", 6),
    ("money", 6),
    ("money", 6),
    ("money", 6),
    ("money", 6),
    ("money", 6),
    ("banker",),
    ("banker",),
    ("banker",),
    ("banker",),
    ("banker",),
    ("vp", 6, 1),
    ("vp", 8, 1),
    ("vp", 10, 2),
    ("vp", 12, 2),
    ("vp", 15, 3),
    ("vp", 18, 4),
    ("vp", 21, 5),
    ("vp", 24, 6),
    ("vp", 28, 7),
)

STARTING_CONTRACTS: tuple[Card, ...] = (
    ("contract", "grain", "GB", 2, 20),
    ("contract", "grain", "FR", 2, 20),
    ("contract", "grain", "NL", 2, 20),
    ("contract", "cotton", "SE", 2, 20),
    ("contract", "cotton", "ES", 2, 20),
    ("contract", "cotton", "DE", 2, 20),
    ("contract", "fur", "GB", 2, 20),
    ("contract", "fur", "FR", 2, 20),
    ("contract", "fur", "NL", 2, 20),
    ("contract", "tobacco", "SE", 2, 20),
    ("contract", "tobacco", "ES", 2, 20),
    ("contract", "tobacco", "DE", 2, 20),
)

DECKS: tuple[tuple[Card, ...], ...] = (GUILDHALL, DOCKS, MARKET, BANK)
"""One deck per board, in the order of :data:`BOARDS`."""
