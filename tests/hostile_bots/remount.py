"""Tries to make its read-only mounts writable (remount, unmount, a new mount namespace)."""

import ctypes
import os

import wire

libc = ctypes.CDLL(None, use_errno=True)
MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 32, 4096
CLONE_NEWNS, CLONE_NEWUSER = 0x00020000, 0x10000000


def checked(result: int) -> None:
    if result != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


def write(path: str) -> None:
    with open(path, "wb") as out:
        out.write(b"x")


wire.until_first_request()
wire.report(
    remount_bind=wire.attempt(
        lambda: checked(libc.mount(b"none", b"/bot", None, MS_REMOUNT | MS_BIND, None))
    ),
    remount=wire.attempt(
        lambda: checked(libc.mount(b"none", b"/opt/monsoon/engine", None, MS_REMOUNT, None))
    ),
    umount=wire.attempt(lambda: checked(libc.umount2(b"/bot", 2))),
    tmpfs_over=wire.attempt(lambda: checked(libc.mount(b"x", b"/bot", b"tmpfs", 0, None))),
    unshare=wire.attempt(lambda: checked(libc.unshare(CLONE_NEWUSER | CLONE_NEWNS))),
    write_after=wire.attempt(lambda: write("/bot/remounted")),
)
wire.forfeit()
