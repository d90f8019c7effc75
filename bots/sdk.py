"""The bot SDK: write ``act(observation, legal_actions)``, let :func:`run` speak the protocol.

A bot is either a plain function ``act(observation, legal_actions) -> action`` or a class
whose instances have ``act`` (or ``act_on_state(state, legal_actions)``: a search bot that
gets a determinized engine state, see ``bots.state_codec``) and, optionally,
``setup(start_message)`` (called once before the first decision) and ``end(end_message)``
(called with the result). ``main.py`` ends with ``run(MyBot)`` and the SDK reads requests
from stdin and writes replies to stdout, one JSON line each (protocol version 1,
``docs/bot-protocol.md``). Print diagnostics to stderr, never to stdout: stdout carries the
protocol.

:func:`play_offline` plays bots against each other in this process with the official engine,
through the same messages (JSON round trip included), so a bot is testable without a runner.

This module imports only the standard library and ``engine``: it runs inside the sandbox.
At run time :func:`run` needs ``json`` and ``sys`` alone (the engine is imported only by
:func:`play_offline` and for search bots' states): every import is paid again by every bot at
every start, before its ``ready`` (``typing`` and ``engine.core`` with ``dataclasses`` were
most of a sandboxed bot's start-up).
"""

from __future__ import annotations

import json
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing at run time
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import IO, Any

    from engine.core import Action, GameState, Observation

PROTOCOL_VERSION = 1
_ENCODER = json.JSONEncoder(separators=(",", ":"))
"""One compact encoder for every reply (``json.dumps`` with ``separators`` builds a new one)."""


class Reply:
    """Return this from ``act`` to send a short debug note (kept in the public game log)."""

    __slots__ = ("action", "debug")

    def __init__(self, action: Action, debug: str) -> None:
        self.action = action
        self.debug = debug


class _FunctionBot:
    def __init__(self, act: Callable[[Observation, list[Action]], Action | Reply]) -> None:
        self.act = act


def make_bot(bot: object) -> object:
    """An object with ``act`` from a function, a class (instantiated with no arguments) or an
    instance; raises ``TypeError`` saying what is missing."""
    if isinstance(bot, type):
        bot = bot()
    elif not hasattr(bot, "act") and not hasattr(bot, "act_on_state"):
        if not callable(bot):
            raise TypeError("a bot is a function act(observation, legal_actions) or a class")
        return _FunctionBot(bot)
    if not any(callable(getattr(bot, name, None)) for name in ("act", "act_on_state")):
        raise TypeError(f"{type(bot).__name__} has no act(observation, legal_actions) method")
    return bot


def _reply(result: object) -> dict[str, Any]:
    if isinstance(result, Reply):
        return {"action": result.action, "debug": result.debug[:500]}
    return {"action": result}


def handle(bot: object, message: dict[str, Any]) -> dict[str, Any] | None:
    """The answer to one runner message (None for ``end`` and unknown types)."""
    kind = message.get("type")
    if kind == "start":
        if message.get("protocol") != PROTOCOL_VERSION:
            runner = message.get("protocol")
            print(
                f"bots.sdk speaks protocol {PROTOCOL_VERSION}, the runner {runner}", file=sys.stderr
            )
        setup = getattr(bot, "setup", None)
        if setup is not None:
            setup(message)
        if callable(getattr(bot, "act_on_state", None)):
            return {"ready": True, "state": True}
        return {"ready": True}
    if kind == "request":
        act_on_state = getattr(bot, "act_on_state", None)
        if "state" in message and callable(act_on_state):
            from bots.state_codec import decode_state

            state = decode_state(message["state"])
            return _reply(act_on_state(state, message["legal_actions"]))
        act = getattr(bot, "act", None)
        if not callable(act):
            raise TypeError(f"{type(bot).__name__} was sent an observation but has no act()")
        return _reply(act(message["observation"], message["legal_actions"]))
    if kind == "end":
        end = getattr(bot, "end", None)
        if end is not None:
            end(message)
    return None


def run(bot: object, *, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> None:
    """The protocol loop: answer ``start`` and every ``request`` until ``end`` or end of input.

    After an ``end`` with ``"next": true`` (a bot whose manifest says ``"matches": "many"``,
    kept by the worker for another match) it answers ``{"done": true}`` and plays the next
    match in the same process: a bot given as a class gets a fresh instance for each match.
    """
    player = make_bot(bot)
    reader = stdin if stdin is not None else sys.stdin.buffer
    writer = stdout if stdout is not None else sys.stdout.buffer
    between = False
    for line in reader:
        if not line.strip():
            continue
        message = json.loads(line)
        if between and message.get("type") == "start":
            between = False
            if isinstance(bot, type):
                player = make_bot(bot)
        answer = handle(player, message)
        if answer is not None:
            writer.write(_ENCODER.encode(answer).encode() + b"\n")
            writer.flush()
        if message.get("type") == "end":
            if message.get("next") is not True:
                return
            writer.write(b'{"done":true}\n')
            writer.flush()
            between = True


def play_offline(
    game: str,
    bots: Sequence[object],
    *,
    seed: int = 0,
    variant: str | None = None,
    move_ms: int = 1000,
) -> tuple[GameState, dict[str, Any]]:
    """Play ``bots`` (one per seat) in-process with the engine; returns (final state, log).

    Every message goes through JSON as it would over the pipe, so a bot that works here sends
    valid replies. An illegal action raises ``engine.core.IllegalAction`` naming the seat.
    """
    from engine.core import IllegalAction, canonical_json
    from engine.log import finish_log, new_log, record_decision
    from engine.registry import get_game

    players = [make_bot(bot) for bot in bots]
    state = get_game(game).new_state(seed, len(players), variant)
    names = [f"seat{i}" for i in range(len(players))]
    log = new_log(state.game_name, state.variant, seed, names)
    time = {"startup_ms": 10_000, "move_ms": move_ms, "bank_ms": 10_000, "max_decisions": 20_000}

    from bots.state_codec import encode_state
    from engine.rng import Rng

    sampler = Rng.derive(seed, "offline-determinize")
    wants_state = [False] * len(players)

    def send(player: object, message: dict[str, Any]) -> dict[str, Any] | None:
        answer = handle(player, json.loads(json.dumps(message)))
        return None if answer is None else json.loads(json.dumps(answer))

    for seat, player in enumerate(players):
        ready = send(
            player,
            {
                "type": "start",
                "protocol": PROTOCOL_VERSION,
                "game": state.game_name,
                "variant": state.variant,
                "seat": seat,
                "num_players": len(players),
                "seats": names,
                "time": time,
            },
        )
        wants_state[seat] = bool(ready and ready.get("state"))
    asked = [0] * len(players)
    while (mover := state.current_player()) is not None:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            record_decision(log, mover, legal[0], by="forced")
            continue
        asked[mover] += 1
        request: dict[str, Any] = {
            "type": "request",
            "decision": asked[mover],
            "observation": state.observation(mover),
            "legal_actions": legal,
            "time": {"move_ms": move_ms, "bank_ms": 10_000},
        }
        if wants_state[mover]:
            request["state"] = encode_state(state.determinize(mover, sampler))
        answer = send(players[mover], request)
        if answer is None:  # handle() answers every request; None would be an SDK bug
            raise RuntimeError(f"seat {mover} sent no answer to a request")
        wanted = canonical_json(answer.get("action"))
        matches = [action for action in legal if canonical_json(action) == wanted]
        if not matches:
            raise IllegalAction(f"seat {mover} chose {wanted}, not a legal action")
        state.apply(matches[0])
        record_decision(log, mover, matches[0], by="bot")
    ranking = state.ranking()
    for seat, player in enumerate(players):
        send(
            player,
            {
                "type": "end",
                "seat": seat,
                "scores": state.scores(),
                "ranking": ranking,
                "forfeits": [None] * len(players),
            },
        )
    return state, finish_log(log, state)
