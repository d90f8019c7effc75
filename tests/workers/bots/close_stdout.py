"""Says ready, then closes its stdout and keeps running."""

import json
import os
import sys
import time

sys.stdin.readline()
print(json.dumps({"ready": True}), flush=True)
os.close(1)
time.sleep(60)
