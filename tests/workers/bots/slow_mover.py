"""Takes 150 ms per decision: over a 50 ms move time, so it lives on its time bank."""

import json
import sys
import time

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        print(f"bank {message['time']['bank_ms']}", file=sys.stderr, flush=True)
        time.sleep(0.15)
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
    else:
        break
