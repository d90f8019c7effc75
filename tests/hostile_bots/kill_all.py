"""Sends SIGKILL to every process it may signal: kill(-1)."""

import os
import signal
import time

import wire

wire.until_first_request()
child = os.fork()
if child == 0:
    time.sleep(600)
    os._exit(0)
os.kill(-1, signal.SIGKILL)
_, status = os.waitpid(child, 0)
wire.report(own_child_killed=os.WIFSIGNALED(status))
wire.forever()
