"""Replay frames for the match page's viewer: the stored log re-simulated by the engine.

The server replays the log (``engine.log.replay`` checks it reproduces its result first), then
steps through it again and records, before the first decision and after each one, the game's
public (spectator) view.  Each seat's private part of its observation (its hand) is added only
when ``reveal_private`` is set, which the view does only once the match is over: hidden cards
never reach a browser while the game could still be running.

Frames are delta-encoded (the values that changed since the previous frame, by path), which
shrinks a long Packet Row game's frames several times over; ``viewer.js`` rebuilds whole views.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core import EngineError, GameState
from engine.log import ReplayError, replay, start_state, viewer_decision
from ladder.web.narration import changes, name_seats, narrate, narrator_for, progress
from ladder.web.narration import result as result_line

PUBLIC_ONLY_KEYS = ("seat",)


@dataclass
class SeatTime:
    """One seat's decisions over the game: how many, the time they took, how many not its own."""

    seat: int
    name: str
    decisions: int = 0
    total_ms: float = 0.0
    max_ms: float = 0.0
    timed: int = 0
    not_by_bot: int = 0  # forced or fallback moves the runner made for the seat


def seat_times(log: dict[str, Any], names: list[str]) -> list[SeatTime]:
    times = [SeatTime(seat, name) for seat, name in enumerate(names)]
    for entry in log.get("decisions", []):
        seat = entry.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < len(times):
            continue
        row = times[seat]
        row.decisions += 1
        ms = entry.get("ms")
        if isinstance(ms, int | float) and not isinstance(ms, bool):
            row.timed += 1
            row.total_ms += ms
            row.max_ms = max(row.max_ms, ms)
        if entry.get("by") not in (None, "bot"):
            row.not_by_bot += 1
    return times


@dataclass
class Replay:
    game: str
    seats: list[str]
    frames: list[dict[str, Any]] = field(default_factory=list)
    forfeits: list[str | None] = field(default_factory=list)
    reveal_private: bool = False
    catalogue: dict[str, Any] = field(default_factory=dict)
    seat_times: list[SeatTime] = field(default_factory=list)
    progress: list[list[float]] = field(default_factory=list)  # per frame, per seat
    progress_label: str = ""
    forfeit_steps: dict[int, int] = field(default_factory=dict)  # seat -> frame index
    result: dict[str, Any] | None = None  # the result line and its seat names' spans
    error: str = ""

    def as_data(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": self.seats,
            "frames": self.frames,
            "forfeits": self.forfeits,
            "reveal_private": self.reveal_private,
            "catalogue": self.catalogue,
            "forfeit_steps": {str(k): v for k, v in self.forfeit_steps.items()},
            "result": self.result,
        }


DIFF_DEPTH = 4  # how deep the frame diff descends before it replaces a whole value


def diff(
    previous: object,
    current: object,
    path: list[str | int],
    out: list[list[object]],
    depth: int = DIFF_DEPTH,
) -> None:
    """Append ``[path, value]`` operations that turn ``previous`` into ``current``.

    Dicts with the same keys and lists of the same length are compared element by element (to
    ``depth`` levels); anything else that differs is replaced whole.
    """
    if previous == current:
        return
    if (
        depth > 0
        and isinstance(previous, dict)
        and isinstance(current, dict)
        and previous.keys() == current.keys()
    ):
        for key in current:
            diff(previous[key], current[key], [*path, key], out, depth - 1)
    elif (
        depth > 0
        and isinstance(previous, list)
        and isinstance(current, list)
        and len(previous) == len(current)
    ):
        for index, (old, new) in enumerate(zip(previous, current, strict=True)):
            diff(old, new, [*path, index], out, depth - 1)
    else:
        out.append([path, current])


def _private_part(observation: dict[str, Any], public: dict[str, Any]) -> dict[str, Any]:
    """What the seat's observation adds to the public view (its hidden cards)."""
    return {
        k: v
        for k, v in observation.items()
        if k not in PUBLIC_ONLY_KEYS and (k not in public or public[k] != v)
    }


def build_replay(
    log: dict[str, Any],
    *,
    seat_names: list[str],
    forfeits: list[str | None],
    reveal_private: bool,
) -> Replay:
    """Frames of a stored game log; a log that does not replay gives a Replay with ``error``.

    Frame 0 holds the whole table ``{"public": view, "private": [per seat] or None}``; every
    later frame holds its ``decision`` and the ``ops`` (see :func:`diff`) from the frame before.
    """
    game = str(log.get("game", "")) if isinstance(log, dict) else ""
    result = Replay(
        game=game,
        seats=seat_names,
        forfeits=forfeits,
        reveal_private=reveal_private,
        catalogue=catalogue(game),
    )
    try:
        replay(log)
        state = start_state(log)
    except (ReplayError, EngineError) as exc:
        result.error = str(exc)
        return result
    _add_frames(result, state, log["decisions"])
    result.forfeit_steps = forfeit_steps(log, forfeits)
    return result


def build_live_replay(
    header: dict[str, Any], decisions: list[dict[str, Any]], *, seat_names: list[str]
) -> Replay:
    """Frames of a match still being played: the public views only, whatever the visitor.

    ``header`` is a game log's header (``engine.log.new_log``) and ``decisions`` what the
    worker has published so far. Nothing is checked against a result (there is none yet), but
    every action must still be legal in turn; hidden cards stay out of every frame.
    """
    game = str(header.get("game", ""))
    result = Replay(game=game, seats=seat_names, catalogue=catalogue(game))
    try:
        state = start_state({**header, "decisions": decisions})
        _add_frames(result, state, decisions)
    except EngineError as exc:
        result.error = f"the published moves do not replay: {exc}"
    return result


def _add_frames(result: Replay, state: GameState, decisions: list[dict[str, Any]]) -> None:
    """Step ``state`` through ``decisions``, appending a frame (and a progress point) each."""
    game = result.game
    seats = range(state.num_players)
    result.seat_times = seat_times({"decisions": decisions}, result.seats)

    def table() -> dict[str, Any]:
        public = state.public_view()
        private = (
            [_private_part(state.observation(s), public) for s in seats]
            if result.reveal_private
            else None
        )
        return {"public": public, "private": private}

    previous = table()
    result.frames.append({"table": previous})
    narrator = narrator_for(game)
    result.progress_label = narrator.progress_label if narrator else ""
    words = narrator.words if narrator else None
    things = narrator.things if narrator else None
    names = result.seats
    scores = progress(game, previous["public"])
    series = [scores] if scores is not None else []
    for entry in decisions:
        state.apply(entry["action"])
        current = table()
        ops: list[list[object]] = []
        diff(previous, current, [], ops)
        decision = viewer_decision(entry)
        sentence = narrate(
            game, entry["seat"], entry["action"], previous["public"], current["public"]
        )
        decision["text"], decision["spans"] = name_seats(sentence, names)
        lines = changes(previous["public"], current["public"], words, things)
        result.frames.append(
            {
                "decision": decision,
                "ops": ops,
                "changes": [name_seats(line, names)[0] for line in lines],
            }
        )
        if series and (scores := progress(game, current["public"])) is not None:
            series.append(scores)
        previous = current
    result.progress = series if len(series) == len(result.frames) else []
    if state.is_terminal():
        try:
            ranking: list[int] | None = state.ranking()
        except EngineError:
            ranking = None
        line = result_line(game, previous["public"], ranking)
        if line is not None:
            text, spans = name_seats(line, names)
            result.result = {"text": text, "spans": spans}


def forfeit_steps(log: dict[str, Any], forfeits: list[str | None]) -> dict[int, int]:
    """The frame at which each forfeited seat stopped playing for itself.

    That is the seat's first decision the runner played for it (``by: fallback``); a seat with
    none forfeited after its last decision, so the mark goes on the last frame.
    """
    decisions = log.get("decisions", [])
    steps: dict[int, int] = {}
    for seat, reason in enumerate(forfeits):
        if not reason:
            continue
        steps[seat] = len(decisions)
        for index, entry in enumerate(decisions, start=1):
            if entry.get("seat") == seat and entry.get("by") == "fallback":
                steps[seat] = index
                break
    return steps


def catalogue(game: str) -> dict[str, Any]:
    """Lookup tables the game's drawing needs for ids that a view shows bare (cards)."""
    if game == "east_indiaman":
        from engine.games.east_indiaman import components as indiaman

        return {
            "orders": [
                {
                    "colours": [indiaman.CARGOES[c] for c in card.colours],
                    "req": {indiaman.CARGOES[i]: n for i, n in enumerate(card.req) if n},
                    "icons": list(card.icons),
                }
                for card in indiaman.ORDER_CARDS
            ]
        }
    if game == "borneo":
        from engine.games.borneo import components as borneo

        letters = {"Y": "yellow", "R": "red", "G": "green", "B": "blue"}
        return {
            "cards": {
                str(card_id): {
                    "top": [letters[c] for c in top],
                    "bottom": letters[bottom],
                    "spice": spice,
                    "count": count,
                }
                for card_id, top, bottom, spice, count in borneo.SHIPMENT_CARDS
            }
        }
    return {}
