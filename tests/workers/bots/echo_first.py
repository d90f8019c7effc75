"""Answers every request with its first legal action, in plain Python (no SDK)."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        print(json.dumps({"action": message["legal_actions"][0], "debug": "first"}), flush=True)
    else:
        break
