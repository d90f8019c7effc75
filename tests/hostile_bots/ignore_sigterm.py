"""Ignores SIGTERM (and SIGINT, SIGHUP) and sleeps through its decision."""

import signal

import wire

for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
    signal.signal(sig, signal.SIG_IGN)
wire.until_first_request()
wire.forever()
