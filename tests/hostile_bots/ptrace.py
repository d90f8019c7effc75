"""Tries to trace processes: the sandbox's init, its own child, itself."""

import ctypes
import os
import time

import wire

libc = ctypes.CDLL(None, use_errno=True)
PTRACE_TRACEME, PTRACE_ATTACH = 0, 16


def ptrace(request: int, pid: int) -> None:
    if libc.ptrace(request, pid, None, None) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))


wire.until_first_request()
child = os.fork()
if child == 0:
    time.sleep(30)
    os._exit(0)
wire.report(
    attach_init=wire.attempt(lambda: ptrace(PTRACE_ATTACH, 1)),
    attach_child=wire.attempt(lambda: ptrace(PTRACE_ATTACH, child)),
    traceme=wire.attempt(lambda: ptrace(PTRACE_TRACEME, 0)),
)
wire.forfeit()
