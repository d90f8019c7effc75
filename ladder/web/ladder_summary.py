"""The home page's view of each ladder: is it active, who leads it, and if not, why not.

A ladder is *active* when the matchmaker schedules it and enough public bots play the game to
fill a table; an active ladder shows its leaders.  Every other ladder says what it is waiting
for, so a visitor who follows its link is not surprised by an empty table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ladder.bots import selectors as bot_selectors
from ladder.ladders.models import Ladder

LEADERS_SHOWN = 3


@dataclass(frozen=True)
class LadderSummary:
    ladder: Ladder
    active: bool
    bots: int  # public bots with an active version for the game
    rated: int  # rows in the standings table
    leaders: list[dict[str, Any]] = field(default_factory=list)
    reason: str = ""  # why the ladder is not active (or why its table is still empty)


def summarise(ladder: Ladder, rows: list[dict[str, Any]], bots: int) -> LadderSummary:
    """``rows`` are the standings rows (site.standing_rows), ``bots`` the game's ranked bots."""
    scheduled = ladder.schedule_enabled and ladder.schedule_weight > 0
    enough = bots >= ladder.num_players
    reason = ""
    if not scheduled:
        reason = "Paused: the matchmaker does not schedule ranked games on this ladder."
    elif not enough:
        missing = ladder.num_players - bots
        reason = (
            f"Waiting for bots: a {ladder.num_players}-player table needs {ladder.num_players} "
            f"public bots for this game, {missing} more than there are now."
        )
    elif not rows:
        reason = "Starting: ranked matches are queued; the table fills as they finish."
    return LadderSummary(
        ladder=ladder,
        active=scheduled and enough,
        bots=bots,
        rated=len(rows),
        leaders=rows[:LEADERS_SHOWN],
        reason=reason,
    )


def ranked_bot_counts(games: list[str]) -> dict[str, int]:
    return {game: bot_selectors.ranked_versions(game).count() for game in games}
