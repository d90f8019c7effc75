"""Never reads stdin after start: the runner's writes must not block it."""

import json
import sys
import time

sys.stdin.readline()
print(json.dumps({"ready": True}), flush=True)
time.sleep(60)
