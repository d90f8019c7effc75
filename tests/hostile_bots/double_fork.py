"""Leaves a detached grandchild (own session, parent gone) behind, then crashes."""

import os
import sys
import time

import wire

wire.until_first_request()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        while True:  # the grandchild: tries to outlive the match
            time.sleep(0.05)
    os._exit(0)
os.wait()
wire.report(grandchild_started=True)
sys.exit(1)
