"""Answers a request with text that is not JSON."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        print("e2e4 please", flush=True)
