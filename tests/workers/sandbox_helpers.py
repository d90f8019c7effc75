"""What the sandbox tests share: the skip rule and a way to run a small bot to completion."""

from __future__ import annotations

import json
import os
import select
import time
from pathlib import Path

import pytest

from workers.launch import MIB, BotProgram, Limits
from workers.sandbox import BwrapLauncher, BwrapProcess, claim_uid_block, sandbox_problem

PROBLEM = sandbox_problem()
needs_sandbox = pytest.mark.skipif(PROBLEM is not None, reason=f"no sandbox here: {PROBLEM}")
"""Skip only where bubblewrap cannot run; `make test` installs it, so here it must run."""

TEST_UID_BASE = claim_uid_block() if os.geteuid() == 0 else os.getuid()
"""This test process's seat uids (its own claimed block, as a worker's): suites of other
checkouts may run sandboxes on this host at the same time."""

TEST_LIMITS = Limits(
    memory_bytes=256 * MIB,
    cpu_seconds=20,
    processes=32,
    file_size_bytes=16 * MIB,
    open_files=64,
    tmpfs_bytes=8 * MIB,
)


def write_bot(directory: Path, source: str) -> BotProgram:
    """A one-file Python bot in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "main.py").write_text(source)
    return BotProgram(directory=directory)


def read_all(stream_fd: int, deadline: float) -> bytes:
    """Everything on ``stream_fd`` until EOF or the deadline (monotonic seconds)."""
    data = b""
    while (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([stream_fd], [], [], left)
        if not ready:
            break
        chunk = os.read(stream_fd, 65536)
        if not chunk:
            break
        data += chunk
    return data


def read_line(stream_fd: int, deadline: float) -> bytes:
    """One line from ``stream_fd`` (without waiting for EOF), or what came before the deadline."""
    data = b""
    while b"\n" not in data and (left := deadline - time.monotonic()) > 0:
        ready, _, _ = select.select([stream_fd], [], [], left)
        if not ready:
            break
        chunk = os.read(stream_fd, 65536)
        if not chunk:
            break
        data += chunk
    return data


def run_to_end(
    process: BwrapProcess, stdin: bytes = b"", timeout: float = 10
) -> tuple[dict, bytes]:
    """Feed ``stdin``, close it, and return (the JSON the bot printed, its stderr)."""
    try:
        process.stdin.write(stdin)
        process.stdin.close()
    except BrokenPipeError:
        pass
    deadline = time.monotonic() + timeout
    out = read_all(process.stdout.fileno(), deadline)
    err = read_all(process.stderr.fileno(), deadline)
    return (json.loads(out) if out.strip() else {}), err


def launcher() -> BwrapLauncher:
    return BwrapLauncher(uid_base=TEST_UID_BASE)


def launch(program: BotProgram, slot: int = 0, limits: Limits = TEST_LIMITS) -> BwrapProcess:
    return launcher().launch(program, slot=slot, limits=limits)
