"""The hostile-bot suite: real programs from ``tests/hostile_bots/`` played through the runner.

Each bot sits at seat 0 of a two-player Packet Row match against the sandboxed reference
``random`` bot at seat 1, under small time controls. Every case checks that the hostile seat
forfeits with the right reason, that the other seat still plays a complete match (the worker
stayed responsive and in charge), and that no process of either seat's uid is left. Probing
bots report what they could reach as ``PROBE {json}`` lines on stderr, which the runner keeps
for the bot's owner; they then forfeit on purpose with an illegal action.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.workers.sandbox_helpers import TEST_LIMITS, TEST_UID_BASE, launcher, needs_sandbox
from workers.launch import CHECKOUT, BotProgram
from workers.matches.reference import reference_bot
from workers.matches.runner import MatchOutcome, TimeControls, run_match
from workers.sandbox import processes_of

pytestmark = needs_sandbox

HOSTILE = Path(__file__).resolve().parents[1] / "hostile_bots"
GAME = "packet_row"
FAST = TimeControls(
    startup_ms=5_000, move_ms=300, bank_ms=200, max_decisions_per_seat=2_000, wall_factor=3
)
# The backstop at 1x: the floods below are measured over a match of the same wall-clock length
# as the sleeper's (a flooding bot blocked on its full pipe uses no CPU).
ROOMY = TimeControls(
    startup_ms=5_000, move_ms=300, bank_ms=8_000, max_decisions_per_seat=2_000, wall_factor=1
)
"""For bots that must reach a limit first: a busy machine must not turn that into a timeout."""
MATCH_WALL_S = 30
"""A hostile match must still finish within this (the honest seat plays it to the end)."""


def play(
    bot: str,
    env: dict[str, str] | None = None,
    clock: TimeControls = ROOMY,
    directory: Path = HOSTILE,
) -> MatchOutcome:
    """Run ``bot`` against the sandboxed random bot and check what holds for every case."""
    hostile = BotProgram(directory, ("python3", f"{bot}.py"), bot, env=env or {})
    began = time.monotonic()
    outcome = run_match(
        GAME,
        11,
        [hostile, reference_bot("random")],
        launcher=launcher(),
        time_controls=clock,
        limits=TEST_LIMITS,
    )
    assert time.monotonic() - began < MATCH_WALL_S
    assert outcome.forfeits[1] is None, outcome.stderr[1]
    assert outcome.ranking[0] > outcome.ranking[1]  # the forfeit ranks last
    assert outcome.log["result"]["scores"] == outcome.scores  # the match was played out
    for slot in (0, 1):
        assert processes_of(TEST_UID_BASE + slot, zombies=True) == [], f"seat {slot} left processes"
    return outcome


def reason(outcome: MatchOutcome) -> str:
    assert outcome.forfeits[0] is not None, outcome.stderr[0][-2000:]
    return outcome.forfeits[0].split(":", 1)[0]


def probes(outcome: MatchOutcome) -> dict:
    """Every ``PROBE`` report of seat 0, merged."""
    found: dict = {}
    for line in outcome.stderr[0].splitlines():
        if line.startswith("PROBE "):
            found.update(json.loads(line[len("PROBE ") :]))
    assert found, outcome.stderr[0][-2000:]
    return found


@pytest.mark.parametrize(
    ("bot", "expected"),
    [
        ("fork_bomb", "process_limit"),
        ("memory_bomb", "memory_limit"),
        ("memory_creep", "memory_limit"),
        ("infinite_loop", "timeout"),
        ("sleeper", "timeout"),
        ("deaf", "timeout"),
        ("long_line", "oversized_line"),
        ("stderr_flood", "timeout"),
        ("blank_flood", "malformed_reply"),
        ("bad_json", "malformed_reply"),
        ("wrong_schema", "malformed_reply"),
        ("exit_at_import", "crash"),
        # bwrap itself keeps a copy of the bot's stdout, so a bot that closes it but lives on
        # is silent rather than gone: its move clock runs out.
        ("close_stdout", "timeout"),
        ("ignore_sigterm", "timeout"),
        ("double_fork", "crash"),
        # The bot is its pid namespace's init, which kill(-1) spares: it kills only its own
        # children (nothing outside: the other seat finishes its match) and then times out.
        ("kill_all", "timeout"),
    ],
)
def test_misbehaving_bot_forfeits_with_the_right_reason(bot, expected):
    outcome = play(bot, clock=FAST if expected == "timeout" else ROOMY)
    assert reason(outcome) == expected, outcome.forfeits[0]


def test_kill_minus_one_reaches_only_the_bots_own_processes():
    outcome = play("kill_all")  # play() checks that the other seat finished its match
    assert probes(outcome) == {"own_child_killed": True}


def test_stderr_flood_is_capped():
    outcome = play("stderr_flood")
    assert len(outcome.stderr[0]) < 100_000
    assert "bytes of stderr dropped" in outcome.stderr[0]
    assert "is not read; further writes block the bot" in outcome.stderr[0]


def runner_cpu(bot: str) -> float:
    """CPU seconds this process (the runner) spent on a match of ``bot`` with ROOMY time."""
    before = resource.getrusage(resource.RUSAGE_SELF)
    play(bot, clock=ROOMY)
    after = resource.getrusage(resource.RUSAGE_SELF)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


@pytest.mark.parametrize("flood", ["stderr_flood", "blank_flood"])
def test_a_flooding_bot_costs_the_runner_what_a_silent_one_does(flood):
    """A stderr flood used 6.7 s of the runner's CPU in a 10 s match (0.34 s normally). The
    sleeper also holds its seat for the whole time bank, doing nothing: the baseline."""
    silent = runner_cpu("sleeper")
    flooding = runner_cpu(flood)
    assert flooding < 2 * silent + 0.25, (flooding, silent)


def test_writes_fail_outside_the_private_tmpfs_and_it_is_gone_afterwards(tmp_path):
    host_target = tmp_path / "written-by-bot"
    outcome = play("disk_writer", {"PROBE_PATHS": json.dumps([str(host_target)])})
    assert reason(outcome) == "illegal_action"
    found = probes(outcome)
    writes = found["writes"]
    assert writes.pop("/tmp/hostile-marker") == "ok"
    assert all(result != "ok" for result in writes.values()), writes
    assert found["big_file"] == "OSError:28"  # ENOSPC: the tmpfs is capped by Limits
    assert found["cwd"] == "/tmp" and found["cwd_write"] == "ok"
    assert not host_target.exists()
    assert not Path("/tmp/hostile-marker").exists()
    assert not (HOSTILE / "scratch").exists() and not (HOSTILE / "marker").exists()
    again = probes(play("disk_writer", {"PROBE_MODE": "check"}))
    assert again["leftover"] is False
    assert "hostile-marker" not in again["tmp"]


def test_network_reaches_nothing_not_even_the_local_services():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        port = listener.getsockname()[1]
        outcome = play("network", {"PROBE_PORTS": json.dumps([5432, 6379, port])})
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody knocked
    assert reason(outcome) == "illegal_action"
    found = probes(outcome)
    assert found["interfaces"] == ["lo"]
    assert set(found["tcp"]) == {"5432", "6379", str(port)}
    assert all(result.startswith("ConnectionRefusedError") for result in found["tcp"].values())
    assert found["udp"] != "ok" and found["dns"] != "ok"
    assert found["resolv_conf"] is False


def test_the_workers_environment_files_and_processes_are_out_of_sight(tmp_path, monkeypatch):
    monkeypatch.setenv("MONSOON_SECRET_TOKEN", "hunter2")
    other_bot = tmp_path / "other-bot"
    other_bot.mkdir()
    (other_bot / "main.py").write_text("SECRET_STRATEGY = 42\n")
    # A process of the host beside the worker (not the worker's parent: when that is PID 1, a
    # daemon or a container's init, /proc/1 in the seat's PID namespace is the bot itself).
    neighbour = subprocess.Popen(["sleep", "60"])
    try:
        targets = [
            str(CHECKOUT / "ladder" / "settings.py"),
            str(other_bot / "main.py"),
            f"/proc/{os.getpid()}/environ",
            f"/proc/{os.getpid()}/cmdline",
            f"/proc/{neighbour.pid}/cmdline",
        ]
        outcome = play("snoop", {"PROBE_PATHS": json.dumps(targets)})
    finally:
        neighbour.kill()
        neighbour.wait()
    assert reason(outcome) == "illegal_action"
    found = probes(outcome)
    assert all(result != "ok" for result in found["reads"].values()), found["reads"]
    allowed = {
        "PATH",
        "LANG",
        "HOME",
        "TMPDIR",
        "PYTHONPATH",
        "PYTHONDONTWRITEBYTECODE",
        "PWD",
        "PROBE_PATHS",
    }
    assert set(found["env"]) <= allowed
    assert set(found["init_environ"]) <= allowed
    assert found["pids"] == [1]  # only itself: the worker's processes do not exist in there
    assert "root" not in found["root_entries"] and "home" not in found["root_entries"]


def test_read_only_mounts_stay_read_only():
    outcome = play("remount")
    assert reason(outcome) == "illegal_action"
    found = probes(outcome)
    assert found.pop("write_after") == "OSError:30"  # EROFS
    assert all(result == "PermissionError:1" for result in found.values()), found


def test_ptrace_is_refused():
    found = probes(play("ptrace"))
    assert found == {
        "attach_init": "PermissionError:1",
        "attach_child": "PermissionError:1",
        "traceme": "PermissionError:1",
    }


def test_tiocsti_is_refused_even_with_high_bits_set():
    found = probes(play("tiocsti"))
    assert found["controlling_tty"] != "ok"  # new session: no terminal to type into
    assert found["tiocsti"] == "PermissionError:1"
    assert found["tiocsti_high_bits"] == "PermissionError:1"


def test_filtered_syscalls_fail_while_ordinary_ones_work():
    found = probes(play("syscalls"))
    assert found.pop("unix_socket_still_works") == "ok"
    assert found.pop("inet_socket_still_works") == "ok"  # only lo, but Python may need it
    assert {"vsock", "vsock_high_bits", "packet", "alg", "inotify_init1"} <= set(found)
    assert found.pop("subprocess_still_works") == "ok"
    assert found.pop("thread_still_works") == "ok"
    assert all(result == "PermissionError:1" for result in found.values()), found


def test_no_seat_can_watch_file_activity_on_the_files_seats_share(tmp_path):
    """dnotify on a shared read-only directory carried a Borneo hand from one seat to another."""
    bot_dir = tmp_path / "observer"
    bot_dir.mkdir()
    for name in ("observe.py", "wire.py"):
        shutil.copy(HOSTILE / name, bot_dir / name)
    bait = bot_dir / "bait.txt"
    bait.write_text("read me\n")
    outcome = play("observe", {"PROBE_BAIT": "/bot/bait.txt"}, directory=bot_dir)
    assert reason(outcome) == "illegal_action"
    found = probes(outcome)
    # Read-only mounts record no access: no seat sees when another read a shared file.
    assert found.pop("shared_mounts_read_only") is True
    assert found.pop("atime_moves") is False
    assert set(found) == {
        "inotify",
        "fanotify",
        "dnotify_shared_dir",
        "dnotify_bot_dir",
        "dnotify_high_bits",
        "lease",
        "flock",
    }
    assert all(result == "PermissionError:1" for result in found.values()), found


@pytest.mark.parametrize("where", ["checkout", "private folder"])
def test_the_mount_table_names_no_host_folder_of_the_checkout_or_the_bot(tmp_path, where):
    """``/proc/self/mountinfo`` showed the checkout and the bot's host folder."""
    bot_dir = HOSTILE
    if where == "private folder":
        bot_dir = tmp_path / "alice-private-bot-folder"
        bot_dir.mkdir()
        for name in ("mountinfo.py", "wire.py"):
            shutil.copy(HOSTILE / name, bot_dir / name)
        os.chmod(tmp_path, 0o700)  # out of the seat uid's reach: staged
    outcome = play("mountinfo", directory=bot_dir)
    assert reason(outcome) == "illegal_action"
    table = probes(outcome)["mountinfo"]
    assert " /bot " in table and " /opt/monsoon/engine " in table  # it is the real table
    for secret in (str(CHECKOUT), str(bot_dir), bot_dir.name, str(tmp_path)):
        assert secret not in table, (secret, table)
