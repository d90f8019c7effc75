"""The bit of the bot protocol the hostile bots need, written out so each bot stays one file.

Probing bots report what they found on stderr as ``PROBE {json}`` lines (the runner captures
stderr for the bot's owner, which the tests read) and then forfeit on purpose with an illegal
action, so that the test sees both the findings and a definite reason code.
"""

from __future__ import annotations

import json
import sys
import time

ILLEGAL = {"not": "a legal action"}


def receive() -> dict | None:
    """The next message from the runner, or None at end of input."""
    line = sys.stdin.readline()
    return json.loads(line) if line else None


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def until_first_request() -> dict | None:
    """Answer the start message and wait for the first decision."""
    receive()
    send({"ready": True})
    return receive()


def report(**findings: object) -> None:
    sys.stderr.write("PROBE " + json.dumps(findings, default=repr) + "\n")
    sys.stderr.flush()


def forfeit() -> None:
    """Answer the pending request with an action no game has, then wait to be stopped."""
    send({"action": ILLEGAL})
    while receive() is not None:
        pass


def forever() -> None:
    while True:
        time.sleep(3600)


def attempt(action) -> str:
    """``"ok"`` when ``action()`` succeeded, else the name of the error (for PROBE reports)."""
    try:
        action()
    except OSError as exc:
        return f"{type(exc).__name__}:{exc.errno}"
    except Exception as exc:
        return type(exc).__name__
    return "ok"
