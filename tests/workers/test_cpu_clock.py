"""Decisions are charged the seat's CPU time, so a busy host never costs a bot its game.

The runner used to charge wall-clock time: beside two busy processes on a 2-core machine a bot
got about two thirds of a core and lost on time with a reply that needed 70% of its move time.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.workers.programs import BOTS, random_bot
from tests.workers.sandbox_helpers import PROBLEM, TEST_UID_BASE, needs_sandbox
from workers import cgroups
from workers.cputime import CpuClock, tree_cpu_seconds
from workers.launch import BotProgram, Launcher, LocalLauncher
from workers.matches.runner import TimeControls, run_match
from workers.sandbox import BwrapLauncher

MOVE = TimeControls(startup_ms=10_000, move_ms=200, bank_ms=0, max_decisions_per_seat=2_000)
"""200 ms a decision and no bank: each decision alone must fit the move time."""


def share_bot(share: float, burn: int | None = None) -> BotProgram:
    """``tests/workers/bots/cpu_share.py``: ``share`` of its move time in CPU per decision."""
    env = {"SHARE": str(share)} | ({"BURN": str(burn)} if burn is not None else {})
    return BotProgram(BOTS, ("python3", "cpu_share.py"), "cpu_share", env)


@needs_sandbox
@pytest.mark.usefixtures("two_cpu_hogs")
def test_a_bot_using_70_percent_of_its_move_time_in_cpu_never_forfeits_on_a_busy_host():
    # 20 sandboxed East Indiaman matches; the bot computes for 140 ms of CPU in each of its
    # first three decisions (then answers at once, to keep the test short).
    launcher = BwrapLauncher(uid_base=TEST_UID_BASE)
    forfeits = []
    for seed in range(20):
        bots = [share_bot(0.7, burn=3), random_bot()]
        outcome = run_match("east_indiaman", seed, bots, launcher=launcher, time_controls=MOVE)
        forfeits += [f"seed {seed}: {f}" for f in outcome.forfeits if f is not None]
        charged = [d["ms"] for d in outcome.log["decisions"] if d["seat"] == 0 and "ms" in d]
        assert len([ms for ms in charged if ms >= 130]) == 3, charged  # its work was charged
    assert forfeits == []


@pytest.mark.parametrize("where", ["sandbox", "local"])
def test_a_bot_computing_well_over_its_move_time_still_forfeits_on_cpu_time(where):
    # 600 ms of CPU against 200 ms. The wall-clock backstop is far (30 x), so on however busy
    # a host the CPU account is what ends the decision: the seat's cgroup in the sandbox, its
    # process tree in /proc for a local bot.
    launcher: Launcher
    if where == "sandbox":
        if PROBLEM is not None:
            pytest.skip(f"no sandbox here: {PROBLEM}")
        launcher = BwrapLauncher(uid_base=TEST_UID_BASE)
    else:
        launcher = LocalLauncher()
    clock = TimeControls(startup_ms=10_000, move_ms=200, bank_ms=0, wall_factor=30)
    bots = [share_bot(3.0), random_bot()]
    outcome = run_match("east_indiaman", 1, bots, launcher=launcher, time_controls=clock)
    assert outcome.forfeits[0] == (
        "timeout: no reply within 200 ms (move time plus the time bank) of CPU time"
    )
    assert outcome.forfeits[1] is None


CHILD_WORKS = """\
import os, sys, time
pid = os.fork()
if pid == 0:
    until = time.process_time() + 0.3
    while time.process_time() < until:
        pass
    print("spun", flush=True)
    sys.stdin.read()
    os._exit(0)
os.waitpid(pid, 0)
print("reaped", flush=True)
sys.stdin.read()
"""


def test_a_process_tree_is_charged_its_children_cpu_while_they_live_and_once_reaped():
    # No cgroup outside the sandbox: the /proc reading must see the child's work both while it
    # runs (its own utime) and after its parent reaped it (the parent's cutime).
    bot = subprocess.Popen(
        [sys.executable, "-c", CHILD_WORKS], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    try:
        clock = CpuClock(lambda: tree_cpu_seconds(bot.pid))
        assert bot.stdout is not None and bot.stdin is not None
        assert bot.stdout.readline() == b"spun\n"
        alive = clock.read()
        bot.stdin.close()
        assert bot.stdout.readline() == b"reaped\n"
        reaped = clock.read()
    finally:
        bot.kill()
        bot.wait()
    assert alive is not None and alive >= 0.25
    assert reaped is not None and reaped >= alive


def test_a_cpu_reading_never_goes_backwards_nor_forgets_what_was_spent():
    readings = iter([1.0, 0.5, None, 2.0])
    clock = CpuClock(lambda: next(readings))
    assert [clock.read() for _ in range(4)] == [1.0, 1.0, 1.0, 2.0]


def test_seat_cgroups_read_their_kernel_cpu_account_afresh_each_time(tmp_path):
    # v2: cpu.stat's usage_usec (in every v2 group); v1: the seat's cpuacct.usage (ns).
    (tmp_path / "cpu.stat").write_text("usage_usec 1500000\nuser_usec 1000000\n")
    v2 = cgroups.V2SeatCgroup(tmp_path)
    assert v2.cpu_seconds() == 1.5
    (tmp_path / "cpu.stat").write_text("usage_usec 2250000\nuser_usec 1000000\n")
    assert v2.cpu_seconds() == 2.25
    groups = {name: tmp_path / name for name in ("memory", "pids", "cpuacct")}
    for group in groups.values():
        group.mkdir()
    (groups["cpuacct"] / "cpuacct.usage").write_text("750000000\n")
    v1 = cgroups.V1SeatCgroup(groups["memory"], groups["pids"], None, groups["cpuacct"])
    assert v1.cpu_seconds() == 0.75
    without = cgroups.V1SeatCgroup(groups["memory"], groups["pids"])
    assert without.cpu_seconds() is None  # the sandbox then reads the seat's /proc tree
