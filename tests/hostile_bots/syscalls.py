"""Tries the other kernel interfaces the seccomp filter refuses."""

import ctypes
import fcntl
import os
import subprocess
import threading

import wire

libc = ctypes.CDLL(None, use_errno=True)
SYS = {"io_uring_setup": 425, "keyctl": 250, "add_key": 248, "bpf": 321,
       "perf_event_open": 298, "personality": 135, "setns": 308, "userfaultfd": 323}


def call(name: str, *args: int) -> None:
    if libc.syscall(SYS[name], *args) < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


def lock(kind: str) -> None:
    with open("/bot/wire.py", "rb") as shared:
        if kind == "flock":
            fcntl.flock(shared, fcntl.LOCK_SH)
        else:
            fcntl.lockf(shared, fcntl.LOCK_SH)


wire.until_first_request()
wire.report(
    io_uring=wire.attempt(lambda: call("io_uring_setup", 8, ctypes.addressof(
        ctypes.create_string_buffer(120)))),
    keyctl=wire.attempt(lambda: call("keyctl", 0, -3, 0)),
    add_key=wire.attempt(lambda: call("add_key", 0, 0, 0, 0, -3)),
    bpf=wire.attempt(lambda: call("bpf", 0, 0, 0)),
    perf_event_open=wire.attempt(lambda: call("perf_event_open", 0, 0, -1, -1, 0)),
    personality=wire.attempt(lambda: call("personality", 0x0040000)),
    setns=wire.attempt(lambda: call("setns", 0, 0)),
    userfaultfd=wire.attempt(lambda: call("userfaultfd", 0)),
    flock=wire.attempt(lambda: lock("flock")),
    lockf=wire.attempt(lambda: lock("lockf")),
    subprocess_still_works=wire.attempt(
        lambda: subprocess.run(["/usr/bin/true"], check=True)),
    thread_still_works=wire.attempt(lambda: threading.Thread(target=lambda: None).start()),
)
wire.forfeit()
