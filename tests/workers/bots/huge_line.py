"""Answers a request with 100 MB without a newline."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        chunk = b"x" * (1024 * 1024)
        for _ in range(100):
            sys.stdout.buffer.write(chunk)
        sys.stdout.flush()
