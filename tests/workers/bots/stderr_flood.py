"""Floods stderr (10 MB) before every answer, then plays its first legal action."""

import json
import sys

flood = "spam " * 200_000 + "\n"
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        for _ in range(10):
            sys.stderr.write(flood)
        sys.stderr.flush()
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
    else:
        break
