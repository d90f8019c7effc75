"""Replays that read like a game: one narration module per game behind :class:`Narrator`.

:func:`narrator_for` gives the game's narrator; :func:`narrate` never raises for an action it
does not know (it falls back to the raw action), so an old log still replays.
"""

from __future__ import annotations

from typing import Any

from ladder.web.narration import batavia, borneo, east_indiaman, packet_row
from ladder.web.narration.base import Narrator, View, kind_of, name_seats, raw
from ladder.web.narration.changes import changes
from ladder.web.narration.result import result_line

__all__ = [
    "NARRATORS",
    "Narrator",
    "changes",
    "name_seats",
    "narrate",
    "narrator_for",
    "progress",
    "result",
]

NARRATORS: dict[str, Narrator] = {
    n.game: n
    for n in (batavia.NARRATOR, east_indiaman.NARRATOR, borneo.NARRATOR, packet_row.NARRATOR)
}


def narrator_for(game: str) -> Narrator | None:
    return NARRATORS.get(game)


def narrate(game: str, seat: int, action: Any, before: View, after: View) -> str:
    """One sentence for one decision; the raw action when the game or the kind is unknown."""
    narrator = NARRATORS.get(game)
    if narrator is None or not isinstance(action, str) or kind_of(action) not in narrator.kinds:
        return raw(seat, action)
    try:
        text = narrator.sentence(seat, action, before, after)
    except (KeyError, IndexError, ValueError, TypeError):
        return raw(seat, action)  # a view that does not look as expected: say what was played
    return text + consequences(before, after)


def result(game: str, view: View, ranking: list[int] | None) -> str | None:
    """The result line once the view is scored ("Result: 1st Seat 2 with 47 (...)..."),
    with seats as "Seat N" for :func:`name_seats`; None before the end or for another game."""
    narrator = NARRATORS.get(game)
    if narrator is None:
        return None
    try:
        return result_line(view, ranking, narrator)
    except (KeyError, IndexError, ValueError, TypeError):
        return None


def consequences(before: View, after: View) -> str:
    """What the decision set off beyond itself: a new round, the end of the game."""
    if after.get("final") and not before.get("final"):
        return " The game ends and is scored."
    new_round = after.get("round")
    if isinstance(new_round, int) and new_round != before.get("round"):
        return f" Round {new_round} begins."
    return ""


def progress(game: str, view: View) -> list[float] | None:
    narrator = NARRATORS.get(game)
    if narrator is None:
        return None
    try:
        return narrator.progress(view)
    except (KeyError, IndexError, ValueError, TypeError):
        return None
