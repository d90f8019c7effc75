"""A bot that plays many matches in one process and reports what it has received.

At every ``start`` it writes to stderr ``PROC <token>`` (a token drawn once per process: the
same token in two matches means the same process), ``MATCH <n>`` (its matches so far in this
process) and ``HISTORY <json>``: every message it received in its earlier matches. It answers
with the first legal action. ``THINK_MS`` and ``THINK_DECISIONS``: spin that much CPU on each
of the first decisions of every match; ``MISBEHAVE`` does one wrong thing between matches:
``write`` (a stray stdout line after ``done``), ``exit``
(exits after ``done``) or ``grow`` (takes 100 MiB at ``end``, before ``done``). ``HOG_MB``:
hold that much memory for a moment at the first decision of the process's first match.
"""

import json
import os
import sys
import time

TOKEN = os.urandom(8).hex()
THINK_S = int(os.environ.get("THINK_MS", "0")) / 1000
THINK_DECISIONS = int(os.environ.get("THINK_DECISIONS", "0"))
MISBEHAVE = os.environ.get("MISBEHAVE", "")
HOG_MB = int(os.environ.get("HOG_MB", "0"))
history: list[dict] = []
current: list[dict] = []
matches = 0
decisions = 0
hoard: list[bytearray] = []


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


for line in sys.stdin:
    message = json.loads(line)
    current.append(message)
    kind = message["type"]
    if kind == "start":
        matches += 1
        decisions = 0
        print(f"PROC {TOKEN}", file=sys.stderr)
        print(f"MATCH {matches}", file=sys.stderr)
        print("HISTORY " + json.dumps(history), file=sys.stderr, flush=True)
        send({"ready": True})
    elif kind == "request":
        decisions += 1
        if decisions == 1:
            print(f"BUDGET {message['time'].get('budget_ms')}", file=sys.stderr, flush=True)
        if decisions == 1 and matches == 1 and HOG_MB:
            held = bytearray(HOG_MB * 1024 * 1024)
            for at in range(0, len(held), 4096):
                held[at] = 1
            del held  # given back: only this match's peak holds it
        if decisions <= THINK_DECISIONS:
            until = time.process_time() + THINK_S
            while time.process_time() < until:
                pass
        send({"action": message["legal_actions"][0]})
    elif kind == "end":
        print(f"END next={message.get('next', False)}", file=sys.stderr, flush=True)
        history += current
        current = []
        if message.get("next") is not True:
            break
        if MISBEHAVE == "grow":
            hoard.append(bytearray(100 * 1024 * 1024))
            for at in range(0, len(hoard[0]), 4096):
                hoard[0][at] = 1
        send({"done": True})
        if MISBEHAVE == "write":
            send({"stray": True})
        elif MISBEHAVE == "exit":
            sys.exit(0)
