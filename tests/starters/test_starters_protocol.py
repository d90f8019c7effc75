"""The kits' hand-written JSON handling on awkward but valid protocol lines.

Real matches (``test_starters_play.py``) only send what the engine makes; these lines add what
a scanner gets wrong: keys in another order, brackets, commas and escaped quotes inside
strings, non-ASCII text, blank lines, unknown message types and unknown fields. Every answer
must be ``ready`` or one of the legal actions (compared as JSON values, as the runner does),
and the bot must exit by itself after ``end``. Run as plain processes: the JSON is the point.
"""

from __future__ import annotations

import json
import subprocess

import pytest

from bots.starters import KITS, LANGUAGES

START = {
    "seats": ['alice "}, [', "bob"],
    "time": {"startup_ms": 10000, "move_ms": 1000, "bank_ms": 10000, "max_decisions": 20000},
    "type": "start",
    "protocol": 1,
    "game": "batavia",
    "variant": "standard",
    "seat": 1,
    "num_players": 2,
    "future_field": {"nested": [1, 2.5e3, None, True, False, {"type": "request"}]},
}
LEGAL = ["pass", "bid:3", 'say:"hi"', "x],y}", "ü \\ é", "tab\there"]
REQUEST = {
    "legal_actions": LEGAL,
    "time": {"move_ms": 1000, "bank_ms": 9650.2},
    "observation": {"seat": 1, "log": ["]", "}", '"', "legal_actions"], "hand": {"VOC": 2}},
    "decision": 1,
    "type": "request",
}
REQUESTS = 60


def line(message: dict) -> str:
    return json.dumps(message, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_answer_is_ready_or_a_legal_action_and_the_bot_exits_after_end(kit_for, language):
    directory = kit_for(language)
    script = line(START) + "\n" + line({"type": "ping", "data": "[{"}) + "   \n"
    for decision in range(1, REQUESTS + 1):
        script += line({**REQUEST, "decision": decision})
    script += line({"type": "end", "seat": 1, "scores": [1, 2], "ranking": [2, 1]})

    done = subprocess.run(
        KITS[language].command(),
        cwd=directory,
        input=script.encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 0, done.stderr.decode(errors="replace")
    answers = [json.loads(text) for text in done.stdout.decode().splitlines()]
    assert answers[0] == {"ready": True}
    actions = [answer["action"] for answer in answers[1:]]
    assert len(actions) == REQUESTS  # nothing for the ping, the blank lines or the end
    assert set(actions) <= set(LEGAL)
    assert len(set(actions)) > 1  # random choices: 60 equal ones have probability 6**-59
