"""A seat's memory and processes are bounded in total (its cgroup), not only per process.

``fork_hoard`` holds a block in each of three child processes, every block within the
per-process ``RLIMIT_AS`` but the three together far beyond the seat's memory limit. With a seat
cgroup (v1 on a hybrid host like the development machine, v2 elsewhere) the seat's memory never
exceeds the limit, the kernel kills inside the seat and the seat forfeits with
``memory_limit``; without one (the contrast case) the same bot holds all three blocks.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import pytest

from tests.workers.sandbox_helpers import (
    TEST_LIMITS,
    TEST_UID_BASE,
    launch,
    launcher,
    needs_sandbox,
    read_line,
    write_bot,
)
from workers import cgroups
from workers.launch import MIB, BotProgram, Limits
from workers.matches.reference import reference_bot
from workers.matches.runner import MatchOutcome, TimeControls, run_match
from workers.sandbox import BwrapLauncher, BwrapProcess, processes_of

HOSTILE = Path(__file__).resolve().parents[1] / "hostile_bots"
GAME = "packet_row"
CLOCK = TimeControls(startup_ms=5_000, move_ms=300, bank_ms=8_000, max_decisions_per_seat=2_000)
HOARD_MIB = 160
"""Each child's block: below TEST_LIMITS' 256 MiB RLIMIT_AS, three of them far above it."""
TREE, WHY = cgroups.cgroup_tree()
needs_seat_cgroups = pytest.mark.skipif(TREE is None, reason=f"no seat cgroups here: {WHY}")

pytestmark = needs_sandbox


class RecordingLauncher:
    """The test launcher, keeping every process it started (to read their cgroups after)."""

    def __init__(self, inner: BwrapLauncher) -> None:
        self.inner = inner
        self.started: list[BwrapProcess] = []

    def launch(self, program: BotProgram, *, slot: int, limits: Limits) -> BwrapProcess:
        process = self.inner.launch(program, slot=slot, limits=limits)
        self.started.append(process)
        return process


class SeatMemory(threading.Thread):
    """The most memory seat 0's processes held at once, by the kernel's proportional set size.

    Read from ``/proc/PID/smaps_rollup`` (shared pages divided among their users), independent
    of any cgroup: what the host really gave the seat. Each finished sample is counted in the
    file ``sampled`` of the seat's ``/bot`` (its staged copy, which the seat sees live), which
    ``fork_hoard`` reads: it holds its blocks until the sampler has looked, rather than for a
    fixed moment a busy host may not give this thread.
    """

    def __init__(self, uid: int, recording: RecordingLauncher) -> None:
        super().__init__(daemon=True)
        self.uid = uid
        self.peak = 0
        self.samples = 0
        self.recording = recording
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.wait(0.002):
            total = 0
            seat = processes_of(self.uid)
            for pid in seat:
                with contextlib.suppress(OSError), open(f"/proc/{pid}/smaps_rollup") as rollup:
                    for line in rollup:
                        if line.startswith("Pss:"):
                            total += int(line.split()[1]) * 1024
            if processes_of(self.uid) == seat:  # not a sum across a process's death
                self.peak = max(self.peak, total)
            self.samples += 1
            self._count()

    def _count(self) -> None:
        started = self.recording.started
        folder = started[0].bot_directory if started else None
        if folder is None or not folder.is_dir():
            return
        partial = folder / "sampled.new"
        with contextlib.suppress(OSError):  # the seat's copy is removed when it ends
            partial.write_text(str(self.samples))
            partial.chmod(0o644)
            partial.replace(folder / "sampled")  # the bot never reads half a number


def hoard(
    each_mib: int = HOARD_MIB, limits: Limits = TEST_LIMITS
) -> tuple[MatchOutcome, int, RecordingLauncher]:
    """``fork_hoard`` at seat 0 against the random bot; the seat's sampled peak memory.

    The bot runs from a copy of its files in a folder the seat can read, which also holds the
    sampler's counter (the sandbox's ``/bot`` shows the folder as it changes).
    """
    recording = RecordingLauncher(launcher())
    folder = Path(tempfile.mkdtemp(prefix="monsoon-hoard-"))
    folder.chmod(0o755)
    for name in ("fork_hoard.py", "wire.py"):
        shutil.copy(HOSTILE / name, folder / name)
        (folder / name).chmod(0o644)
    sampler = SeatMemory(TEST_UID_BASE, recording)
    sampler.start()
    try:
        outcome = run_match(
            GAME,
            5,
            [
                BotProgram(
                    folder,
                    ("python3", "fork_hoard.py"),
                    "fork_hoard",
                    {"HOARD_MIB": str(each_mib), "SAMPLED": "/bot/sampled"},
                ),
                reference_bot("random"),
            ],
            launcher=recording,
            time_controls=CLOCK,
            limits=limits,
        )
    finally:
        sampler.stop.set()
        sampler.join()
        shutil.rmtree(folder)
    assert outcome.forfeits[1] is None, outcome.stderr[1]
    # The sampler's counts reached the bot (not its 60 s patience running out, which would
    # make this test a minute long and its peak a matter of luck).
    assert '"sampler_looked": true' in outcome.stderr[0], outcome.stderr[0]
    for slot in (0, 1):
        assert processes_of(TEST_UID_BASE + slot, zombies=True) == []
    return outcome, sampler.peak, recording


def holding_together(outcome: MatchOutcome) -> int:
    """How many of the three children held their block at once, by the bot's own report."""
    marker = 'PROBE {"holding_together": '
    assert marker in outcome.stderr[0], outcome.stderr[0]
    return int(outcome.stderr[0].split(marker)[1][0])


@needs_seat_cgroups
@pytest.mark.parametrize(
    ("each_mib", "limits"),
    [
        (HOARD_MIB, TEST_LIMITS),
        # The case found in the attack: 3 x 800 MB under the default 1 GiB limit per seat.
        (800, Limits()),
    ],
)
def test_a_seat_cannot_hold_more_than_its_limit_across_processes(each_mib, limits):
    outcome, peak, recording = hoard(each_mib, limits)
    limit = limits.memory_bytes
    assert outcome.forfeits[0] is not None
    assert outcome.forfeits[0].startswith("memory_limit: the sandbox stopped it"), outcome.forfeits
    assert holding_together(outcome) < 3  # the kernel killed inside the seat
    assert 'child_0_held": true' in outcome.stderr[0]  # one process alone was within limits
    # Proportional set sizes also count shared library pages that the host's page cache (not
    # the seat) was charged for: a few MiB of slack for those, far below one more block.
    slack = 8 * MIB
    assert peak <= limit + slack, f"seat 0 held {peak / MIB:.0f} MiB, limit {limit / MIB:.0f} MiB"
    seat = recording.started[0]
    cgroup_peak = seat.peak_memory_bytes()
    assert cgroup_peak is not None and cgroup_peak <= limit
    assert seat.limit_hit() == "memory_limit"
    # The workers' metrics read the same peak, for the forfeited seat as for the other one.
    assert outcome.seat_usage[0][0] == cgroup_peak
    assert outcome.seat_usage[1][0] == recording.started[1].peak_memory_bytes() is not None


def test_without_a_seat_cgroup_the_same_bot_holds_three_times_its_limit(monkeypatch):
    """The contrast that shows what the cgroup adds (and that the test above can fail)."""
    monkeypatch.setattr(cgroups, "_found", (None, "switched off for this test"))
    monkeypatch.setenv(cgroups.ALLOW_UNBOUNDED_ENV, "1")
    outcome, peak, _ = hoard()
    assert holding_together(outcome) == 3
    assert peak > 1.5 * TEST_LIMITS.memory_bytes
    assert outcome.forfeits[0] is not None and outcome.forfeits[0].startswith("crash")


def test_a_host_that_cannot_bound_a_seat_refuses_to_start_bots(monkeypatch, tmp_path):
    monkeypatch.setattr(cgroups, "_found", (None, "no cgroup v2 hierarchy is mounted"))
    monkeypatch.delenv(cgroups.ALLOW_UNBOUNDED_ENV, raising=False)
    bot = BotProgram(HOSTILE, ("python3", "slow_thinker.py"), "slow")
    from workers.sandbox import SandboxUnavailable

    with pytest.raises(SandboxUnavailable) as refused:
        launcher().launch(bot, slot=0, limits=TEST_LIMITS)
    assert "cannot bound a seat's total memory and processes" in str(refused.value)
    assert "no cgroup v2 hierarchy is mounted" in str(refused.value)
    assert "MONSOON_ALLOW_UNBOUNDED_SEATS=1" in str(refused.value)
    # The match is not played at all: a host failure, not a forfeit of the bots.
    with pytest.raises(SandboxUnavailable):
        run_match(GAME, 1, [bot, bot], launcher=launcher(), time_controls=CLOCK)
    assert processes_of(TEST_UID_BASE, zombies=True) == []


@needs_seat_cgroups
def test_what_a_seat_writes_to_its_tmpfs_counts_against_its_memory():
    """tmpfs pages are memory: charged to the seat that wrote them (and capped by the size)."""
    limits = dataclasses.replace(TEST_LIMITS, tmpfs_bytes=48 * MIB, file_size_bytes=48 * MIB)
    program = write_bot(
        Path(tempfile.mkdtemp(prefix="monsoon-test-")) / "fill",
        "import sys\n"
        "with open('/tmp/fill', 'wb') as f:\n"
        "    for _ in range(40):\n"
        "        f.write(bytes(1024 * 1024))\n"
        "print('written', flush=True)\n"
        "sys.stdin.read()\n",
    )
    os.chmod(program.directory.parent, 0o755)
    os.chmod(program.directory, 0o755)
    process = launch(program, limits=limits)
    try:
        assert read_line(process.stdout.fileno(), time.monotonic() + 10) == b"written\n"
        peak = process.peak_memory_bytes()
    finally:
        process.terminate_all()
        shutil.rmtree(program.directory.parent)
    assert peak is not None and peak >= 40 * MIB
