"""Looks for the worker's secrets: its environment, files, /root, other processes."""

import json
import os

import wire


def read(path: str) -> None:
    if os.path.isdir(path):
        os.listdir(path)
    else:
        with open(path, "rb") as source:
            source.read(64)


def environment_names(path: str) -> list[str]:
    with open(path, "rb") as source:
        return sorted(
            item.split(b"=", 1)[0].decode() for item in source.read().split(b"\0") if item
        )


wire.until_first_request()
paths = json.loads(os.environ.get("PROBE_PATHS", "[]"))
wire.report(
    env=sorted(os.environ),
    reads={
        path: wire.attempt(lambda p=path: read(p))
        for path in [*paths, "/root", "/home", "/etc/shadow", "/etc/passwd", "/work"]
    },
    pids=sorted(int(name) for name in os.listdir("/proc") if name.isdigit()),
    init_environ=environment_names("/proc/1/environ"),
    root_entries=sorted(os.listdir("/")),
)
wire.forfeit()
