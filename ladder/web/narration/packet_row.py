"""Packet Row: the harbour master picks a board, players take cards, contracts are shipped.

Card labels (``goods:cotton:2:6``) become the card as printed ("2 cotton for $6"); a
fulfilment's small steps (contracts, ships, goods) each get their own sentence.  Progress is
each player's money, the one running total the public view shows (VP cards are in hands);
the final score replaces it at the end.
"""

from __future__ import annotations

from ladder.web.narration.base import Narrator, Thing, TieBreak, View, plural, who

DESTINATION = {
    "GB": "England",
    "FR": "France",
    "NL": "the Netherlands",
    "SE": "Sweden",
    "ES": "Spain",
    "DE": "Germany",
}


def contract(goods: str, dest: str, amount: str, reward: str) -> str:
    return f"a contract for {amount} {goods} to {DESTINATION.get(dest, dest)} paying ${reward}"


def describe_card(label: str | None, *, with_cost: bool = True) -> str:
    """A card label as a player would read the card (its price left out on request)."""
    if not label:
        return "an empty space"
    parts = label.split(":")
    kind = parts[0]
    if kind == "contract":
        return contract(*parts[1:5])
    price = f" (costs ${parts[-1]})" if with_cost and kind in ("goods", "gold") else ""
    if kind == "goods":
        return f"{parts[2]} {parts[1]}{price}"
    if kind == "gold":
        return f"{plural(int(parts[1]), 'gold nugget')}{price}"
    if kind == "vp":
        return f"a {parts[2]}-VP card" + (f" (costs ${parts[1]})" if with_cost else "")
    if kind == "ship":
        return f"a ship to {DESTINATION.get(parts[1], parts[1])}"
    if kind == "money":
        return f"a ${parts[1]} money card"
    return f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}"


def short_card(label: str) -> str:
    """A card label in a few words for the change lines ("2 cotton $6", "ship to France")."""
    parts = label.split(":")
    kind = parts[0]
    try:
        if kind == "contract":
            goods, dest, amount, reward = parts[1:5]
            return f"contract {amount} {goods} to {DESTINATION.get(dest, dest)} ${reward}"
        if kind == "goods":
            return f"{parts[2]} {parts[1]} ${parts[3]}"
        if kind == "gold":
            return f"{parts[1]} gold ${parts[2]}"
        if kind == "vp":
            return f"{parts[2]} VP ${parts[1]}"
        if kind == "ship":
            return f"ship to {DESTINATION.get(parts[1], parts[1])}"
        if kind == "money":
            return f"${parts[1]} money"
    except (IndexError, ValueError):
        return label
    return label


def _cost_note(seat: int, before: View, after: View) -> str:
    paid = before["players"][seat]["money"] - after["players"][seat]["money"]
    return f" for ${paid}" if paid > 0 else ""


def sentence(seat: int, action: str, before: View, after: View) -> str:
    parts = action.split(":")
    kind = parts[0]
    if kind == "area":
        return f"{who(seat)}, the harbour master, chooses the {parts[1]}."
    if kind in ("take", "assist"):
        board = before["boards"][parts[1]]
        row = board["current" if kind == "take" else "future"]
        cost = _cost_note(seat, before, after)
        taken = describe_card(row[int(parts[2])], with_cost=not cost)
        if kind == "take":
            return f"{who(seat)} takes {taken} from the {parts[1]}{cost}."
        return (
            f"{who(seat)} uses an assistant to take {taken} from the {parts[1]}'s "
            f"future supply{cost}."
        )
    if kind == "pass":
        if before.get("phase") == "area":
            return f"{who(seat)}, the harbour master, ends the round."
        return f"{who(seat)} passes."
    if kind == "cash":
        return f"{who(seat)} cashes a ${parts[1]} money card."
    if kind == "contract":
        return f"{who(seat)} chooses {contract(*parts[1:5])} to fulfil."
    if kind == "done":
        return f"{who(seat)} is done for the round."
    if kind == "sail":
        return f"{who(seat)} sets sail with the chosen contracts."
    if kind == "ship":
        return f"{who(seat)} uses an own ship to {DESTINATION.get(parts[1], parts[1])}."
    if kind == "captain":
        return f"{who(seat)} hires a captain to sail to {DESTINATION.get(parts[1], parts[1])}."
    if kind == "goods":
        return f"{who(seat)} loads a goods card of {parts[2]} {parts[1]}."
    if kind == "trade":
        return f"{who(seat)} loads {parts[2]} {parts[1]} with a trader, as {parts[3]}."
    if kind == "gold1":
        return f"{who(seat)} pays a single gold nugget as {parts[1]}."
    return f"{who(seat)} pays a double gold nugget as {parts[1]}."


def progress(view: View) -> list[float]:
    """Money in $ throughout, the final step included: victory points are hidden in hands
    until the end, and one chart must keep one unit (the result line gives the VP)."""
    final = view.get("final")
    if isinstance(final, list) and len(final) == len(view["players"]):
        return [float(row.get("money", 0)) for row in final]
    return [float(p["money"]) for p in view["players"]]


def _piece(piece: object) -> str:
    if not isinstance(piece, dict):
        return str(piece)
    slot = piece.get("slot")
    space = f", space {slot + 1}" if isinstance(slot, int) else ""
    return f"on the {piece.get('board')}'s {piece.get('supply')} supply{space}"


def _seat(seat: object) -> str:
    return f"Seat {seat}"


THINGS = {
    ("round",): Thing(skip=True),
    ("harbour_master_must_take",): Thing(skip=True),
    ("boards", "*", "chosen"): Thing(skip=True),
    ("boards", "*", "not_properly_refilled"): Thing(skip=True),
    ("area",): Thing("the chosen board"),
    ("boards", "*", "current"): Thing("the {0}'s current supply"),
    ("boards", "*", "future"): Thing("the {0}'s future supply"),
    ("boards", "*", "deck_size"): Thing("cards in the {0}'s deck"),
    ("boards", "*", "discards"): Thing("the {0}'s discards"),
    ("fulfilment",): Thing(
        "the fulfilment", value=lambda f: "under way" if isinstance(f, dict) else str(f)
    ),
    ("fulfilment", "contracts"): Thing("contracts being fulfilled"),
    ("fulfilment", "ships"): Thing(
        "ships sailing", value=lambda s: f"to {DESTINATION.get(s.get('destination'), '?')}"
    ),
    ("fulfilment", "goods"): Thing(
        "goods loaded", value=lambda g: short_card(g.get("card", "")) if isinstance(g, dict) else g
    ),
    ("fulfilment", "destinations_waiting"): Thing(
        "destinations still to sail to", value=lambda d: DESTINATION.get(d, d)
    ),
    ("fulfilment", "still_owed", "*"): Thing("{0} still owed"),
    ("game_ending",): Thing("the game's end", value=lambda b: "triggered" if b else "not yet"),
    ("harbour_master",): Thing("the harbour master", value=_seat),
    ("players", "*", "hand_size"): Thing("{owner}'s cards in hand"),
    ("players", "*", "hidden_cards"): Thing("{owner}'s hidden cards"),
    ("players", "*", "known_hand"): Thing("{owner}'s known cards"),
    ("players", "*", "money"): Thing("{owner}'s money in $"),
    ("players", "*", "piece"): Thing("{owner}'s piece", value=_piece),
    ("players", "*", "ships"): Thing("{owner}'s ships"),
    ("supply_money",): Thing("money in the bank in $"),
}


NARRATOR = Narrator(
    game="packet_row",
    kinds=frozenset(
        {
            "area",
            "take",
            "assist",
            "pass",
            "cash",
            "contract",
            "done",
            "sail",
            "ship",
            "captain",
            "goods",
            "trade",
            "gold1",
            "gold2",
        }
    ),
    sentence=sentence,
    progress=progress,
    progress_label="money in $ (victory points are hidden until the end: see the result)",
    words=short_card,
    things=THINGS,
    score_parts={"vp_cards": "VP cards", "banker_vp": "bankers", "money_vp": "money"},
    tie_breaks=(TieBreak("money left in $", lambda view, p: view["final"][p]["money"]),),
)
