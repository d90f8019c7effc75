"""Batavia: auctions for ship cards, majorities of laid-out cards, a ship along the trade route.

Vocabulary from the rulebook: promissory notes pay for bids, ship cards are laid out for a
company's seal, the player's ship moves to the next trading post of a sealed company and takes
its trading counter (and places a crate in the warehouse), counters of new companies may be
exchanged for gold, and the Target Counter ends the game.
"""

from __future__ import annotations

from engine.games.batavia import components as K
from ladder.web.narration.base import Narrator, Thing, View, final_scores, plural, who

COMPANY = {"GB": "English", "DK": "Danish", "FR": "French", "NL": "Dutch", "SE": "Swedish"}


def _package(view: View) -> str:
    cards = view.get("package") or {}
    parts = [f"{n} {COMPANY.get(c, c)}" for c, n in cards.items() if n]
    return ", ".join(parts) if parts else "no cards"


def _auction(seat: int, action: str, before: View, after: View) -> str:
    if action == "pass":
        text = f"{who(seat)} passes in the auction"
    else:
        text = f"{who(seat)} bids {plural(int(action[4:]), 'promissory note')}"
    auction = before.get("auction") or {}
    if after.get("phase") != "auction" or after.get("round") != before.get("round"):
        winner = auction.get("high_bidder")
        if action.startswith("bid:"):
            winner = seat
        if winner is not None:
            return (
                f"{text}; Seat {winner} wins the auction and takes the package "
                f"({_package(before)} ship cards)."
            )
    return text + "."


def sentence(seat: int, action: str, before: View, after: View) -> str:
    me = before["players"][seat]
    if before.get("phase") == "auction":
        return _auction(seat, action, before, after)
    if action == "draw":
        got = after["players"][seat]["hand_size"] - me["hand_size"]
        return f"{who(seat)} draws {plural(got, 'ship card')} from the stack."
    if action.startswith("lay:"):
        company = COMPANY[action[4:]]
        laid = after["players"][seat]["laid"][action[4:]]
        article = "an" if company[0] in "AEIOU" else "a"
        return f"{who(seat)} lays out {article} {company} ship card ({laid} {company} laid out)."
    if action == "stop":
        seals = ", ".join(COMPANY[c] for c in after["players"][seat].get("seals", []))
        return f"{who(seat)} stops laying out cards, holding the seals of {seals or 'none'}."
    if action == "move:target":
        return f"{who(seat)} sails to the end of the route and takes the Target Counter."
    if action.startswith("move:"):
        company = COMPANY[action[5:]]
        post = after["players"][seat]["position"]
        spot = before["board"][post]
        goods = spot[1] if isinstance(spot, list) else "goods"
        return (
            f"{who(seat)} sails on the {company} seal to trading post {post + 1} "
            f"and takes the {company} {goods} trading counter."
        )
    if action == "exchange":
        gold = after["players"][seat]["gold"] - me["gold"]
        return f"{who(seat)} exchanges one trading counter of each company held for {gold} gold."
    return f"{who(seat)} keeps the trading counters."


def _leaders(values: list[int]) -> list[int]:
    most = max(values)
    return [i for i, v in enumerate(values) if v == most] if most > 0 else []


def progress(view: View) -> list[float]:
    """The final scoring applied to the public view now: gold from exchanges, warehouse
    majorities, the most promissory notes, the Target Counter and seals held.  Hands are not
    laid out (they are hidden), so seals can still change at the end."""
    final = final_scores(view)
    if final is not None:
        return final
    players = view["players"]
    n = len(players)
    score = [float(p["gold"]) + K.SEAL_GOLD * len(p["seals"]) for p in players]
    for m, commodity in enumerate(K.COMMODITIES):
        crates = [0] * n
        for owner in (view.get("warehouses") or {}).get(commodity, {}).values():
            if owner is not None:
                crates[owner] += 1
        leaders = _leaders(crates)
        sole, shared = K.WAREHOUSE_VALUES[m]
        for p in leaders:
            score[p] += sole if len(leaders) == 1 else shared
    notes = _leaders([p["notes"] for p in players])
    for p in notes:
        score[p] += K.MOST_NOTES_GOLD[0 if len(notes) == 1 else 1]
    if view.get("target_holder") is not None:
        score[view["target_holder"]] += K.TARGET_GOLD
    return score


def _company(key: object) -> str:
    return COMPANY.get(str(key), str(key))


def _spot(spot: object) -> str:
    if isinstance(spot, list) and len(spot) == 2:
        return f"the {_company(spot[0])} {spot[1]} counter"
    return "a face-down counter"


def _seat(seat: object) -> str:
    return f"Seat {seat}"


def _position(post: object) -> str:
    return "in Europe" if isinstance(post, int) and post < 0 else f"at trading post {post + 1}"  # type: ignore[operator]


THINGS = {
    ("auction",): Thing(skip=True),
    ("auction", "passed"): Thing(skip=True),
    ("auction", "high_bid"): Thing("the high bid"),
    ("auction", "high_bidder"): Thing("the high bidder", value=_seat),
    ("auctioneer",): Thing("the auctioneer", value=_seat),
    ("starter",): Thing("the starting player", value=_seat),
    ("round",): Thing(skip=True),
    ("board", "*"): Thing("trading post {0}", value=_spot, key=lambda k: str(k + 1)),
    ("cannon",): Thing("the cannon count"),
    ("deck_size",): Thing("ship cards in the stack"),
    ("stack_from_discards",): Thing("the stack rebuilt from the discards"),
    ("die",): Thing("the die"),
    ("discards", "*"): Thing("discarded {0} ship cards", key=_company),
    ("laid_total",): Thing("ship cards laid out in all"),
    ("package", "*"): Thing("{0} ship cards in the package", key=_company),
    ("players", "*", "counters", "*"): Thing("{owner}'s {1} trading counters", key=_company),
    ("players", "*", "crates_left"): Thing("{owner}'s crates left"),
    ("players", "*", "gold"): Thing("{owner}'s gold"),
    ("players", "*", "hand_size"): Thing("{owner}'s ship cards in hand"),
    ("players", "*", "known_cards", "*"): Thing("{owner}'s known {1} cards in hand", key=_company),
    ("players", "*", "laid", "*"): Thing("{owner}'s laid-out {1} ship cards", key=_company),
    ("players", "*", "notes"): Thing("{owner}'s promissory notes"),
    ("players", "*", "position"): Thing("{owner}'s ship", value=_position),
    ("players", "*", "seals"): Thing("{owner}'s seals", value=_company),
    ("seals", "*"): Thing("the {0} seal", key=_company, value=lambda s: f"with Seat {s}"),
    ("target_holder",): Thing("the Target Counter", value=lambda s: f"with Seat {s}"),
    ("warehouses", "*", "*"): Thing(
        "the {0} warehouse's {1} space", key=_company, value=lambda s: f"Seat {s}'s crate"
    ),
}
SCORE_PARTS = {
    "warehouses": "warehouses",
    "exchanges": "gold from exchanges",
    "notes": "most notes",
    "target": "Target Counter",
    "seals": "seals",
}

NARRATOR = Narrator(
    game="batavia",
    kinds=frozenset({"bid", "pass", "draw", "lay", "stop", "move", "exchange", "keep"}),
    sentence=sentence,
    progress=progress,
    progress_label="score if the game ended now (hands not laid out)",
    things=THINGS,
    score_parts=SCORE_PARTS,
)
