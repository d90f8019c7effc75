"""The result line a replay ends with: places, final scores, what made them, and tie-breaks.

Read from the final public view (every engine's ``final`` rows, with the points per part) and
the engine's ranking (1 = best, equal places shared).  When totals are equal, the game's own
tie-breaks (:attr:`Narrator.tie_breaks`, in the engine's order) say who went ahead, or that the
seats share the place because nothing separates them.
"""

from __future__ import annotations

from ladder.web.narration.base import Narrator, View, number, ordinal


def _listing(seats: list[int]) -> str:
    named = [f"Seat {s}" for s in seats]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


def _breakdown(row: dict[str, object], narrator: Narrator) -> str:
    parts = []
    for key, words in narrator.score_parts.items():
        value = row.get(key)
        if isinstance(value, int | float) and value:
            parts.append(f"{words} {number(value)}")
    return ", ".join(parts) if parts else "nothing scored"


def _ties(view: View, totals: list[float], ranking: list[int], narrator: Narrator) -> list[str]:
    """One sentence per group of seats with the same total."""
    lines = []
    for total in sorted(set(totals), reverse=True):
        seats = [s for s, t in enumerate(totals) if t == total]
        if len(seats) < 2:
            continue
        seats.sort(key=lambda s: ranking[s])
        tied = f"{_listing(seats)} tie on {number(total)} points"
        said = []
        for rule in narrator.tie_breaks:
            values = {s: rule.value(view, s) for s in seats}
            said.append(
                f"{rule.words} (" + ", ".join(f"Seat {s} {number(values[s])}" for s in seats) + ")"
            )
            if len(set(values.values())) > 1:
                break
        places = {ranking[s] for s in seats}
        if len(places) == len(seats):
            order = ", then ".join(f"Seat {s}" for s in seats)
            lines.append(f"{tied}; the tie-break, {' then '.join(said)}, puts {order}.")
        elif said:
            lines.append(
                f"{tied}; the tie-break, {' then '.join(said)}, leaves places shared "
                "where it cannot separate them."
            )
        else:
            lines.append(f"{tied} and share {ordinal(min(places))} place: equal totals share.")
    return lines


def result_line(view: View, ranking: list[int] | None, narrator: Narrator) -> str | None:
    """ "Result: 1st Seat 2 with 47 (warehouses 42, ...); ..." or None before the end."""
    final = view.get("final")
    if not isinstance(final, list) or not final or not all(isinstance(r, dict) for r in final):
        return None
    totals = [float(row.get("total", 0)) for row in final]
    if ranking is None or len(ranking) != len(totals):
        ranking = [1 + sum(t > mine for t in totals) for mine in totals]
    order = sorted(range(len(totals)), key=lambda s: (ranking[s], s))
    entries = []
    for s in order:
        shared = "=" if ranking.count(ranking[s]) > 1 else ""
        entries.append(
            f"{ordinal(ranking[s])}{shared} Seat {s} with {number(totals[s])} "
            f"({_breakdown(final[s], narrator)})"
        )
    text = "Result: " + "; ".join(entries) + "."
    ties = _ties(view, totals, ranking, narrator)
    return " ".join([text, *(t[:1].upper() + t[1:] for t in ties)])
