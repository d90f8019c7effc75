"""What a step changed: the public view before and after, said in short lines of words.

The viewer lists these under the step's sentence ("Seat 2's gold up from 3 to 5", "Added to
the cards at Bantam: card 36 (2 pepper)"); the game drawings highlight the same paths.  Each
game names the parts of its view in :attr:`Narrator.things` (patterns of view paths with
``"*"`` for any key); a part no game names reads from its keys ("Seat 1's hand size").
Bookkeeping keys (whose turn it is, the phase) are left out: the sentence already says who
acted, and they change on nearly every step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ladder.web.narration.base import Thing, View, number

Words = Callable[[str], str] | None
Things = dict[tuple[str, ...], Thing]

IGNORED = frozenset({"current_player", "phase", "game", "variant", "num_players", "final"})
MAX_LINES = 12
MAX_TEXT = 90


def _text(value: Any, words: Words = None) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return number(value)
    if isinstance(value, list):
        text = ", ".join(_text(v, words) for v in value) if value else "none"
    elif isinstance(value, dict):
        text = ", ".join(
            f"{str(k).replace('_', ' ')} {_text(v, words)}"
            for k, v in value.items()
            if v not in (0, None, [], False)
        )
        text = text or "none"
    elif isinstance(value, str) and words is not None:
        text = words(value)
    else:
        text = str(value).replace("_", " ")
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _match(pattern: tuple[str, ...], path: list[Any]) -> list[Any] | None:
    """The path's keys at the pattern's ``"*"`` places, or None when it does not fit."""
    if len(pattern) != len(path):
        return None
    wild: list[Any] = []
    for want, key in zip(pattern, path, strict=True):
        if want == "*":
            wild.append(key)
        elif want != str(key):
            return None
    return wild


Index = dict[tuple[int, str], list[tuple[tuple[str, ...], Thing]]]
_INDEXES: dict[int, tuple[Things, Index]] = {}


def _index(things: Things) -> Index:
    """The patterns by length and first key, so a path is tried against a few, not all (a
    Batavia replay asks for about 1,500 paths).  Narrators' tables are module constants,
    so the index is kept per table (the table itself is kept with it, so its id stays its)."""
    found = _INDEXES.get(id(things))
    if found is not None and found[0] is things:
        return found[1]
    index: Index = {}
    for pattern, thing in things.items():
        index.setdefault((len(pattern), pattern[0]), []).append((pattern, thing))
    _INDEXES[id(things)] = (things, index)
    return index


def _find(things: Things, path: list[Any]) -> tuple[Thing, list[Any]] | None:
    index = _index(things)
    candidates = index.get((len(path), str(path[0])), []) + index.get((len(path), "*"), [])
    for pattern, thing in candidates:
        wild = _match(pattern, path)
        if wild is not None:
            return thing, wild
    return None


def _generic_noun(path: list[Any]) -> str:
    """A part no game names: ``players/2/hand_size`` reads "Seat 2's hand size"."""
    words: list[str] = []
    for i, key in enumerate(path):
        if isinstance(key, int) and i > 0 and path[i - 1] == "players":
            words[-1] = f"Seat {key}'s"
        elif isinstance(key, int):
            words.append(f"number {key + 1}")
        else:
            words.append(str(key).replace("_", " "))
    return " ".join(words)


def _noun(path: list[Any], things: Things, view: View) -> tuple[str, Thing | None]:
    owner = ""
    rest = path
    if len(path) >= 2 and path[0] == "players" and isinstance(path[1], int):
        owner = f"Seat {path[1]}"
    found = _find(things, path)
    if found is None:
        return _generic_noun(rest), None
    thing, wild = found
    if callable(thing.noun):
        return thing.noun(wild, view), thing
    keys = [thing.key(k) if thing.key else str(k).replace("_", " ") for k in wild]
    return thing.noun.format(*keys, owner=owner), thing


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _line(noun: str, old: Any, new: Any, thing: Thing | None, words: Words) -> str:
    """One change in words: numbers go up or down, lists gain and lose, values are set."""
    value = thing.value if thing and thing.value else None

    def read(x: Any) -> str:
        return value(x) if value is not None and x is not None else _text(x, words)

    lists = isinstance(old, list | type(None)) and isinstance(new, list | type(None))
    if lists and (isinstance(old, list) or isinstance(new, list)):
        # Empty spaces (None) in a row of cards are not cards gained or lost.
        before = Counter(read(v) for v in old or [] if v is not None)
        after = Counter(read(v) for v in new or [] if v is not None)
        added = list((after - before).elements())
        removed = list((before - after).elements())
        parts = []
        if added:
            parts.append(f"added {_text(added)}")
        if removed:
            parts.append(f"removed {_text(removed)}")
        if not parts:
            parts.append("reordered")
        return f"{_capital(noun)}: " + "; ".join(parts) + "."
    both_numbers = all(isinstance(x, int | float) and not isinstance(x, bool) for x in (old, new))
    if both_numbers and value is None:
        way = "up" if new > old else "down"
        return f"{_capital(noun)} {way} from {number(old)} to {number(new)}."
    if old is None:
        return f"{_capital(noun)} now {read(new)}."
    if new is None:
        return f"{_capital(noun)} cleared (was {read(old)})."
    return f"{_capital(noun)} now {read(new)} (was {read(old)})."


def _walk(before: Any, after: Any, path: list[Any], out: list[tuple[list[Any], Any, Any]]) -> None:
    if before == after:
        return
    if isinstance(before, dict) and isinstance(after, dict):
        for key in after.keys() | before.keys():
            if not path and key in IGNORED:
                continue
            _walk(before.get(key), after.get(key), [*path, key], out)
        return
    if (
        isinstance(before, list)
        and isinstance(after, list)
        and len(before) == len(after)
        and any(isinstance(v, dict | list) for v in after)
    ):
        for index, (old, new) in enumerate(zip(before, after, strict=True)):
            _walk(old, new, [*path, index], out)
        return
    out.append((path, before, after))


def changes(
    before: View, after: View, words: Words = None, things: Things | None = None
) -> list[str]:
    """Up to ``MAX_LINES`` lines in words, then how many more changed."""
    things = things or {}
    out: list[tuple[list[Any], Any, Any]] = []
    _walk(before, after, [], out)
    out.sort(key=lambda item: [str(k) for k in item[0]])
    lines: list[str] = []
    for path, old, new in out:
        noun, thing = _noun(path, things, after)
        if thing is not None and thing.skip:
            continue
        lines.append(_line(noun, old, new, thing, words))
    if len(lines) > MAX_LINES:
        more = len(lines) - MAX_LINES
        lines = [*lines[:MAX_LINES], f"… and {more} more change{'s' if more > 1 else ''}."]
    return lines
