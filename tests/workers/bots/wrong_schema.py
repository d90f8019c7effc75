"""Answers a request with JSON that has no action."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        print(json.dumps({"move": message["legal_actions"][0]}), flush=True)
