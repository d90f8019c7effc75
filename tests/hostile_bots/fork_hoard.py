"""Holds memory in three child processes: each within a per-process limit, together far beyond
the seat's limit (3 x 800 MiB by default, ``HOARD_MIB`` each). A seat cgroup stops it; rlimits
alone do not. Reports each child that got its block and, a moment after the last, how many
still live with theirs, then exits."""

import os
import time

import wire

MIB = 1024**2
EACH = int(os.environ.get("HOARD_MIB", "800")) * MIB

wire.until_first_request()
children = []
for child in range(3):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        block = bytearray(EACH)
        for page in range(0, EACH, 4096):  # really used, not just reserved
            block[page] = 1
        os.write(write_end, b"x")
        wire.forever()
    os.close(write_end)
    children.append(pid)
    wire.report(**{f"child_{child}_held": os.read(read_end, 1) == b"x"})
time.sleep(0.3)
wire.report(holding_together=sum(os.waitpid(pid, os.WNOHANG) == (0, 0) for pid in children))
os._exit(3)
