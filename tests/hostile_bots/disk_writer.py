"""Tries to write everywhere and to overfill its tmpfs.

With PROBE_MODE=check it looks for what an earlier run left in /tmp instead.
"""

import json
import os

import wire

MARKER = "/tmp/hostile-marker"
TARGETS = [
    "/marker",
    "/bot/marker",
    "/opt/monsoon/engine/marker",
    "/usr/marker",
    "/etc/marker",
    "/dev/marker",
    "/dev/shm/marker",
    "/proc/marker",
    MARKER,
]


def write(path: str, size: int = 16) -> None:
    with open(path, "wb") as out:
        out.write(b"x" * size)


wire.until_first_request()
if os.environ.get("PROBE_MODE") == "check":
    wire.report(leftover=os.path.exists(MARKER), tmp=sorted(os.listdir("/tmp")))
else:
    host_paths = json.loads(os.environ.get("PROBE_PATHS", "[]"))
    wire.report(
        writes={path: wire.attempt(lambda p=path: write(p)) for path in TARGETS + host_paths}
    )
    wire.report(cwd=os.getcwd(), cwd_write=wire.attempt(lambda: write("scratch")))
    wire.report(big_file=wire.attempt(lambda: write("/tmp/big", 12 * 1024**2)))
wire.forfeit()
