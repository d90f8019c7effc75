"""Tries every known way to watch another seat's file activity on the files seats share.

Seats share read-only files (``/usr``, ``/opt/monsoon``, and ``/bot`` when one owner's bot
plays itself). Each way below would tell this seat when another opens, reads or locks one of
them, which two seats of one owner could use as a channel: each must be refused, or see nothing.
"""

import ctypes
import fcntl
import os

import wire

libc = ctypes.CDLL(None, use_errno=True)
SYS_FCNTL, SYS_INOTIFY_INIT1, SYS_FANOTIFY_INIT, SYS_FLOCK = 72, 294, 300, 73
F_SETLEASE, F_NOTIFY = 1024, 1026
DN_ACCESS, DN_MODIFY, DN_MULTISHOT = 0x1, 0x2, 0x80000000
SHARED_DIR = "/opt/monsoon/engine"
SHARED_FILE = "/bot/wire.py"


def raw(number: int, *args: int) -> None:
    """A syscall made directly, so that high bits reach the kernel as given."""
    if libc.syscall(number, *[ctypes.c_long(a) for a in args]) < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


def dnotify(path: str, high_bits: bool = False) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        if high_bits:
            raw(SYS_FCNTL, fd, F_NOTIFY | 1 << 32, DN_ACCESS | DN_MULTISHOT)
        else:
            fcntl.fcntl(fd, F_NOTIFY, DN_ACCESS | DN_MODIFY | DN_MULTISHOT)
    finally:
        os.close(fd)


def lease(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.fcntl(fd, F_SETLEASE, fcntl.F_RDLCK)
    finally:
        os.close(fd)


def flock(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        raw(SYS_FLOCK, fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    finally:
        os.close(fd)


def atime_moves(path: str) -> bool:
    """Whether reading ``path`` changes its access time (which any seat can stat)."""
    before = os.stat(path).st_atime_ns
    with open(path, "rb") as shared:
        shared.read()
    return os.stat(path).st_atime_ns != before


def read_only(path: str) -> bool:
    """Whether ``path`` lies on a read-only mount, where the kernel records no access time."""
    return bool(os.statvfs(path).f_flag & os.ST_RDONLY)


wire.until_first_request()
wire.report(
    inotify=wire.attempt(lambda: raw(SYS_INOTIFY_INIT1, 0)),
    fanotify=wire.attempt(lambda: raw(SYS_FANOTIFY_INIT, 0, os.O_RDONLY)),
    dnotify_shared_dir=wire.attempt(lambda: dnotify(SHARED_DIR)),
    dnotify_bot_dir=wire.attempt(lambda: dnotify("/bot")),
    dnotify_high_bits=wire.attempt(lambda: dnotify(SHARED_DIR, high_bits=True)),
    lease=wire.attempt(lambda: lease(SHARED_FILE)),
    flock=wire.attempt(lambda: flock(SHARED_FILE)),
    atime_moves=atime_moves(os.environ["PROBE_BAIT"]),
    shared_mounts_read_only=all(read_only(p) for p in ("/bot", SHARED_DIR, "/usr", "/etc")),
)
wire.forfeit()
