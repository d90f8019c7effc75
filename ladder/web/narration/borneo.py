"""Borneo: merchants in four companies, shipment cards sent to harbors, spices and missions.

Cards are named by their spice and how many spices they count as ("card 36, 2 pepper"), the
way a player reads the printed card; harbors by their names.  The running score is the final
scoring applied now: one point per shipment card and harbor card in the warehouse, mission
points, minus the pirate ship's penalty.
"""

from __future__ import annotations

from typing import Any

from engine.games.borneo import components as K
from ladder.web.narration.base import Narrator, Thing, TieBreak, View, final_scores, who

CARDS = {card_id: (spice, count) for card_id, _top, _bottom, spice, count in K.SHIPMENT_CARDS}
HARBOR_NAMES = tuple(h[0] for h in K.HARBORS)
MISSION_NAMES = {
    "one_of_each": "one spice of each kind",
    "two_of_each": "two spices of each kind",
    "three_of_each": "three spices of each kind",
    "four_same": "four spices of one kind",
    "eight_same": "eight spices of one kind",
}


def card(card_id: int | str) -> str:
    spice, count = CARDS[int(card_id)]
    return f"card {card_id} ({count} {spice})"


def _item(code: str) -> str:
    """``s36`` is shipment card 36, ``h3`` harbor card 3 (both from the warehouse)."""
    if code.startswith("s"):
        return f"shipment {card(code[1:])}"
    return f"the {HARBOR_NAMES[int(code[1:])]} harbor card"


def _rank(company: str, rank: str) -> str:
    return f"the {company} company's rank-{rank} merchant"


def sentence(seat: int, action: str, before: View, after: View) -> str:
    parts = action.split(":")
    kind = parts[0]
    if kind == "place":
        return f"{who(seat)} places a merchant in the {parts[1]} company."
    if kind == "stay":
        return f"{who(seat)} leaves the merchants where they are."
    if kind == "move":
        return f"{who(seat)} moves {_rank(parts[1], parts[2])} over to the {parts[3]} company."
    if kind == "attack":
        defender = before["companies"][parts[1]][int(parts[3]) - 1]
        return (
            f"{who(seat)} attacks with {_rank(parts[1], parts[2])} against Seat {defender}'s "
            f"rank-{parts[3]} merchant."
        )
    if kind == "fight":
        return f"{who(seat)} plays {card(parts[1])} into the fight."
    if kind == "fight-done":
        return f"{who(seat)} stops adding cards to the attack."
    if kind == "defend":
        return f"{who(seat)} defends with {card(parts[1])}."
    if kind == "defend-done":
        return f"{who(seat)} adds no more cards to the defence."
    if kind == "retreat":
        if parts[1] == "stay":
            return f"{who(seat)}, beaten, takes the attacker's old place."
        return f"{who(seat)}, beaten, retreats to the {parts[1]} company."
    if kind == "reward":
        return f"{who(seat)} wins the defence and keeps {card(parts[1])} in the warehouse."
    if kind == "no-reward":
        return f"{who(seat)} wins the defence and keeps no card."
    if kind == "ship":
        harbor = before["harbors"][int(parts[2])] or {}
        return f"{who(seat)} ships {card(parts[1])} to {harbor.get('name', 'a harbor')}."
    if kind == "take":
        return f"{who(seat)} takes {card(parts[1])} into the warehouse."
    if kind == "discard":
        return f"{who(seat)} discards {card(parts[1])} down to the hand limit."
    if kind == "mission":
        name = MISSION_NAMES.get(parts[1], parts[1].replace("_", " "))
        spice = f" ({parts[2]})" if len(parts) > 2 else ""
        return f"{who(seat)} takes on a mission: {name}{spice}."
    if kind == "no-mission":
        return f"{who(seat)} takes no mission."
    if kind == "pay":
        return f"{who(seat)} pays {_item(parts[1])} towards the mission."
    return f"{who(seat)} trades {_item(parts[1])} with the pirates as a spice of any kind."


def progress(view: View) -> list[float]:
    final = final_scores(view)
    if final is not None:
        return final
    return [
        float(
            len(p["warehouse_cards"])
            + len(p["warehouse_harbors"])
            + p["mission_points"]
            - (K.PIRATE_PENALTY if p["pirate_ship"] else 0)
        )
        for p in view["players"]
    ]


def _seat(seat: object) -> str:
    return f"Seat {seat}"


def _card(card_id: object) -> str:
    try:
        return card(card_id)  # type: ignore[arg-type]
    except (KeyError, ValueError, TypeError):
        return f"card {card_id}"


def _harbor(slot: object, view: View) -> str:
    harbors = view.get("harbors") or []
    spot = harbors[slot] if isinstance(slot, int) and slot < len(harbors) else None
    return spot["name"] if isinstance(spot, dict) else f"harbor slot {slot}"


def _at_harbor(what: str) -> Any:
    return lambda wild, view: what.format(*wild[1:], harbor=_harbor(wild[0], view))


def _distribution(d: object) -> str:
    if not isinstance(d, dict):
        return str(d)
    company = f" of the {d['company']} company" if d.get("company") else ""
    return f"a {str(d.get('kind', '')).replace('_', ' ')} share{company}"


def _fight(f: object) -> str:
    if not isinstance(f, dict):
        return str(f)
    return f"Seat {f.get('attacker')} attacking in the {f.get('company')} company"


def _payment(p: object) -> str:
    if not isinstance(p, dict):
        return str(p)
    return f"paying for {MISSION_NAMES.get(p.get('mission', ''), 'a mission')}"


THINGS = {
    ("turn_player",): Thing(skip=True),
    ("last_round_order",): Thing(skip=True),
    ("companies", "*"): Thing("the {0} company's merchants", value=lambda s: f"Seat {s}'s"),
    ("deck_size",): Thing("shipment cards in the deck"),
    ("harbor_deck_size",): Thing("harbor cards in the deck"),
    ("discards",): Thing("the discard pile", value=_card),
    ("distribution",): Thing("the distribution", value=_distribution),
    ("distribution", "cards"): Thing("cards left to share out", value=_card),
    ("distribution", "pickers"): Thing("players still to pick a card", value=_seat),
    ("fight",): Thing("the fight", value=_fight),
    ("fight", "attacker_cards"): Thing("the attacker's cards", value=_card),
    ("fight", "defender_cards"): Thing("the defender's cards", value=_card),
    ("fight", "winner"): Thing("the fight's winner"),
    ("harbors",): Thing("the open harbors", value=lambda h: h["name"] if h else "none"),
    ("harbors", "*"): Thing(
        "harbor slot {0}", key=lambda k: str(k + 1), value=lambda h: f"{h['name']} ({h['spice']})"
    ),
    ("harbors", "*", "cards"): Thing(_at_harbor("the cards shipped to {harbor}"), value=_card),
    ("harbors", "*", "card_limit"): Thing(_at_harbor("{harbor}'s card limit")),
    ("harbors", "*", "flags", "*"): Thing(_at_harbor("the {0} flags at {harbor}")),
    ("harbors", "*", "monopoly"): Thing(_at_harbor("{harbor}'s monopoly mark")),
    ("harbors", "*", "name"): Thing(_at_harbor("the harbor in slot {harbor}"), skip=True),
    ("harbors", "*", "spice"): Thing(_at_harbor("{harbor}'s spice")),
    ("missions_on_board", "*"): Thing(
        "missions of {0} left", key=lambda k: MISSION_NAMES.get(str(k), str(k))
    ),
    ("payment",): Thing("the mission payment", value=_payment),
    ("payment", "cards_paid"): Thing("cards paid towards the mission", value=_card),
    ("payment", "harbors_paid"): Thing("harbor cards paid towards the mission"),
    ("payment", "still_needed", "*"): Thing("{0} still needed for the mission"),
    ("payment", "wild_paid"): Thing("spices paid with the pirates' help"),
    ("pirate_ship",): Thing("the pirate ship", value=lambda s: f"with Seat {s}"),
    ("players", "*", "hand_size"): Thing("{owner}'s cards in hand"),
    ("players", "*", "mission_points"): Thing("{owner}'s mission points"),
    ("players", "*", "missions"): Thing(
        "{owner}'s missions", value=lambda m: MISSION_NAMES.get(str(m), str(m))
    ),
    ("players", "*", "warehouse_cards"): Thing("{owner}'s warehouse", value=_card),
    ("players", "*", "warehouse_harbors"): Thing("{owner}'s harbor cards"),
}

NARRATOR = Narrator(
    game="borneo",
    kinds=frozenset(
        {
            "place",
            "stay",
            "move",
            "attack",
            "fight",
            "fight-done",
            "defend",
            "defend-done",
            "retreat",
            "reward",
            "no-reward",
            "ship",
            "take",
            "discard",
            "mission",
            "no-mission",
            "pay",
            "trade",
        }
    ),
    sentence=sentence,
    progress=progress,
    progress_label="score if the game ended now",
    things=THINGS,
    score_parts={
        "shipment_cards": "shipment cards",
        "harbors": "harbor cards",
        "missions": "missions",
        "pirate_ship": "pirate ship",
    },
    tie_breaks=(TieBreak("missions done", lambda view, p: len(view["players"][p]["missions"])),),
)
