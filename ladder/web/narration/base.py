"""What every game's narration provides, and the helpers the game modules share.

A game module turns one decision into a sentence a reader of the game's rules page follows
("Seat 1 bids 3 promissory notes"), from the engine's action string and the public view
before and after it, and gives each seat's running score (or another measure of progress)
for the replay's chart.  It never sees a seat's hidden cards: sentences are public.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

View = dict[str, Any]
SentenceFn = Callable[[int, str, View, View], str]
ProgressFn = Callable[[View], list[float]]


@dataclass(frozen=True)
class Narrator:
    """One game's narration: ``sentence(seat, action, before, after)`` and ``progress(view)``.

    ``kinds`` lists the action kinds (the text before the first colon) the module knows;
    ``progress_label`` says what ``progress`` measures (it is the chart's axis title);
    ``words`` turns a string value of a view into words for the change lines.
    """

    game: str
    kinds: frozenset[str]
    sentence: SentenceFn
    progress: ProgressFn
    progress_label: str
    words: Callable[[str], str] | None = None  # how a bare id in a view reads (card labels)


def kind_of(action: Any) -> str:
    """The action's kind: ``"bid"`` for ``"bid:3"``, the whole string for ``"pass"``."""
    return action.split(":", 1)[0] if isinstance(action, str) else type(action).__name__


def who(seat: int) -> str:
    return f"Seat {seat}"


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def raw(seat: int, action: Any) -> str:
    """The sentence for an action a narrator does not know (a newer engine, a damaged log)."""
    return f"{who(seat)} plays {action!r}."


def final_scores(view: View) -> list[float] | None:
    """The final score rows' totals once the game is scored (every engine's ``final`` key)."""
    final = view.get("final")
    if isinstance(final, list) and final and all(isinstance(r, dict) for r in final):
        return [float(row.get("total", 0)) for row in final]
    return None
