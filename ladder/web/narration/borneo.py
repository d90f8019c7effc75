"""Borneo: merchants in four companies, shipment cards sent to harbors, spices and missions.

Cards are named by their spice and how many spices they count as ("card 36, 2 pepper"), the
way a player reads the printed card; harbors by their names.  The running score is the final
scoring applied now: one point per shipment card and harbor card in the warehouse, mission
points, minus the pirate ship's penalty.
"""

from __future__ import annotations

from engine.games.borneo import components as K
from ladder.web.narration.base import Narrator, View, final_scores, who

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
)
