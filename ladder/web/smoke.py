"""Replay frames of a bot version's validation smoke match (stored by ``validate_version``).

The smoke match has no ``Match`` row: the stored log names the version's seat ``version <id>`` and
the others ``random`` (the reference random bot; older logs say ``random1``...). It is over once
stored, so every seat's hidden cards may be shown, as on a finished match.
"""

from __future__ import annotations

import json

from ladder.bots.models import BotVersion
from ladder.matches import logstore
from ladder.web.replay import Replay, build_replay


def smoke_replay(version: BotVersion) -> Replay:
    """The frames of the stored smoke log; a Replay with ``error`` when it cannot be read."""
    try:
        log = json.loads(logstore.read_json(version.smoke_log or ""))
    except (logstore.UnreadableLog, ValueError) as exc:
        return Replay(
            game=version.bot.game,
            seats=[version.label],
            error=f"the stored log is unreadable ({exc})",
        )
    seats = log.get("seats") if isinstance(log, dict) else None
    names = [str(seat) for seat in seats] if isinstance(seats, list) and seats else ["?"]
    mine = next((i for i, name in enumerate(names) if not name.startswith("random")), 0)
    names[mine] = version.label
    forfeits: list[str | None] = [None] * len(names)
    if version.status == BotVersion.Status.REJECTED:
        forfeits[mine] = (
            version.failure_reason.splitlines()[0] if version.failure_reason else "forfeit"
        )
    return build_replay(log, seat_names=names, forfeits=forfeits, reveal_private=True)
