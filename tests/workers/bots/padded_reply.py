"""Answers every request with a legal action in a reply line of exactly ``argv[1]`` bytes
(the newline excluded), padded with an extra key the runner ignores; ``argv[2]`` is the debug
note sent with it."""

import json
import sys

SIZE = int(sys.argv[1])
NOTE = sys.argv[2] if len(sys.argv) > 2 else ""

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        reply = {"action": message["legal_actions"][0], "pad": ""}
        if NOTE:
            reply["debug"] = NOTE
        short = SIZE - len(json.dumps(reply, separators=(",", ":")))
        reply["pad"] = "p" * max(short, 0)
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    else:
        break
