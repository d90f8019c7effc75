"""What a running match publishes for live spectators, and the game log's type.

The match spec a worker plays and the result it hands back are the ladder's typed
``ladder.lifecycle.types`` (``MatchSpec``, ``MatchResult``), shared by both sides; this module is
part of the bot authors' kit, which imports nothing of the server, so the runner's own types are
here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.log import viewer_decision

GameLog = dict[str, Any]
"""The public game log (``engine/log.py``): already JSON, stored as it is."""


@dataclass(frozen=True)
class Progress:
    """A match as far as it has been played: what a worker publishes for live spectators.

    The decisions carry only ``engine.log.VIEWER_DECISION_KEYS``; the seed is not here, so nobody
    can re-simulate hidden cards before the match is over (the ladder draws public views itself).
    """

    decisions: tuple[Mapping[str, object], ...]
    forfeits: tuple[str | None, ...]

    def to_json(self) -> dict[str, Any]:
        """The form ``ladder.matches.services.publish_progress`` takes."""
        return {
            "decisions": [viewer_decision(entry) for entry in self.decisions],
            "forfeits": list(self.forfeits),
        }
