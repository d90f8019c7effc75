"""The match spec a worker plays and the result it hands back: typed, shared by both sides.

The ladder builds a :class:`MatchSpec` from its rows (``ladder.lifecycle.flow.spec``); the worker
plays it and builds a :class:`MatchResult` from the runner's outcome; the ladder records that
object as it is (``ladder.lifecycle.flow.record_result``). Neither is converted to a dict and back
on the way. A result is checked once, when it is constructed: a malformed one raises
:class:`InvalidResult` there, naming the field, and nothing is recorded. Whether it fits its match
(one entry per seat) is the recording's question, asked with the match row locked.

No Django import: the worker builds a result from the runner's plain values, and tests build one
from JSON (:meth:`MatchResult.from_json`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bots.forfeits import FORFEIT_CODES
from ladder.core.errors import ServiceError

GameLog = dict[str, Any]
"""The public game log (``engine/log.py``): already JSON, stored as it is."""


class InvalidResult(ServiceError):
    """A result that is malformed or does not fit its match; nothing is recorded."""


def forfeit_code(reason: str) -> str:
    """The code a runner's forfeit text starts with (``"timeout: 2.1 s"`` -> ``"timeout"``).

    Read once, where the worker's text becomes a result; the ladder keeps the code in a column.
    Raises :class:`InvalidResult` for a text that names no code the runner has."""
    head = reason.strip().split(":", 1)[0].split(None, 1)
    code = head[0] if head else ""
    if code not in FORFEIT_CODES:
        raise InvalidResult(f"a forfeit reason must start with one of {', '.join(FORFEIT_CODES)}")
    return code


@dataclass(frozen=True)
class SeatSpec:
    """One seat of a match: which bot version sits there and how to start it."""

    seat: int
    version_id: int
    name: str
    """Shown to the other bots and in the log: ``"<bot> v<number>"``."""
    sha256: str
    """The artifact's content hash: the worker's cache key and its integrity check."""
    kind: str
    """How the artifact is packed (``ladder.bots.artifacts``): a single file or an archive."""
    command: tuple[str, ...]
    """The argv run inside the unpacked artifact."""
    artifact: str
    """The artifact's storage name."""


@dataclass(frozen=True)
class MatchSpec:
    """Everything a worker needs to play one ladder match."""

    match_id: int
    game: str
    variant: str
    seed: int
    num_players: int
    ranked: bool
    status: str
    """The match's status when the spec was read (``running`` once the worker claimed it)."""
    seats: tuple[SeatSpec, ...]
    """In seat order: ``seats[i].seat == i``."""

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class MatchResult:
    """A finished match's result, per seat in seat order, checked once on construction.

    ``scores``: the engine's final score; ``ranking``: the place (1 is best, ties share, forfeited
    seats already last); ``forfeits``: the runner's reason (``"<code>: <message>"``) or None;
    ``stderr``: what the bot wrote, for its owner only. ``log`` is the public game log (no
    stderr), or None for a result without one.
    """

    scores: tuple[int | float, ...]
    ranking: tuple[int, ...]
    forfeits: tuple[str | None, ...]
    stderr: tuple[str, ...]
    log: GameLog | None

    def __post_init__(self) -> None:
        n = len(self.scores)
        for name in ("ranking", "forfeits", "stderr"):
            if len(getattr(self, name)) != n:
                raise InvalidResult(f"'{name}' must have one entry per seat ({n}), like 'scores'")
        if not all(_is_number(score) for score in self.scores):
            raise InvalidResult("'scores' must be numbers")
        if not all(
            isinstance(r, int) and not isinstance(r, bool) and 1 <= r <= n for r in self.ranking
        ):
            raise InvalidResult(f"'ranking' must be places from 1 to {n}")
        if not all(f is None or isinstance(f, str) for f in self.forfeits):
            raise InvalidResult("'forfeits' entries must be a reason or None")
        for reason in self.forfeits:
            if reason:
                forfeit_code(reason)
        if not all(isinstance(s, str) for s in self.stderr):
            raise InvalidResult("'stderr' entries must be text")
        if self.log is not None and not isinstance(self.log, dict):
            raise InvalidResult("'log' must be a game log object")

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchResult:
        """A result from its JSON form; ``forfeits`` and ``stderr`` may be left out (none)."""
        if not isinstance(data, Mapping):
            raise InvalidResult("a result must be an object")
        scores = data.get("scores")
        if not isinstance(scores, list | tuple):
            raise InvalidResult("'scores' must be a list with one entry per seat")
        n = len(scores)
        lists: dict[str, list[Any] | tuple[Any, ...]] = {}
        for name, missing in (("ranking", None), ("forfeits", [None] * n), ("stderr", [""] * n)):
            value = data.get(name) or missing
            if not isinstance(value, list | tuple):
                raise InvalidResult(f"'{name}' must be a list with one entry per seat ({n})")
            lists[name] = value
        return cls(
            scores=tuple(scores),
            ranking=tuple(lists["ranking"]),
            forfeits=tuple(lists["forfeits"]),
            stderr=tuple(lists["stderr"]),
            log=data.get("log"),
        )

    @property
    def forfeit_codes(self) -> tuple[str, ...]:
        """Per seat, the forfeit's code, or ``""`` for a seat that did not forfeit."""
        return tuple(forfeit_code(reason) if reason else "" for reason in self.forfeits)

    @property
    def places(self) -> list[int]:
        """The places recorded: forfeited seats share last place, the others keep their order.

        A seat with a forfeit counts as beaten by every seat that did not forfeit, whatever its
        score (the runner already places them so; a result from elsewhere is held to it too).
        """
        n = len(self.ranking)
        forfeited = [bool(reason) for reason in self.forfeits]
        kept = [seat for seat in range(n) if not forfeited[seat]]
        return [
            1 + len(kept)
            if forfeited[seat]
            else 1 + sum(1 for other in kept if self.ranking[other] < self.ranking[seat])
            for seat in range(n)
        ]
