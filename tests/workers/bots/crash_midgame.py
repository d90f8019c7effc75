"""Plays two decisions, then raises."""

import json
import sys

count = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        count += 1
        if count > 2:
            raise RuntimeError("bug in my bot")
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
