"""The match spec a worker plays and the result record it hands back, typed.

The ladder and the worker share no Python objects: the ladder's ``match_spec`` selector gives
plain JSON-shaped data, and ``record_result`` takes plain JSON-shaped data (the same form would
cross a network). Inside the worker both are frozen dataclasses; :meth:`MatchSpec.from_json` and
:meth:`MatchRecord.to_json` are the only places that know the JSON field names, and a spec that
does not have the expected shape is refused there with a :class:`SpecError` naming the field,
not a ``KeyError`` somewhere in the middle of a match.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from engine.log import viewer_decision

T = TypeVar("T")

GameLog = dict[str, Any]
"""The public game log (``engine/log.py``): already JSON, stored as it is."""


class SpecError(ValueError):
    """A match spec (or record) whose JSON form lacks a field or has one of the wrong type."""


def _field(data: Mapping[str, object], name: str, kind: type[T], where: str) -> T:
    if not isinstance(data, Mapping):
        raise SpecError(f"{where} must be an object, not {type(data).__name__}")
    if name not in data:
        raise SpecError(f"{where} has no {name!r}")
    value = data[name]
    # bool is an int in Python; a spec field that wants an int never means True/False.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SpecError(f"{where}.{name} must be {kind.__name__}, not {type(value).__name__}")
    return value


def _list(data: Mapping[str, object], name: str, where: str) -> list[object]:
    return _field(data, name, list, where)


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

    @classmethod
    def from_json(cls, data: Mapping[str, object], where: str = "seat") -> SeatSpec:
        command = _list(data, "command", where)
        if not command or not all(isinstance(part, str) for part in command):
            raise SpecError(f"{where}.command must be a non-empty list of strings")
        return cls(
            seat=_field(data, "seat", int, where),
            version_id=_field(data, "version_id", int, where),
            name=_field(data, "name", str, where),
            sha256=_field(data, "sha256", str, where),
            kind=_field(data, "kind", str, where),
            command=tuple(str(part) for part in command),
            artifact=_field(data, "artifact", str, where),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "version_id": self.version_id,
            "name": self.name,
            "sha256": self.sha256,
            "kind": self.kind,
            "command": list(self.command),
            "artifact": self.artifact,
        }


@dataclass(frozen=True)
class MatchSpec:
    """Everything a worker needs to play one ladder match (``ladder.matches.selectors``)."""

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

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> MatchSpec:
        """The spec from its JSON form; :class:`SpecError` names what is missing or wrong."""
        seats = tuple(
            SeatSpec.from_json(_as_mapping(seat, f"seats[{i}]"), f"seats[{i}]")
            for i, seat in enumerate(_list(data, "seats", "spec"))
        )
        if [seat.seat for seat in seats] != list(range(len(seats))):
            raise SpecError("spec.seats must be in seat order, numbered from 0")
        return cls(
            match_id=_field(data, "match_id", int, "spec"),
            game=_field(data, "game", str, "spec"),
            variant=_field(data, "variant", str, "spec"),
            seed=_field(data, "seed", int, "spec"),
            num_players=_field(data, "num_players", int, "spec"),
            ranked=_field(data, "ranked", bool, "spec"),
            status=_field(data, "status", str, "spec"),
            seats=seats,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "game": self.game,
            "variant": self.variant,
            "seed": self.seed,
            "num_players": self.num_players,
            "ranked": self.ranked,
            "status": self.status,
            "seats": [seat.to_json() for seat in self.seats],
        }

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]


def _as_mapping(value: object, where: str) -> Mapping[str, object]:
    if not isinstance(value, Mapping):
        raise SpecError(f"{where} must be an object, not {type(value).__name__}")
    return value


@dataclass(frozen=True)
class MatchRecord:
    """A finished match's result as the ladder records it (``record_result``).

    Per seat, in seat order: the engine's score, the placement (forfeits applied: 1 is best),
    the forfeit reason (``"<code>: <message>"``) or None, and the captured stderr for the bot's
    owner. ``log`` is the public game log, which holds no stderr.
    """

    scores: tuple[int, ...]
    ranking: tuple[int, ...]
    forfeits: tuple[str | None, ...]
    stderr: tuple[str, ...]
    log: GameLog

    def __post_init__(self) -> None:
        sizes = {len(self.scores), len(self.ranking), len(self.forfeits), len(self.stderr)}
        if len(sizes) != 1:
            raise SpecError("a record needs scores, ranking, forfeits and stderr for every seat")

    def to_json(self) -> dict[str, Any]:
        """The form ``ladder.matches.services.record_result`` takes."""
        return {
            "scores": list(self.scores),
            "ranking": list(self.ranking),
            "forfeits": list(self.forfeits),
            "stderr": list(self.stderr),
            "log": self.log,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> MatchRecord:
        def seats(name: str, kind: type | tuple[type, ...]) -> tuple[Any, ...]:
            values = _list(data, name, "record")
            if not all(isinstance(value, kind) for value in values):
                raise SpecError(f"record.{name} has an entry of the wrong type")
            return tuple(values)

        return cls(
            scores=seats("scores", int),
            ranking=seats("ranking", int),
            forfeits=seats("forfeits", (str, type(None))),
            stderr=seats("stderr", str),
            log=_field(data, "log", dict, "record"),
        )


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
