"""Works all match long in a child process, to get work done during the other seats' turns.

The child counts its work in a shared file (``WORK_FILE``, by default ``/tmp/work`` on the
seat's tmpfs), which a test reads from outside at any moment, frozen or not. The bot itself
thinks ``THINK_MS`` over each decision and plays the first legal action.
"""

import mmap
import os
import struct
import time

import wire

THINK_S = int(os.environ.get("THINK_MS", "20")) / 1000
with open(os.environ.get("WORK_FILE", "/tmp/work"), "w+b") as file:
    file.write(bytes(8))
    file.flush()
    counter = mmap.mmap(file.fileno(), 8)
if os.fork() == 0:
    done = 0
    while True:
        done += 1
        if done % 256 == 0:
            counter[:8] = struct.pack("Q", done)

wire.receive()
wire.send({"ready": True})
while (message := wire.receive()) is not None and message["type"] == "request":
    time.sleep(THINK_S)
    wire.send({"action": message["legal_actions"][0]})
