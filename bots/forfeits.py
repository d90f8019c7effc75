"""The reasons a seat can forfeit a match for: part of the bot protocol (docs/bot-protocol.md).

The runner (``workers.matches.protocol``) starts every forfeit text with one of these codes,
and the ladder keeps the code in a column with these choices (``MatchSeat.forfeit_code``). Both
import it from here: the ladder may not import the workers, and the bot authors' kit carries
this package, so one tuple serves the runner, the ladder and a bot author's local matches.
"""

from __future__ import annotations

FORFEIT_CODES = (
    "startup_timeout",
    "timeout",
    "crash",
    "illegal_action",
    "malformed_reply",
    "oversized_line",
    "memory_limit",
    "process_limit",
    "decision_limit",
    "thinking_budget",
)
"""Every reason a seat can forfeit for; a forfeit text always starts with one of these."""
