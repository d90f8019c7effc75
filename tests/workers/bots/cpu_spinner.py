"""Burns ``argv[1]`` seconds of its own CPU time before every legal answer: slow but legal."""

import json
import sys
import time

SPIN_S = float(sys.argv[1]) if len(sys.argv) > 1 else 0.3

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        until = time.process_time() + SPIN_S
        while time.process_time() < until:
            pass
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
    else:
        break
