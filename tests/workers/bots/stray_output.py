"""Answers like echo_first, then prints a stray empty line a moment later, while other seats
play: the runner must read it only at this seat's next decision, skip it, and take the reply."""

import json
import sys
import time

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        print(json.dumps({"action": message["legal_actions"][0], "debug": "first"}), flush=True)
        time.sleep(0.001)
        print(flush=True)
    else:
        break
