"""Tries the other kernel interfaces the seccomp filter refuses."""

import ctypes
import fcntl
import os
import socket
import subprocess
import threading

import wire

libc = ctypes.CDLL(None, use_errno=True)
SYS = {
    "io_uring_setup": 425,
    "keyctl": 250,
    "add_key": 248,
    "bpf": 321,
    "perf_event_open": 298,
    "personality": 135,
    "setns": 308,
    "userfaultfd": 323,
    "inotify_init1": 294,
    "inotify_init": 253,
}


def call(name: str, *args: int) -> None:
    if libc.syscall(SYS[name], *args) < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


AF_VSOCK, AF_PACKET, AF_ALG = 40, 17, 38


def open_socket(family: int, kind: int = socket.SOCK_STREAM, high_bits: bool = False) -> None:
    """socket(2) called directly, so the domain can carry bits above the low 32."""
    domain = family | (1 << 32 if high_bits else 0)
    fd = libc.syscall(41, ctypes.c_long(domain), kind, 0)  # x86_64 socket
    if fd < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    os.close(fd)


def lock(kind: str) -> None:
    with open("/bot/wire.py", "rb") as shared:
        if kind == "flock":
            fcntl.flock(shared, fcntl.LOCK_SH)
        else:
            fcntl.lockf(shared, fcntl.LOCK_SH)


wire.until_first_request()
wire.report(
    io_uring=wire.attempt(
        lambda: call("io_uring_setup", 8, ctypes.addressof(ctypes.create_string_buffer(120)))
    ),
    keyctl=wire.attempt(lambda: call("keyctl", 0, -3, 0)),
    add_key=wire.attempt(lambda: call("add_key", 0, 0, 0, 0, -3)),
    bpf=wire.attempt(lambda: call("bpf", 0, 0, 0)),
    perf_event_open=wire.attempt(lambda: call("perf_event_open", 0, 0, -1, -1, 0)),
    personality=wire.attempt(lambda: call("personality", 0x0040000)),
    setns=wire.attempt(lambda: call("setns", 0, 0)),
    userfaultfd=wire.attempt(lambda: call("userfaultfd", 0)),
    flock=wire.attempt(lambda: lock("flock")),
    lockf=wire.attempt(lambda: lock("lockf")),
    inotify_init1=wire.attempt(lambda: call("inotify_init1", 0)),
    inotify_init=wire.attempt(lambda: call("inotify_init")),
    vsock=wire.attempt(lambda: open_socket(AF_VSOCK)),
    vsock_high_bits=wire.attempt(lambda: open_socket(AF_VSOCK, high_bits=True)),
    packet=wire.attempt(lambda: open_socket(AF_PACKET, socket.SOCK_RAW)),
    alg=wire.attempt(lambda: open_socket(AF_ALG, socket.SOCK_SEQPACKET)),
    unix_socket_still_works=wire.attempt(lambda: open_socket(socket.AF_UNIX)),
    inet_socket_still_works=wire.attempt(lambda: open_socket(socket.AF_INET)),
    subprocess_still_works=wire.attempt(lambda: subprocess.run(["/usr/bin/true"], check=True)),
    thread_still_works=wire.attempt(lambda: threading.Thread(target=lambda: None).start()),
)
wire.forfeit()
