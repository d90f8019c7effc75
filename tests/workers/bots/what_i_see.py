"""Reports on stderr what a seat can learn of its match: the start message, the shape of each
request, its environment and folders; answers with the first legal action."""

import json
import os
import sys


def shape(request: dict) -> dict:
    """The fields of a request and of its observation, not their values (deals differ)."""
    observation = request.get("observation")
    return {
        "request": sorted(request),
        "observation": sorted(observation) if isinstance(observation, dict) else None,
    }


requests = set()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        seen = {
            "start": message,
            "env": sorted(os.environ.items()),
            "cwd": os.getcwd(),
            "files": sorted(os.listdir(".")),
            "bot": sorted(os.listdir("/bot")),
        }
        print("SEEN " + json.dumps(seen, sort_keys=True), file=sys.stderr, flush=True)
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        shaped = json.dumps(shape(message), sort_keys=True)
        if shaped not in requests:
            requests.add(shaped)
            print("REQUEST " + shaped, file=sys.stderr, flush=True)
        print(json.dumps({"action": message["legal_actions"][0]}), flush=True)
    else:
        break
