"""Holds memory in three child processes: each within a per-process limit, together far beyond
the seat's limit (3 x 800 MiB by default, ``HOARD_MIB`` each). A seat cgroup stops it; rlimits
alone do not. Reports each child that got its block and then how many still live with theirs,
then exits.

Nothing here depends on time, so a busy host cannot change the report: each child, once its
block is held, answers a ping on its own pipe until it dies, and the count asks every child
after the last one had its turn (a child the kernel killed answers with end-of-file). When
``SAMPLED`` names a file (the test's memory sampler counts its samples in it), the bot holds
its blocks until two more samples were taken, so the sampler sees the three blocks whatever
the host's load (a generous deadline keeps a broken sampler from holding it forever).
"""

import os
import time

import wire

MIB = 1024**2
EACH = int(os.environ.get("HOARD_MIB", "800")) * MIB
SAMPLED = os.environ.get("SAMPLED", "")
SAMPLER_PATIENCE_S = 60


def samples() -> int:
    try:
        with open(SAMPLED) as counter:
            return int(counter.read() or 0)
    except (OSError, ValueError):
        return 0


wire.until_first_request()
pings = []
for child in range(3):
    read_end, write_end = os.pipe()
    ping_read, ping_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.close(ping_write)
        block = bytearray(EACH)
        for page in range(0, EACH, 4096):  # really used, not just reserved
            block[page] = 1
        os.write(write_end, b"x")
        while os.read(ping_read, 1):
            os.write(write_end, b"y")
        wire.forever()
    os.close(write_end)
    os.close(ping_read)
    pings.append((ping_write, read_end))
    wire.report(**{f"child_{child}_held": os.read(read_end, 1) == b"x"})
if SAMPLED:
    wanted, deadline = samples() + 2, time.monotonic() + SAMPLER_PATIENCE_S
    while samples() < wanted and time.monotonic() < deadline:
        time.sleep(0.002)
    wire.report(sampler_looked=samples() >= wanted)


def alive(ping_write: int, answers: int) -> bool:
    try:
        os.write(ping_write, b"?")
    except OSError:  # its end is closed: it is dead
        return False
    return os.read(answers, 1) == b"y"


wire.report(holding_together=sum(alive(ping, answers) for ping, answers in pings))
os._exit(3)
