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


def answers_of(directory, language: str, script: str) -> list[dict]:
    """The kit's answers to ``script``, run as a plain process that must exit by itself."""
    done = subprocess.run(
        KITS[language].command(),
        cwd=directory,
        input=script.encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return [json.loads(text) for text in done.stdout.decode().splitlines()]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_answer_is_ready_or_a_legal_action_and_the_bot_exits_after_end(kit_for, language):
    directory = kit_for(language)
    script = line(START) + "\n" + line({"type": "ping", "data": "[{"}) + "   \n"
    for decision in range(1, REQUESTS + 1):
        script += line({**REQUEST, "decision": decision})
    script += line({"type": "end", "seat": 1, "scores": [1, 2], "ranking": [2, 1]})

    answers = answers_of(directory, language, script)
    assert answers[0] == {"ready": True}
    actions = [answer["action"] for answer in answers[1:]]
    assert len(actions) == REQUESTS  # nothing for the ping, the blank lines or the end
    assert set(actions) <= set(LEGAL)
    assert len(set(actions)) > 1  # random choices: 60 equal ones have probability 6**-59


@pytest.mark.parametrize("language", LANGUAGES)
def test_after_an_end_with_next_the_bot_answers_done_and_plays_the_next_match(kit_for, language):
    """The match boundary of a warm seat: ``end`` with ``"next": true`` gets ``{"done": true}``
    and the same process answers the next ``start`` and its requests; a plain ``end`` then
    ends it (every kit's manifest declares ``"matches": "many"``)."""
    directory = kit_for(language)
    assert json.loads((directory / "monsoon.json").read_text())["matches"] == "many"
    script = ""
    for match in range(2):
        script += line(START)
        for decision in range(1, 6):
            script += line({**REQUEST, "decision": decision})
        end = {"type": "end", "seat": 1, "scores": [1, 2], "ranking": [2, 1]}
        script += line({**end, "next": True} if match == 0 else end)

    answers = answers_of(directory, language, script)
    assert answers[0] == {"ready": True}
    assert answers[6] == {"done": True}
    assert answers[7] == {"ready": True}
    assert len(answers) == 13
    assert {answer["action"] for answer in answers[1:6] + answers[8:]} <= set(LEGAL)
