"""Computes for a share of its move time in CPU time at each decision, then answers.

``SHARE`` (default 0.7) is the share of ``move_ms``; ``BURN`` (default: every decision) how
many of its decisions compute before it answers at once. It measures its own CPU time, as a
bot author would, so what it spends is what the runner must charge whatever the host's load.
"""

import json
import os
import random
import sys
import time

share = float(os.environ.get("SHARE", "0.7"))
burn = int(os.environ.get("BURN", "1000000"))
move_s = 0.0
decisions = 0
rng = random.Random(7)  # a random legal move: always the first can loop forever
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        move_s = message["time"]["move_ms"] / 1000
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        decisions += 1
        if decisions <= burn:
            until = time.process_time() + share * move_s
            while time.process_time() < until:
                pass
        print(json.dumps({"action": rng.choice(message["legal_actions"])}), flush=True)
    else:
        break
