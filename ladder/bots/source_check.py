"""Syntax-check uploaded Python sources in a child process with hard limits.

Compiling is not running, but it is not free either: the compiler's memory grows with the
number of statements, so a 20 MiB ``a=1`` file made a web process grow to ~5 GB. The web
process therefore never compiles an upload itself. One short-lived child (``python -I``)
gets every source of an upload on stdin, caps its own address space and CPU time before it
reads a byte, compiles each file and answers with one JSON line. Whatever the upload holds,
the web process spends the child's start-up and a pipe's worth of copying; a source the
child cannot compile within its limits is refused with that reason.

The compile is bounded by the child's CPU time (``RLIMIT_CPU``: the kernel stops it), never by
wall-clock time: on a busy host a child gets fewer cycles per second, and ten parallel uploads
of a small valid bot were refused when a 0.75 s wall-clock limit (interpreter start included)
decided. A child that has not answered after a generous wall-clock wait is the host's fault:
:class:`CheckerBusy`, which the API answers with 503 and ``Retry-After``, refusing nothing.
"""

from __future__ import annotations

import json
import signal
import struct
import subprocess
import sys
from dataclasses import dataclass

# The child's own limits. CPU seconds are whole seconds for RLIMIT_CPU (the soft limit sends
# SIGXCPU, the hard one a second later SIGKILL); they include the interpreter's start (~20 ms).
CHILD_MEMORY_BYTES = 512 * 1024 * 1024
CHILD_CPU_SECONDS = 1
CHILD_WALL_SECONDS = 30.0
"""How long the web process waits for the child's answer: far beyond its CPU limit, so only a
host too busy to run it ends the wait (:class:`CheckerBusy`), never the upload's sources."""
RETRY_AFTER_SECONDS = 30
"""What a :class:`CheckerBusy` answer tells the client to wait before trying again."""
_CPU_SIGNALS = (-signal.SIGXCPU, -signal.SIGKILL)

_CHILD = r"""
import json, resource, struct, sys
resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
resource.setrlimit(resource.RLIMIT_CPU, ({cpu}, {cpu} + 1))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
stream = sys.stdin.buffer
def answer(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()
    raise SystemExit(0)
while True:
    head = stream.read(8)
    if len(head) < 8:
        answer({{"ok": True}})
    name_len, text_len = struct.unpack(">II", head)
    name = stream.read(name_len).decode("utf-8")
    text = stream.read(text_len).decode("utf-8")
    try:
        compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        answer({{"name": name, "line": exc.lineno, "error": str(exc.msg)}})
    except (ValueError, RecursionError, MemoryError) as exc:
        answer({{"name": name, "line": None, "error": type(exc).__name__}})
    del text
"""


@dataclass(frozen=True)
class SourceProblem:
    """Why an upload's Python does not compile; ``line`` is None when no line is to blame."""

    name: str
    line: int | None
    error: str


class CheckerUnavailable(RuntimeError):
    """The checker itself could not run (no interpreter, no process); not the upload's fault."""


class CheckerBusy(CheckerUnavailable):
    """The child did not answer within :data:`CHILD_WALL_SECONDS` without using up its CPU
    limit: the host is too busy to check now. The upload should be retried, not refused."""


def _frame(sources: dict[str, bytes]) -> bytes:
    parts = []
    for name, data in sources.items():
        raw_name = name.encode("utf-8")
        parts += [struct.pack(">II", len(raw_name), len(data)), raw_name, data]
    return b"".join(parts)


def first_syntax_problem(sources: dict[str, bytes]) -> SourceProblem | None:
    """The first source that does not compile, or None when all do.

    ``sources`` are UTF-8 bytes by file name (the caller has checked the encoding), passed
    on as they are so the web process holds one extra copy at most.

    A source too big or too slow to compile within the child's limits is a problem too:
    its ``error`` says which limit it met. Raises :class:`CheckerBusy` when the host did not
    let the child finish in time, :class:`CheckerUnavailable` when it cannot start.
    """
    if not sources:
        return None
    program = _CHILD.format(memory=CHILD_MEMORY_BYTES, cpu=CHILD_CPU_SECONDS)
    try:
        done = subprocess.run(  # our own interpreter, a fixed program
            [sys.executable, "-I", "-S", "-c", program],
            input=_frame(sources),
            capture_output=True,
            timeout=CHILD_WALL_SECONDS,
            check=False,
        )
    except subprocess.TimeoutExpired:
        raise CheckerBusy(
            f"the syntax checker did not finish within {CHILD_WALL_SECONDS:g} s: the server is busy"
        ) from None
    except OSError as exc:
        raise CheckerUnavailable(f"the syntax checker cannot start: {exc}") from exc
    if done.returncode in _CPU_SIGNALS:
        return SourceProblem(
            "",
            None,
            f"the Python sources take more than {CHILD_CPU_SECONDS} s of CPU time to compile",
        )
    lines = done.stdout.decode("utf-8", "replace").strip().splitlines()
    if done.returncode != 0 or not lines:
        return SourceProblem(
            "",
            None,
            "the Python sources cannot be compiled within "
            f"{CHILD_MEMORY_BYTES // (1024 * 1024)} MB and {CHILD_CPU_SECONDS} s of CPU",
        )
    verdict = json.loads(lines[-1])
    if verdict.get("ok"):
        return None
    return SourceProblem(verdict["name"], verdict["line"], verdict["error"])
