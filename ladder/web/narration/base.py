"""What every game's narration provides, and the helpers the game modules share.

A game module turns one decision into a sentence a reader of the game's rules page follows
("Seat 1 bids 3 promissory notes"), from the engine's action string and the public view
before and after it, and gives each seat's running score (or another measure of progress)
for the replay's chart.  It never sees a seat's hidden cards: sentences are public.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
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
    things: dict[tuple[str, ...], Thing] = field(default_factory=dict)  # change lines' nouns
    score_parts: dict[str, str] = field(default_factory=dict)  # final row key -> words
    tie_breaks: tuple[TieBreak, ...] = ()  # after the total, in the engine's order


@dataclass(frozen=True)
class Thing:
    """How one part of a public view reads in the change lines.

    ``noun`` is a template: ``{0}``, ``{1}``... are the path's wildcard keys (``"*"`` in the
    pattern) read through ``key`` when given, ``{owner}`` the seat a ``players/<n>/...`` path
    belongs to.  ``value`` reads a value ("Seat 2" for a seat number); ``skip`` leaves the
    path out (bookkeeping the sentence already says).  A callable ``noun`` gets the wildcard
    keys and the view after the step (a harbor's name from its slot).
    """

    noun: str | Callable[[list[Any], View], str] = ""
    value: Callable[[Any], str] | None = None
    key: Callable[[Any], str] | None = None
    skip: bool = False


@dataclass(frozen=True)
class TieBreak:
    """A tie-break the game's ranking applies after the total: its words and each seat's value."""

    words: str
    value: Callable[[View, int], float]


def kind_of(action: Any) -> str:
    """The action's kind: ``"bid"`` for ``"bid:3"``, the whole string for ``"pass"``."""
    return action.split(":", 1)[0] if isinstance(action, str) else type(action).__name__


def who(seat: int) -> str:
    """A seat in a sentence; :func:`name_seats` puts the bot's name in its place."""
    return f"Seat {seat}"


SEAT_MENTION = re.compile(r"\bSeat (\d+)\b")


def name_seats(text: str, names: list[str]) -> tuple[str, list[list[int]]]:
    """``text`` with every "Seat N" replaced by seat N's bot name, and where each name is.

    The spans (``[start, end, seat]``) let the viewer colour each name in its seat's colour.
    A seat number without a name stays as it is.
    """
    out: list[str] = []
    spans: list[list[int]] = []
    length = 0
    last = 0
    for found in SEAT_MENTION.finditer(text):
        seat = int(found.group(1))
        if not 0 <= seat < len(names):
            continue
        out.append(text[last : found.start()])
        length += found.start() - last
        spans.append([length, length + len(names[seat]), seat])
        out.append(names[seat])
        length += len(names[seat])
        last = found.end()
    out.append(text[last:])
    return "".join(out), spans


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


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
