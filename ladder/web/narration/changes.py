"""What a step changed: the public view before and after, as short readable lines.

The viewer lists these under the step's sentence ("Seat 1 · gold: 3 → 5"), and the game
drawings highlight the same paths.  Bookkeeping keys (whose turn it is, the phase) are left
out: the sentence already says who acted, and they change on nearly every step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ladder.web.narration.base import View

Words = Callable[[str], str] | None

IGNORED = frozenset({"current_player", "phase", "game", "variant", "num_players", "final"})
MAX_LINES = 12
MAX_TEXT = 60


def _text(value: Any, words: Words = None) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        text = ", ".join(_text(v, words) for v in value) if value else "none"
    elif isinstance(value, dict):
        text = ", ".join(
            f"{k} {_text(v, words)}" for k, v in value.items() if v not in (0, None, [])
        )
        text = text or "none"
    elif isinstance(value, str) and words is not None:
        text = words(value)
    else:
        text = str(value)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def _line(label: str, old: Any, new: Any, words: Words = None) -> str:
    """``label: old → new``; a long list says what was added and removed instead."""
    if isinstance(old, list) and isinstance(new, list) and max(len(old), len(new)) > 4:
        try:
            before = Counter(_text(v, words) for v in old)
            after = Counter(_text(v, words) for v in new)
        except TypeError:
            before = after = Counter()
        added, removed = list((after - before).elements()), list((before - after).elements())
        parts = [f"{len(old)} → {len(new)}"]
        if added:
            parts.append(_text(["+ " + a for a in added]))
        if removed:
            parts.append(_text(["- " + r for r in removed]))
        return f"{label}: " + "; ".join(parts)
    return f"{label}: {_text(old, words)} → {_text(new, words)}"


def _label(path: list[Any]) -> str:
    words: list[str] = []
    for i, key in enumerate(path):
        if isinstance(key, int) and i > 0 and path[i - 1] == "players":
            words[-1] = f"Seat {key}"
        elif isinstance(key, int):
            words.append(f"#{key + 1}")
        else:
            words.append(str(key).replace("_", " "))
    return " · ".join(words)


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


def changed_paths(before: View, after: View) -> list[list[Any]]:
    """Every changed leaf's path, in a stable order (for the drawings' highlights)."""
    out: list[tuple[list[Any], Any, Any]] = []
    _walk(before, after, [], out)
    return sorted((p for p, _, _ in out), key=lambda p: [str(k) for k in p])


def changes(before: View, after: View, words: Words = None) -> list[str]:
    """Up to ``MAX_LINES`` lines "label: old → new", then how many more changed."""
    out: list[tuple[list[Any], Any, Any]] = []
    _walk(before, after, [], out)
    out.sort(key=lambda item: [str(k) for k in item[0]])
    lines = [_line(_label(p), old, new, words) for p, old, new in out[:MAX_LINES]]
    if len(out) > MAX_LINES:
        lines.append(f"… and {len(out) - MAX_LINES} more changes")
    return lines
