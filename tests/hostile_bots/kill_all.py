"""Sends SIGKILL to every process it may signal: kill(-1)."""

import os
import signal

import wire

wire.until_first_request()
wire.report(killing=True)
os.kill(-1, signal.SIGKILL)
wire.forever()
