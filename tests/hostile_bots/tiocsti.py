"""Tries to push keystrokes into a terminal with TIOCSTI (also with high bits set)."""

import ctypes
import fcntl
import os
import termios

import wire

libc = ctypes.CDLL(None, use_errno=True)
SYS_IOCTL = 16


def inject(request: int) -> None:
    fd = os.open("/dev/ptmx", os.O_RDWR | os.O_NOCTTY)
    try:
        if request == termios.TIOCSTI:
            fcntl.ioctl(fd, request, b"x")
        elif libc.syscall(SYS_IOCTL, fd, ctypes.c_ulong(request), b"x") != 0:
            raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    finally:
        os.close(fd)


wire.until_first_request()
wire.report(
    controlling_tty=wire.attempt(lambda: os.close(os.open("/dev/tty", os.O_RDWR))),
    tiocsti=wire.attempt(lambda: inject(termios.TIOCSTI)),
    tiocsti_high_bits=wire.attempt(lambda: inject(termios.TIOCSTI | 1 << 32)),
)
wire.forfeit()
