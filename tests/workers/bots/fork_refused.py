"""What a bot sees when its process limit refuses a fork: EAGAIN from fork(), uncaught.

(A real fork bomb is not run with the plain launcher: as root the process rlimit does not
apply. The sandbox's hostile-bot suite runs the real one.)
"""

import errno
import json
import sys


def fork():
    raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")


for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print(json.dumps({"ready": True}), flush=True)
    elif message["type"] == "request":
        fork()
