"""Allocates far beyond its memory limit at the first decision."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        hoard = bytearray(8 * 1024 * 1024 * 1024)
