"""Computes for 150 ms of CPU time per decision: over a 50 ms move time, so it lives on its
time bank (the runner charges CPU time: a bot that slept instead would not be charged)."""

import json
import sys
import time

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        print(f"bank {message['time']['bank_ms']}", file=sys.stderr, flush=True)
        until = time.process_time() + 0.15
        while time.process_time() < until:
            pass
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
    else:
        break
