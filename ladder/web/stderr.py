"""A seat's captured stderr split by the decision it came with.

The match runner writes ``[monsoon step N]`` on a line of its own before the first bytes a bot
writes during its decision at replay step N (``workers/runner.py``, ``STDERR_STEP_MARK``).
Lines before the first mark were written at start-up (step 0).  Stderr captured before the
runner wrote marks has none, so it all lands on step 0 and the page says so.
"""

from __future__ import annotations

import re

STEP_MARK = re.compile(r"^\[monsoon step (\d+)\]$")


def stderr_by_step(text: str) -> dict[int, list[str]]:
    """``{step: [lines]}`` in order; empty lines between marks are dropped."""
    steps: dict[int, list[str]] = {}
    step = 0
    for line in text.splitlines():
        mark = STEP_MARK.match(line)
        if mark:
            step = int(mark.group(1))
            continue
        if line.strip():
            steps.setdefault(step, []).append(line)
    return steps


def has_marks(text: str) -> bool:
    return any(STEP_MARK.match(line) for line in text.splitlines())
