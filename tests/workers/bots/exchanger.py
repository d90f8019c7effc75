"""Stalls East Indiaman: exchanges whenever it may, never passes while anything else is legal."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        legal = message["legal_actions"]
        exchanges = [a for a in legal if a.startswith("exchange:")]
        others = [a for a in legal if not a.startswith("pass:")]
        action = (exchanges or others or legal)[0]
        print(json.dumps({"action": action}), flush=True)
    else:
        break
