"""East Indiaman: ships to harbors for cargo, exchanges, orders, investments and trade posts.

The running score is what the game's scoring would give if it ended now (orders within the
investment levels, trade-post influence, arms), from the same engine functions that score it.
"""

from __future__ import annotations

from engine.games.east_indiaman.state import arms_points, influence_points, order_points
from ladder.web.narration.base import (
    Narrator,
    Thing,
    TieBreak,
    View,
    final_scores,
    plural,
    who,
)

TRADE_GOODS = ("spice", "silk", "tea", "china")


def _ships_spent(seat: int, before: View, after: View) -> int:
    b, a = before["players"][seat], after["players"][seat]
    return max(0, (b["reserve"] + b["supply"]) - (a["reserve"] + a["supply"]))


def sentence(seat: int, action: str, before: View, after: View) -> str:
    parts = action.split(":")
    kind = parts[0]
    if kind == "buy":
        cargo = parts[1]
        ships = _ships_spent(seat, before, after)
        return (
            f"{who(seat)} sends {plural(ships, 'ship')} to the {cargo} harbor "
            f"and loads 1 {cargo} into the hold."
        )
    if kind == "exchange":
        give, get = parts[1], parts[2]
        b, a = before["players"][seat]["hold"], after["players"][seat]["hold"]
        paid, got = b[give] - a[give], a[get] - b[get]
        return f"{who(seat)} exchanges {paid} {give} for {got} {get}."
    if kind == "order":
        return f"{who(seat)} completes order card {parts[1]} from the display."
    if kind == "invest":
        level = after["players"][seat]["levels"][parts[1]]
        return f"{who(seat)} invests in {parts[1]}, raising it to level {level}."
    if kind == "post":
        cargo, ships = parts[1], int(parts[2])
        price = after["prices"][cargo]
        return (
            f"{who(seat)} builds a trade post on the {cargo} coast with "
            f"{plural(ships, 'ship')}; the {cargo} price rises to {price}."
        )
    if kind == "lower":
        return f"{who(seat)} lowers the {parts[1]} price to {after['prices'][parts[1]]}."
    if kind == "smuggle":
        return f"{who(seat)} smuggles opium with {plural(int(parts[1]), 'ship')}."
    token = "the opium marker" if parts[1] == "opium" else f"the {parts[1]} raid token"
    return f"{who(seat)} passes for the round and takes {token}."


def progress(view: View) -> list[float]:
    final = final_scores(view)
    if final is not None:
        return final
    players = view["players"]
    posts = [[p["posts"][c] for c in TRADE_GOODS] for p in players]
    influence = influence_points(posts)
    arms = arms_points([p["arms"] for p in players])
    return [
        float(
            order_points([p["levels"][c] for c in TRADE_GOODS], list(p["completed"]))
            + influence[i]
            + arms[i]
        )
        for i, p in enumerate(players)
    ]


def _seat(seat: object) -> str:
    return f"Seat {seat}"


def _order(card: object) -> str:
    return f"order card {card}"


THINGS = {
    ("actions_done",): Thing(skip=True),
    ("round",): Thing(skip=True),
    ("deck_cards",): Thing(skip=True),
    ("alert", "*", "ships"): Thing(
        "ships on pirate alert space {0}", key=lambda k: str(k + 1), value=_seat
    ),
    ("alert", "*", "token"): Thing("the token on pirate alert space {0}", key=lambda k: str(k + 1)),
    ("areas", "*"): Thing("the {0} coast's trade-post spots", value=lambda s: f"Seat {s}'s post"),
    ("deck_size",): Thing("order cards in the deck"),
    ("discards",): Thing("the discarded orders", value=_order),
    ("display",): Thing("the order display", value=_order),
    ("first_player",): Thing("the first player", value=_seat),
    ("raised",): Thing("the price raised this round"),
    ("prices", "*"): Thing("the {0} price"),
    ("players", "*", "arms"): Thing("{owner}'s arms level"),
    ("players", "*", "completed"): Thing("{owner}'s completed orders", value=_order),
    ("players", "*", "harbor", "*"): Thing("{owner}'s ships at the {1} harbor"),
    ("players", "*", "hold", "*"): Thing("{owner}'s {1} in the hold"),
    ("players", "*", "levels", "*"): Thing("{owner}'s {1} investment level"),
    ("players", "*", "opium_ships"): Thing("{owner}'s opium ships"),
    ("players", "*", "passed"): Thing(skip=True),
    ("players", "*", "raid"): Thing("{owner}'s raid token"),
    ("players", "*", "reserve"): Thing("{owner}'s ships in reserve"),
    ("players", "*", "supply"): Thing("{owner}'s ships in supply"),
    ("players", "*", "spots_taken"): Thing("{owner}'s harbor spots taken"),
    ("players", "*", "posts", "*"): Thing("{owner}'s trade posts on the {1} coast"),
}

NARRATOR = Narrator(
    game="east_indiaman",
    kinds=frozenset({"buy", "exchange", "order", "invest", "post", "lower", "smuggle", "pass"}),
    sentence=sentence,
    progress=progress,
    progress_label="score if the game ended now",
    things=THINGS,
    score_parts={"orders": "orders", "influence": "influence", "arms": "arms"},
    tie_breaks=(
        TieBreak("arms level", lambda view, p: view["players"][p]["arms"]),
        TieBreak("influence points", lambda view, p: view["final"][p]["influence"]),
    ),
)
