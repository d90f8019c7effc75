"""An honest opponent that takes ``THINK_MS`` over every decision: long turns for the others."""

import os
import time

import wire

THINK_S = int(os.environ.get("THINK_MS", "40")) / 1000

wire.receive()
wire.send({"ready": True})
while (message := wire.receive()) is not None and message["type"] == "request":
    time.sleep(THINK_S)
    wire.send({"action": message["legal_actions"][0]})
