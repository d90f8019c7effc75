"""Seats that are not deciding are frozen: a bot gets nothing done during others' turns.

``busy_between_turns`` works all match long in a child process and counts its work in a file
the test reads from outside (through ``/proc/PID/root`` for a sandboxed seat). Its opponent
thinks 40 ms per turn. Every time the runner freezes the seat, the test waits until the worker
child has really stopped running (freezing is asynchronous), reads the count, and reads it
again just before the runner thaws the seat: nothing may have been done in between. Its time
limits are unaffected: it plays the whole match without a forfeit. The contrast case (freezing
switched off) shows the same bot working through the other seat's turns.
"""

from __future__ import annotations

import struct
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.workers.sandbox_helpers import TEST_LIMITS, TEST_UID_BASE, launcher, needs_sandbox
from workers import cgroups
from workers.launch import BotProcess, BotProgram, Limits, LocalLauncher
from workers.matches.runner import TimeControls, run_match
from workers.sandbox import BwrapLauncher, BwrapProcess, children_of, processes_of

pytestmark = needs_sandbox

HOSTILE = Path(__file__).resolve().parents[1] / "hostile_bots"
GAME = "packet_row"
CLOCK = TimeControls(startup_ms=5_000, move_ms=1_000, bank_ms=5_000, max_decisions_per_seat=200)
BUSY = BotProgram(HOSTILE, ("python3", "busy_between_turns.py"), "busy", {"THINK_MS": "10"})
SLOW = BotProgram(HOSTILE, ("python3", "slow_thinker.py"), "slow", {"THINK_MS": "40"})
STOP_WAIT_S = 0.5
"""How long a freeze may take to stop the worker child before the test reads on regardless."""
TREE, WHY = cgroups.cgroup_tree()


def state(pid: int) -> str:
    """The one-letter scheduler state of ``pid`` ('R' running, 'T' stopped, 'D' frozen...)."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[0]


class WatchedSeat:
    """A started bot whose freezes the test checks: work done from freeze to thaw."""

    def __init__(self, inner: BotProcess, counter: Path | None) -> None:
        self.inner = inner
        self.counter = counter
        self.frozen_at: int | None = None
        self.while_frozen: list[int] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def worker(self) -> int:
        """The pid of the bot's busy child (found below the sandbox's bwrap or the bot)."""
        bot = self.inner.pid
        if isinstance(self.inner, BwrapProcess):
            bot = children_of(bot)[0]
        return children_of(bot)[0]

    def work(self) -> int:
        path = self.counter or Path(f"/proc/{children_of(self.inner.pid)[0]}/root/tmp/work")
        return struct.unpack("Q", path.read_bytes()[:8])[0]

    def freeze(self) -> None:
        self.inner.freeze()
        deadline = time.monotonic() + STOP_WAIT_S
        while state(self.worker()) == "R" and time.monotonic() < deadline:
            time.sleep(0.0002)
        self.frozen_at = self.work()

    def thaw(self) -> None:
        if self.frozen_at is not None:
            self.while_frozen.append(self.work() - self.frozen_at)
            self.frozen_at = None
        self.inner.thaw()


class Watching:
    """A launcher that wraps seat 0 (the busy bot) in a :class:`WatchedSeat`."""

    def __init__(self, inner: Any, counter: Path | None = None) -> None:
        self.inner = inner
        self.counter = counter
        self.seat: WatchedSeat | None = None

    def launch(self, program: BotProgram, *, slot: int, limits: Limits) -> Any:
        process = self.inner.launch(program, slot=slot, limits=limits)
        if slot != 0:
            return process
        self.seat = WatchedSeat(process, self.counter)
        return self.seat


def play(watching: Watching, busy: BotProgram = BUSY) -> list[int]:
    """Busy against slow; the work busy did while frozen, per freeze."""
    outcome = run_match(
        GAME, 3, [busy, SLOW], launcher=watching, time_controls=CLOCK, limits=TEST_LIMITS
    )
    assert outcome.forfeits == [None, None], outcome.forfeits  # time limits mean the same
    assert watching.seat is not None
    frozen = watching.seat.while_frozen
    assert len(frozen) >= 10  # one per turn of the opponent, at least
    return frozen


needs_freezer = pytest.mark.skipif(
    TREE is None or not TREE.can_freeze, reason=f"no cgroup freezer here: {WHY}"
)


@needs_freezer
def test_a_seat_frozen_by_its_cgroup_gets_nothing_done_between_its_turns():
    assert sum(play(Watching(launcher()))) == 0
    for slot in (0, 1):
        assert processes_of(TEST_UID_BASE + slot, zombies=True) == []


def test_without_a_freezer_signals_stop_the_whole_seat_between_its_turns():
    signals = BwrapLauncher(uid_base=TEST_UID_BASE, cgroup_freezer=False)
    assert sum(play(Watching(signals))) == 0
    for slot in (0, 1):
        assert processes_of(TEST_UID_BASE + slot, zombies=True) == []


def test_local_bots_are_stopped_between_their_turns_too(tmp_path):
    counter = tmp_path / "work"
    busy = BotProgram(BUSY.directory, BUSY.command, "busy", {**BUSY.env, "WORK_FILE": str(counter)})
    assert sum(play(Watching(LocalLauncher(), counter), busy)) == 0


def test_an_unfrozen_seat_works_through_the_other_seats_turns(monkeypatch):
    """The contrast: what freezing takes away (and proof that the checks above can fail)."""
    monkeypatch.setattr(BwrapProcess, "freeze", lambda _self: None)
    monkeypatch.setattr(sys.modules[__name__], "STOP_WAIT_S", 0.01)  # it never stops: read soon
    frozen = play(Watching(launcher()))
    assert sum(1 for work in frozen if work > 0) > len(frozen) / 2
