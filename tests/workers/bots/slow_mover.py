"""Computes for 150 ms of CPU time per decision (``SPIN_MS``): over a 50 ms move time, so it
lives on its time bank (the runner charges CPU time: a bot that slept would not be charged)."""

import json
import os
import sys
import time

SPIN_S = int(os.environ.get("SPIN_MS", "150")) / 1000

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        print(f"bank {message['time']['bank_ms']}", file=sys.stderr, flush=True)
        until = time.process_time() + SPIN_S
        while time.process_time() < until:
            pass
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
    else:
        break
