"""Protocol messages: the shapes bots rely on and every way a reply can be refused."""

from __future__ import annotations

import json

import pytest

from bots import sdk
from bots.forfeits import FORFEIT_CODES
from workers.matches import protocol
from workers.matches.protocol import ProtocolError, parse_ready, parse_reply

LEGAL = ["pass", "bid:1", ["lay", "DK"], 3]


def test_messages_are_single_json_lines_with_the_documented_fields():
    start = protocol.start_message(
        game="batavia",
        variant="standard",
        seat=1,
        num_players=3,
        seats=["a", "b", "c"],
        startup_ms=10_000,
        move_ms=1000,
        bank_ms=10_000,
        max_decisions=20_000,
    )
    line = protocol.encode(start)
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    decoded = json.loads(line)
    assert decoded["type"] == "start" and decoded["protocol"] == protocol.PROTOCOL_VERSION == 1
    assert decoded["time"] == {
        "startup_ms": 10_000,
        "move_ms": 1000,
        "bank_ms": 10_000,
        "max_decisions": 20_000,
    }
    request = json.loads(
        protocol.encode(
            protocol.request_message(
                decision=4,
                observation={"seat": 1, "hand": ["x\ny"]},
                legal_actions=LEGAL,
                move_ms=1000,
                bank_ms=9876.54,
            )
        )
    )
    assert request["legal_actions"] == LEGAL and request["time"]["bank_ms"] == 9876.5
    assert request["observation"]["hand"] == ["x\ny"]  # newlines inside strings stay escaped
    end = protocol.end_message(scores=[3, 1], ranking=[1, 2], forfeits=[None, "timeout: x"], seat=0)
    assert end["type"] == "end" and end["forfeits"][1].startswith("timeout")


def test_the_sdk_speaks_the_same_protocol_version():
    assert sdk.PROTOCOL_VERSION == protocol.PROTOCOL_VERSION


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (b'{"action": "pass"}', "pass"),
        (b'{"action": ["lay", "DK"], "debug": "lay it"}', ["lay", "DK"]),
        (b'{"action": 3}', 3),
    ],
)
def test_a_legal_reply_returns_the_engines_own_action(line, expected):
    reply = parse_reply(line, LEGAL)
    assert reply.action == expected


def test_debug_text_is_kept_short():
    reply = parse_reply(json.dumps({"action": "pass", "debug": "x" * 5000}).encode(), LEGAL)
    assert reply.debug == "x" * protocol.MAX_DEBUG_CHARS


def test_a_tuple_legal_action_matches_a_json_list():
    assert parse_reply(b'{"action": ["a", 1]}', [("a", 1)]).action == ("a", 1)


@pytest.mark.parametrize(
    ("line", "code", "words"),
    [
        (b"not json", "malformed_reply", "not JSON"),
        (b"\xff\xfe", "malformed_reply", "not JSON"),
        (b'["pass"]', "malformed_reply", "JSON object"),
        (b'{"move": "pass"}', "malformed_reply", 'no "action"'),
        (b'{"action": "pass", "debug": 7}', "malformed_reply", '"debug"'),
        (b'{"action": "bid:99"}', "illegal_action", '"bid:99" is not a legal action'),
        (b'{"action": true}', "illegal_action", "true"),
        (b'{"action": 3.0}', "illegal_action", "3.0"),
        (b'{"action": "PASS"}', "illegal_action", "PASS"),
        (b"[" * 100_000 + b"]" * 100_000, "malformed_reply", "nested too deeply"),
        (b'{"action": ' + b"[" * 990 + b"]" * 990 + b"}", "malformed_reply", "nested"),
    ],
)
def test_bad_replies_name_their_forfeit_code(line, code, words):
    with pytest.raises(ProtocolError) as caught:
        parse_reply(line, LEGAL)
    assert caught.value.code == code and code in FORFEIT_CODES
    assert words in str(caught.value)


def test_ready_must_be_literally_true():
    parse_ready(b'{"ready": true}')
    for line in (b'{"ready": 1}', b'{"ok": true}', b"ready"):
        with pytest.raises(ProtocolError):
            parse_ready(line)
