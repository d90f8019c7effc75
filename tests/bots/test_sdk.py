"""The bot SDK: the protocol loop over real pipes, offline play and the state codec."""

from __future__ import annotations

import io
import json

import pytest

from bots import sdk
from bots.mcts import MctsBot, search
from bots.state_codec import StateCodecError, decode_state, encode_state
from engine.core import IllegalAction
from engine.registry import all_games, get_game
from engine.rng import Rng


def _lines(*messages: dict[str, object]) -> io.BytesIO:
    return io.BytesIO(b"".join(json.dumps(m).encode() + b"\n" for m in messages))


START = {
    "type": "start",
    "protocol": 1,
    "game": "batavia",
    "variant": "standard",
    "seat": 0,
    "num_players": 3,
    "seats": ["a", "b", "c"],
    "time": {"startup_ms": 1, "move_ms": 1, "bank_ms": 1, "max_decisions": 5},
}


def _request(legal, decision=1):
    return {
        "type": "request",
        "decision": decision,
        "observation": {"seat": 0},
        "legal_actions": legal,
        "time": {"move_ms": 1000, "bank_ms": 0},
    }


def test_run_answers_start_and_requests_and_stops_at_end():
    out = io.BytesIO()
    stdin = _lines(
        START,
        _request(["a", "b"]),
        _request(["c", "d"], 2),
        {
            "type": "end",
            "scores": [1, 2, 3],
            "ranking": [3, 2, 1],
            "forfeits": [None] * 3,
            "seat": 0,
        },
        _request(["never"], 3),
    )
    sdk.run(lambda observation, legal: legal[-1], stdin=stdin, stdout=out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies == [{"ready": True}, {"action": "b"}, {"action": "d"}]


def test_a_class_bot_gets_setup_end_and_may_send_debug_notes():
    seen = {}

    class Bot:
        def setup(self, start):
            seen["start"] = start["seat"]

        def act(self, observation, legal_actions):
            return sdk.Reply(legal_actions[0], "because " * 100)

        def end(self, message):
            seen["end"] = message["ranking"]

    out = io.BytesIO()
    sdk.run(Bot, stdin=_lines(START, _request(["x"]), {"type": "end", "ranking": [1]}), stdout=out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[1]["action"] == "x" and len(replies[1]["debug"]) == 500
    assert seen == {"start": 0, "end": [1]}


def test_a_search_bot_asks_for_states_in_its_ready_answer():
    assert sdk.handle(sdk.make_bot(MctsBot(budget_s=0.01)), START) == {"ready": True, "state": True}


def test_something_that_is_not_a_bot_is_refused():
    with pytest.raises(TypeError, match="act"):
        sdk.make_bot(42)


def test_play_offline_plays_a_whole_game_and_catches_illegal_actions():
    state, log = sdk.play_offline("packet_row", [lambda o, legal: legal[0]] * 2, seed=3)
    assert state.is_terminal() and log["result"]["scores"] == state.scores()
    with pytest.raises(IllegalAction, match="seat 0"):
        sdk.play_offline("packet_row", [lambda o, legal: "nonsense"] * 2, seed=3)


@pytest.mark.parametrize("game", list(all_games()))
def test_encoded_states_come_back_identical_and_without_the_seed(game):
    spec = get_game(game)
    state = spec.new_state(12345, spec.min_players)
    rng = Rng(7)
    for _ in range(25):
        state.apply(rng.choice(state.legal_actions()))
    mover = state.current_player()
    assert mover is not None
    sample = state.determinize(mover, Rng(1))
    blob = json.loads(json.dumps(encode_state(sample)))
    assert "12345" not in json.dumps(blob)
    back = decode_state(blob)
    assert back.legal_actions() == sample.legal_actions()
    vars(sample)["seed"] = 0  # every game's state keeps its seed; the encoding blanks it
    assert back.digest() == sample.digest()


def test_a_state_from_another_engine_version_is_refused():
    spec = get_game("borneo")
    blob = encode_state(spec.new_state(1, 3))
    blob["engine_version"] = "0.0.1"
    with pytest.raises(StateCodecError, match="engine"):
        decode_state(blob)


def test_mcts_returns_a_legal_action_and_plays_offline():
    spec = get_game("east_indiaman")
    state = spec.new_state(4, 2)
    mover = state.current_player()
    assert mover is not None
    action, iterations = search(
        state, mover, Rng(1), budget_s=0.0, max_iterations=30, min_iterations=30
    )
    assert action in state.legal_actions() and iterations == 30
    final, _ = sdk.play_offline("packet_row", [MctsBot(0.001, 2), MctsBot(0.001, 2)], seed=2)
    assert final.is_terminal()
