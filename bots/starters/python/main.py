"""Monsoon starter bot in Python (standard library only).

Speaks the JSON-lines bot protocol (docs/bot-protocol.md): one JSON object per line on stdin,
one answer per line on stdout. Diagnostics go to stderr, never stdout. It plays any of the four
games: each request lists the legal actions, and the bot picks one uniformly at random. Replace
choose_action() with your own strategy. (The SDK in bots/sdk.py does the same loop for you.)
"""

import json
import random
import sys
from typing import Any

# Seeded from the OS; Random(42) would make the bot repeatable. Not for secrets, hence S311.
RNG = random.Random()  # noqa: S311


def choose_action(observation: dict[str, Any], legal_actions: list[object]) -> object:
    """One of ``legal_actions`` (JSON values, strings in all four games), returned unchanged."""
    return RNG.choice(legal_actions)


def send(message: dict[str, Any]) -> None:
    # Flush every line: stdout is a pipe, and a buffered answer never reaches the runner.
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            if message.get("protocol") != 1:
                print(
                    f"this bot speaks protocol 1, the runner {message.get('protocol')}",
                    file=sys.stderr,
                )
            send({"ready": True})
        elif kind == "request":
            send({"action": choose_action(message["observation"], message["legal_actions"])})
        elif kind == "end":
            print(f"result: ranking {message['ranking']}", file=sys.stderr)
            if message.get("next") is not True:
                break
            # The worker keeps this process for another match ("matches": "many" in
            # monsoon.json): say so, then write nothing until the next "start" arrives.
            send({"done": True})
        # Unknown message types are ignored (protocol version 1 may add optional ones).


if __name__ == "__main__":
    main()
