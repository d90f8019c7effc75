"""Replay frames of a bot version's validation smoke match (stored by ``validate_version``).

The smoke match has no ``Match`` row: seat 0 is the version, the others are the reference random
bots.  It is over once stored, so every seat's hidden cards may be shown, as on a finished match.
"""

from __future__ import annotations

import json

from ladder.bots.models import BotVersion
from ladder.matches import logstore
from ladder.web.replay import Replay, build_replay


def smoke_replay(version: BotVersion) -> Replay:
    """The frames of the stored smoke log; a Replay with ``error`` when it cannot be read."""
    names = [version.label]
    try:
        log = json.loads(logstore.read_json(version.smoke_log or ""))
    except (logstore.UnreadableLog, ValueError) as exc:
        return Replay(
            game=version.bot.game, seats=names, error=f"the stored log is unreadable ({exc})"
        )
    seats = log.get("seats") if isinstance(log, dict) else None
    if isinstance(seats, list):  # the runner named seat 0 "version <id>"; the others random<i>
        names += [str(seat) for seat in seats[1:]]
    forfeits: list[str | None] = [None] * len(names)
    if version.status == BotVersion.Status.REJECTED:
        forfeits[0] = (
            version.failure_reason.splitlines()[0] if version.failure_reason else "forfeit"
        )
    return build_replay(log, seat_names=names, forfeits=forfeits, reveal_private=True)
