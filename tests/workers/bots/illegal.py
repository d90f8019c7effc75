"""Answers with an action that is never legal."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        print(json.dumps({"action": "teleport:home"}), flush=True)
