"""Batavia: auctions for ship cards, majorities of laid-out cards, a ship along the trade route.

Vocabulary from the rulebook: promissory notes pay for bids, ship cards are laid out for a
company's seal, the player's ship moves to the next trading post of a sealed company and takes
its trading counter (and places a crate in the warehouse), counters of new companies may be
exchanged for gold, and the Target Counter ends the game.
"""

from __future__ import annotations

from ladder.web.narration.base import Narrator, View, final_scores, plural, who

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
        return f"{who(seat)} lays out a {company} ship card ({laid} {company} laid out)."
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


def progress(view: View) -> list[float]:
    return final_scores(view) or [float(p["gold"]) for p in view["players"]]


NARRATOR = Narrator(
    game="batavia",
    kinds=frozenset({"bid", "pass", "draw", "lay", "stop", "move", "exchange", "keep"}),
    sentence=sentence,
    progress=progress,
    progress_label="gold from exchanges (final score at the end)",
)
