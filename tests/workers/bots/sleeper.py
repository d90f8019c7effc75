"""Starts properly, then sleeps through its first decision."""

import json
import sys
import time

for line in sys.stdin:
    if json.loads(line)["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    else:
        time.sleep(60)
