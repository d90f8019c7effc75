"""Packet Row's cards as flat lookup tables, and the action strings that name them.

Every physical card gets an integer id (the guildhall, docks, market and bank decks in
that order, then the starting contracts).  The state keeps only ids; these tables give
each id's kind, price and numbers so the hot paths of the engine never build tuples or
parse strings.  Actions name card *kinds*, not ids: two identical cards are one choice.
"""

from __future__ import annotations

from engine.games.packet_row import components as K

CONTRACT, ASSISTANT, VP, SHIP, CAPTAIN, GOLD, GOODS, TRADER, MONEY, BANKER = range(10)
KIND_CODES = {
    "contract": CONTRACT,
    "assistant": ASSISTANT,
    "vp": VP,
    "ship": SHIP,
    "captain": CAPTAIN,
    "gold": GOLD,
    "goods": GOODS,
    "trader": TRADER,
    "money": MONEY,
    "banker": BANKER,
}
NB = len(K.BOARDS)
NG = len(K.GOODS)
ND = len(K.DESTINATIONS)
GOODS_INDEX = {g: i for i, g in enumerate(K.GOODS)}
DEST_INDEX = {d: i for i, d in enumerate(K.DESTINATIONS)}
GUILDHALL, DOCKS, MARKET, BANK = range(NB)

CARDS: tuple[K.Card, ...] = (*K.GUILDHALL, *K.DOCKS, *K.MARKET, *K.BANK, *K.STARTING_CONTRACTS)
NUM_CARDS = len(CARDS)
if NUM_CARDS > 256:
    raise ImportError("card ids must fit in a byte: the state keeps each deck as bytes")
DECK_IDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(range(start, start + len(deck)))
    for start, deck in zip(
        (sum(len(d) for d in K.DECKS[:b]) for b in range(NB)), K.DECKS, strict=True
    )
)
STARTING_IDS: tuple[int, ...] = tuple(range(NUM_CARDS - len(K.STARTING_CONTRACTS), NUM_CARDS))

# Per-id tables.  ``HOME`` is the board whose discard pile the card goes to (starting
# contracts are discarded to the guildhall).
HOME = [GUILDHALL] * NUM_CARDS
for _b, _ids in enumerate(DECK_IDS):
    for _i in _ids:
        HOME[_i] = _b
KIND = [KIND_CODES[str(c[0])] for c in CARDS]
COST = [0] * NUM_CARDS  # price paid to the supply when the card is taken
VP_OF = [0] * NUM_CARDS
VALUE = [0] * NUM_CARDS  # money card value
GOODS_OF = [-1] * NUM_CARDS  # goods type of a goods card or a contract
AMOUNT = [0] * NUM_CARDS  # goods on a goods card, goods a contract needs, nuggets on gold
DEST = [-1] * NUM_CARDS  # destination of a ship or a contract
REWARD = [0] * NUM_CARDS
LABEL = [""] * NUM_CARDS
for _i, _c in enumerate(CARDS):
    _kind = _c[0]
    if _kind == "contract":
        GOODS_OF[_i], DEST[_i] = GOODS_INDEX[str(_c[1])], DEST_INDEX[str(_c[2])]
        AMOUNT[_i], REWARD[_i] = int(_c[3]), int(_c[4])
        LABEL[_i] = f"contract:{_c[1]}:{_c[2]}:{_c[3]}:{_c[4]}"
    elif _kind == "goods":
        GOODS_OF[_i], AMOUNT[_i], COST[_i] = GOODS_INDEX[str(_c[1])], int(_c[2]), int(_c[3])
        LABEL[_i] = f"goods:{_c[1]}:{_c[2]}:{_c[3]}"
    elif _kind == "gold":
        AMOUNT[_i], COST[_i] = int(_c[1]), int(_c[2])
        LABEL[_i] = f"gold:{_c[1]}:{_c[2]}"
    elif _kind == "vp":
        COST[_i], VP_OF[_i] = int(_c[1]), int(_c[2])
        LABEL[_i] = f"vp:{_c[1]}:{_c[2]}"
    elif _kind == "ship":
        DEST[_i] = DEST_INDEX[str(_c[1])]
        LABEL[_i] = f"ship:{_c[1]}"
    elif _kind == "money":
        VALUE[_i] = int(_c[1])
        LABEL[_i] = f"money:{_c[1]}"
    else:
        LABEL[_i] = str(_kind)
IS_STARTING = [False] * NUM_CARDS
for _i in STARTING_IDS:
    IS_STARTING[_i] = True

# ---------------------------------------------------------------------- action strings
AREA_ACT = tuple(f"area:{b}" for b in K.BOARDS)
MAX_CURRENT = max(K.CURRENT_SUPPLY.values())
TAKE_ACT = tuple(tuple(f"take:{b}:{i}" for i in range(MAX_CURRENT)) for b in K.BOARDS)
ASSIST_ACT = tuple(tuple(f"assist:{b}:{j}" for j in range(K.FUTURE_SUPPLY)) for b in K.BOARDS)
MONEY_VALUES = sorted({VALUE[i] for i in range(NUM_CARDS) if KIND[i] == MONEY})
CASH_ACT = {v: f"cash:{v}" for v in MONEY_VALUES}
CONTRACT_LABELS = sorted({LABEL[i] for i in range(NUM_CARDS) if KIND[i] == CONTRACT})
CONTRACT_ORDER = {label: k for k, label in enumerate(CONTRACT_LABELS)}
SHIP_ACT = tuple(f"ship:{d}" for d in K.DESTINATIONS)
CAPTAIN_ACT = tuple(f"captain:{d}" for d in K.DESTINATIONS)
GOODS_KINDS = sorted({(GOODS_OF[i], AMOUNT[i]) for i in range(NUM_CARDS) if KIND[i] == GOODS})
GOODS_ACT = {(g, a): f"goods:{K.GOODS[g]}:{a}" for g, a in GOODS_KINDS}
TRADE_ACT = {
    (g, a, t): f"trade:{K.GOODS[g]}:{a}:{K.GOODS[t]}"
    for g, a in GOODS_KINDS
    for t in range(NG)
    if t != g
}
GOLD_ACT = {
    (n, g): f"gold{n}:{K.GOODS[g]}"
    for n in sorted({AMOUNT[i] for i in range(NUM_CARDS) if KIND[i] == GOLD})
    for g in range(NG)
}
PASS, DONE, SAIL = "pass", "done", "sail"

# What each action string means, so ``apply`` never parses: (verb, *numbers).
ACTION_INFO: dict[str, tuple] = {PASS: ("pass",), DONE: ("done",), SAIL: ("sail",)}
for _b in range(NB):
    ACTION_INFO[AREA_ACT[_b]] = ("area", _b)
    for _i, _a in enumerate(TAKE_ACT[_b]):
        ACTION_INFO[_a] = ("take", _b, _i)
    for _j, _a in enumerate(ASSIST_ACT[_b]):
        ACTION_INFO[_a] = ("assist", _b, _j)
for _v, _a in CASH_ACT.items():
    ACTION_INFO[_a] = ("cash", _v)
for _label in CONTRACT_LABELS:
    ACTION_INFO[_label] = ("contract", _label)
for _d in range(ND):
    ACTION_INFO[SHIP_ACT[_d]] = ("ship", _d)
    ACTION_INFO[CAPTAIN_ACT[_d]] = ("captain", _d)
for (_g, _n), _a in GOODS_ACT.items():
    ACTION_INFO[_a] = ("goods", _g, _n)
for (_g, _n, _t), _a in TRADE_ACT.items():
    ACTION_INFO[_a] = ("trade", _g, _n, _t)
for (_n, _g), _a in GOLD_ACT.items():
    ACTION_INFO[_a] = ("gold", _n, _g)


def action_vocabulary(num_players: int) -> list[str]:
    """Every action that can be legal at a table of ``num_players`` (stable order)."""
    slots = K.CURRENT_SUPPLY[num_players]
    actions = [PASS, DONE, SAIL, *AREA_ACT]
    for b in range(NB):
        actions.extend(TAKE_ACT[b][:slots])
        actions.extend(ASSIST_ACT[b])
    actions.extend(CASH_ACT.values())
    actions.extend(CONTRACT_LABELS)
    actions.extend(SHIP_ACT)
    actions.extend(CAPTAIN_ACT)
    actions.extend(GOODS_ACT.values())
    actions.extend(TRADE_ACT.values())
    actions.extend(GOLD_ACT.values())
    return actions


def card_ids(label: str) -> list[int]:
    """Ids of every card printed as ``label`` (for tests and tools building positions)."""
    return [i for i in range(NUM_CARDS) if LABEL[i] == label]
