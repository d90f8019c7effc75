"""The bubblewrap sandbox itself: who the bot runs as, what it sees, what is left afterwards."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyseccomp as pyseccomp_module
import pytest

from tests.workers.sandbox_helpers import (
    TEST_LIMITS,
    TEST_UID_BASE,
    launch,
    launcher,
    needs_sandbox,
    read_line,
    run_to_end,
    write_bot,
)
from workers import sandbox
from workers.launch import CHECKOUT, BotProgram, LaunchError
from workers.sandbox import (
    SLOTS_PER_BLOCK,
    UID_BASE,
    SandboxUnavailable,
    claim_uid_block,
    processes_of,
    seat_uid,
)
from workers.staging import (
    OWNERS,
    readable_by_anyone,
    remove_copy,
    stage_copy,
    staging_root,
    sweep_stale_copies,
)

REPORT_IDENTITY = """
import json, os, sys
status = dict(line.split(":", 1) for line in open("/proc/self/status"))
sys.stdin.read()
print(json.dumps({
    "uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups(),
    "caps": [status[k].strip() for k in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")],
    "no_new_privs": status["NoNewPrivs"].strip(), "seccomp": status["Seccomp"].strip(),
}))
"""


@needs_sandbox
def test_each_seat_runs_as_its_own_unprivileged_uid_without_capabilities(tmp_path):
    program = write_bot(tmp_path / "bot", REPORT_IDENTITY)
    first, second = launch(program, slot=0), launch(program, slot=1)
    try:
        # While both run, the host sees each seat's processes under its own uid.
        assert processes_of(TEST_UID_BASE) and processes_of(TEST_UID_BASE + 1)
        reports = [run_to_end(first)[0], run_to_end(second)[0]]
    finally:
        first.terminate_all()
        second.terminate_all()
    assert [r["uid"] for r in reports] == [TEST_UID_BASE, TEST_UID_BASE + 1]
    assert [r["gid"] for r in reports] == [TEST_UID_BASE, TEST_UID_BASE + 1]
    for report in reports:
        assert report["groups"] in ([], [report["gid"]])
        assert report["caps"] == ["0000000000000000"] * 5
        assert report["no_new_privs"] == "1"
        assert report["seccomp"] == "2"  # a filter is loaded
    assert processes_of(TEST_UID_BASE, zombies=True) == []
    assert processes_of(TEST_UID_BASE + 1, zombies=True) == []


@needs_sandbox
def test_environment_is_clean_apart_from_the_programs_own(tmp_path, monkeypatch):
    monkeypatch.setenv("MONSOON_SECRET", "hunter2")
    program = write_bot(tmp_path / "bot", "import json, os\nprint(json.dumps(dict(os.environ)))")
    program = BotProgram(program.directory, env={"BOT_OPTION": "7"})
    process = launch(program)
    try:
        env, _ = run_to_end(process)
    finally:
        process.terminate_all()
    assert env.pop("BOT_OPTION") == "7"
    assert set(env) <= {
        "PATH",
        "LANG",
        "HOME",
        "TMPDIR",
        "PYTHONPATH",
        "PYTHONDONTWRITEBYTECODE",
        "PWD",
    }
    assert env["PYTHONPATH"] == "/opt/monsoon"


@needs_sandbox
def test_rlimits_from_limits_bind_the_bot(tmp_path):
    program = write_bot(
        tmp_path / "bot",
        """
import json, resource
names = ["RLIMIT_AS", "RLIMIT_CPU", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_NOFILE"]
print(json.dumps({n: resource.getrlimit(getattr(resource, n)) for n in names}))
""",
    )
    process = launch(program)
    try:
        limits, _ = run_to_end(process)
    finally:
        process.terminate_all()
    expected = {
        "RLIMIT_AS": TEST_LIMITS.memory_bytes,
        "RLIMIT_CPU": TEST_LIMITS.cpu_seconds,
        "RLIMIT_NPROC": TEST_LIMITS.processes,
        "RLIMIT_FSIZE": TEST_LIMITS.file_size_bytes,
        "RLIMIT_NOFILE": TEST_LIMITS.open_files,
    }
    assert limits == {name: [value, value] for name, value in expected.items()}


@needs_sandbox
def test_the_bot_sees_only_the_runtime_its_files_and_the_engine(tmp_path):
    program = write_bot(
        tmp_path / "bot",
        """
import json, os, socket, sys
import engine.registry, bots
print(json.dumps({
    "root": sorted(os.listdir("/")), "usr_local": os.listdir("/usr/local"),
    "etc": os.listdir("/etc"), "packages": sorted(os.listdir("/opt/monsoon")),
    "games": sorted(engine.registry.all_games()), "python": sys.executable,
    "cwd": os.getcwd(), "cwd_entries": {n: os.readlink(n) for n in os.listdir(".")},
    "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
    "hostname": socket.gethostname(), "data": open("data.txt").read(),
}))
""",
    )
    (program.directory / "data.txt").write_text("mine")
    os.chmod(tmp_path, 0o700)  # the seat uid cannot reach the host path; fds carry it in
    process = launch(program)
    try:
        view, err = run_to_end(process)
    finally:
        process.terminate_all()
    assert view, err
    assert view["root"] == [
        "bin",
        "bot",
        "dev",
        "etc",
        "lib",
        "lib64",
        "opt",
        "proc",
        "sbin",
        "tmp",
        "usr",
    ]
    assert view["usr_local"] == []
    # Besides the loader cache only what runtimes link to (workers.sandbox.RUNTIME_ETC).
    assert set(view["etc"]) <= {"ld.so.cache", "alternatives", "java-17-openjdk"}
    assert "ld.so.cache" in view["etc"]
    assert not {"passwd", "shadow", "hostname", "resolv.conf"} & set(view["etc"])
    assert view["packages"] == ["bots", "engine"]
    assert "batavia" in view["games"]
    assert view["python"].startswith("/usr/bin/python3")
    assert view["cwd"] == "/tmp"
    assert view["cwd_entries"] == {"data.txt": "/bot/data.txt", "main.py": "/bot/main.py"}
    assert view["data"] == "mine"
    assert view["pids"] == [1]  # its own pid namespace, where it is the init
    assert view["hostname"] == "sandbox"


@needs_sandbox
def test_nothing_of_the_bot_survives_terminate_all(tmp_path):
    program = write_bot(
        tmp_path / "bot",
        """
import os, sys, time
if os.path.exists("/tmp/left-behind"):
    print("found")
    sys.exit(0)
open("/tmp/left-behind", "w").write("x")
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        print("planted", flush=True)  # only once the grandchild exists
        time.sleep(600)
    os._exit(0)
time.sleep(600)
""",
    )
    process = launch(program, slot=2)
    assert read_line(process.stdout.fileno(), time.monotonic() + 10).strip() == b"planted"
    assert len(processes_of(TEST_UID_BASE + 2)) >= 3  # bwrap, the bot, the grandchild
    process.terminate_all()
    process.terminate_all()  # idempotent
    assert processes_of(TEST_UID_BASE + 2, zombies=True) == []
    again = launch(program, slot=2)
    try:
        assert read_line(again.stdout.fileno(), time.monotonic() + 10).strip() == b"planted"
    finally:
        again.terminate_all()
    assert not (program.directory / "left-behind").exists()


def test_launch_refuses_with_the_reason_when_bubblewrap_cannot_run(tmp_path, monkeypatch):
    monkeypatch.setattr(sandbox, "sandbox_problem", lambda: "bubblewrap is not installed")
    with pytest.raises(SandboxUnavailable, match="bubblewrap is not installed"):
        launcher().launch(write_bot(tmp_path, "pass"), slot=0, limits=TEST_LIMITS)


def test_sandbox_problem_names_a_missing_bwrap(monkeypatch):
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    problem = sandbox.sandbox_problem.__wrapped__()
    assert problem is not None and "bubblewrap is not installed" in problem


@needs_sandbox
def test_a_missing_bot_directory_is_a_launch_error(tmp_path):
    with pytest.raises(LaunchError, match="cannot read bot directory"):
        launch(BotProgram(tmp_path / "nowhere"))


@pytest.mark.parametrize("slot", [-1, 64, "1", 1.0, True])
def test_slots_outside_the_reserved_uid_range_are_refused(slot):
    with pytest.raises(ValueError, match="slot must be"):
        seat_uid(UID_BASE, slot)


@needs_sandbox
def test_environment_names_that_bwrap_could_misread_are_refused(tmp_path):
    program = write_bot(tmp_path / "bot", "pass")
    with pytest.raises(LaunchError, match="bad environment variable names"):
        launch(BotProgram(program.directory, env={"A=B": "1"}))


SPARE_BASE = 600_000_000 + os.getpid() * 2 * SLOTS_PER_BLOCK
"""A uid range no seat of this host runs as (this test process's own): claims in a test lock
folder kill what runs in their block, which must never be another session's seats."""


def test_each_worker_process_claims_its_own_block_of_seat_uids(tmp_path):
    mine = claim_uid_block(tmp_path, base=SPARE_BASE)
    assert claim_uid_block(tmp_path, base=SPARE_BASE) == mine  # one block per process, kept
    other = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from pathlib import Path; from workers.sandbox import claim_uid_block;"
            "print(claim_uid_block(Path(sys.argv[1]), base=int(sys.argv[2])))",
            str(tmp_path),
            str(SPARE_BASE),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=CHECKOUT,
    )
    theirs = int(other.stdout)
    assert mine >= SPARE_BASE and theirs >= SPARE_BASE
    assert abs(theirs - mine) >= SLOTS_PER_BLOCK  # disjoint while both were alive


def run_as(uid: int) -> int:
    """An orphan of ``uid`` that would run for ten minutes: a crashed worker's leftover seat."""

    def become() -> None:
        os.setgid(uid)
        os.setuid(uid)

    started = subprocess.run(
        ["sh", "-c", "sleep 600 >/dev/null 2>&1 & echo $!"],
        preexec_fn=become,
        capture_output=True,
        text=True,
        check=True,
    )
    return int(started.stdout)


root_only = pytest.mark.skipif(os.geteuid() != 0, reason="only a root worker uses seat uids")


@root_only
def test_a_block_whose_uids_still_run_processes_is_cleared_before_it_is_claimed(tmp_path):
    leftover = run_as(SPARE_BASE + 5)
    try:
        assert claim_uid_block(tmp_path, base=SPARE_BASE) == SPARE_BASE
        assert processes_of(SPARE_BASE + 5, zombies=True) == []  # not even a zombie
        assert not Path(f"/proc/{leftover}").exists()
    finally:
        sandbox.kill_uid(SPARE_BASE + 5)


@root_only
def test_a_block_whose_leftovers_will_not_die_is_never_handed_out(tmp_path, monkeypatch):
    run_as(SPARE_BASE + 7)
    monkeypatch.setattr(sandbox, "kill_checked", lambda pid, uid: False)  # as if frozen for good
    try:
        claimed = claim_uid_block(tmp_path, base=SPARE_BASE)
    finally:
        monkeypatch.undo()
        sandbox.kill_uid(SPARE_BASE + 7)
    assert claimed == SPARE_BASE + SLOTS_PER_BLOCK  # the next block


@needs_sandbox
@root_only
def test_a_seat_uid_that_still_runs_processes_is_not_launched(tmp_path, monkeypatch):
    program = write_bot(tmp_path / "bot", "pass")
    slot = 9
    run_as(TEST_UID_BASE + slot)
    monkeypatch.setattr(sandbox, "kill_checked", lambda pid, uid: False)  # as if frozen for good
    monkeypatch.setattr(sandbox, "_swept", set())
    try:
        with pytest.raises(LaunchError, match="still runs processes"):
            launch(program, slot=slot)
    finally:
        monkeypatch.undo()
        sandbox.kill_uid(TEST_UID_BASE + slot)


@needs_sandbox
def test_terminate_right_after_launch_leaves_nothing(tmp_path):
    program = write_bot(tmp_path / "bot", "import time\ntime.sleep(600)")
    for _ in range(5):
        process = launch(program, slot=3)
        process.terminate_all()
        assert processes_of(TEST_UID_BASE + 3, zombies=True) == []


@needs_sandbox
def test_a_private_bot_directory_is_staged_and_its_symlinks_never_followed_on_the_host(tmp_path):
    secret = tmp_path / "host-secret.txt"
    secret.write_text("worker secret")
    program = write_bot(
        tmp_path / "bot",
        """
import json, os
def read(path):
    try:
        return open(path).read()
    except OSError as exc:
        return type(exc).__name__
print(json.dumps({"own": read("own.txt"), "link": read("link.txt"),
                  "link_target": os.readlink("/bot/link.txt")}))
""",
    )
    (program.directory / "own.txt").write_text("mine")
    os.chmod(program.directory / "own.txt", 0o600)  # unreadable for the seat uid on the host
    os.symlink(secret, program.directory / "link.txt")
    os.chmod(tmp_path, 0o700)
    process = launch(program)
    staged = [
        link for link in staging_root().glob("*/bot/link.txt") if os.readlink(link) == str(secret)
    ]
    assert len(staged) == 1  # a copy the seat uid can read, links copied as links
    try:
        view, err = run_to_end(process)
    finally:
        process.terminate_all()
    assert view == {"own": "mine", "link": "FileNotFoundError", "link_target": str(secret)}, err
    assert not staged[0].parent.parent.exists()  # the staged copy is gone


NON_ROOT_WORKER = """
import os, sys
from pathlib import Path
from workers.staging import (
    OWNERS,
    readable_by_anyone,
    remove_copy,
    stage_copy,
    staging_root,
    sweep_stale_copies,
)
from workers.launch import BotProgram, Limits
from workers.sandbox import BwrapLauncher, SandboxUnavailable, sandbox_problem
assert sandbox_problem() is None, sandbox_problem()
bot = BotProgram(Path(sys.argv[1]))
try:
    BwrapLauncher().launch(bot, slot=0, limits=Limits(processes=8))
except SandboxUnavailable as exc:
    print("refused:", exc, file=sys.stderr)
else:
    raise SystemExit("a seat without a memory bound was started")
os.environ["MONSOON_ALLOW_UNBOUNDED_SEATS"] = "1"  # the documented development override
process = BwrapLauncher().launch(bot, slot=0, limits=Limits(processes=8))
print(process.stdout.read().decode().strip(), process.stderr.read().decode().strip())
process.terminate_all()
"""


@needs_sandbox
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to start a worker as another user")
def test_a_non_root_worker_still_sandboxes_its_bots_as_itself():
    site_packages = Path(pyseccomp_module.__file__).parent
    pyseccomp_file = Path(pyseccomp_module.__file__)
    if not (
        readable_by_anyone(CHECKOUT / "workers")
        and all(os.stat(d).st_mode & 0o001 for d in pyseccomp_file.parents)
        and os.stat(pyseccomp_file).st_mode & 0o004
    ):
        pytest.skip("this checkout or its virtualenv is private: user 65534 cannot import it")
    public = Path(tempfile.mkdtemp(prefix="monsoon-test-"))  # where user 65534 can read it
    os.chmod(public, 0o755)
    bot = write_bot(public / "bot", "import os\nprint('inside', os.getuid(), os.getgid())")
    os.chmod(bot.directory, 0o755)
    os.chmod(bot.directory / "main.py", 0o644)
    try:
        worker = subprocess.run(
            [
                "setpriv",
                "--reuid",
                "65534",
                "--regid",
                "65534",
                "--clear-groups",
                "/usr/bin/python3",
                "-c",
                NON_ROOT_WORKER,
                str(bot.directory),
            ],
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{CHECKOUT}:{site_packages}"},
            cwd="/",
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        shutil.rmtree(public)
    # Its own uid (no switch possible), and a process limit that allows for its own processes.
    # Without cgroups it may bound (v1 hierarchies are root's), it refuses the seat unless told
    # it is a development machine.
    assert "cannot bound a seat's total memory" in worker.stderr, worker.stderr
    assert "MONSOON_ALLOW_UNBOUNDED_SEATS=1" in worker.stderr
    assert worker.stdout.strip() == "inside 65534 65534", worker.stderr


def test_staged_copies_of_dead_workers_are_swept_and_live_ones_kept(tmp_path):
    source = tmp_path / "some-bot"
    source.mkdir()
    (source / "main.py").write_text("pass\n")
    live_copy, live = stage_copy(source, "bot")
    dead_copy, dead = stage_copy(source, "bot")
    (dead.parent / OWNERS / dead.name).write_text("999999999 1")  # a worker long gone
    try:
        assert live_copy.name == dead_copy.name == "bot"  # nothing of the host's folder names
        assert (live_copy / "main.py").read_text() == "pass\n"
        assert dead in sweep_stale_copies()
        assert not dead.exists() and not (dead.parent / OWNERS / dead.name).exists()
        assert live.exists()
    finally:
        remove_copy(live)
        remove_copy(dead)
    assert not live.exists() and not (live.parent / OWNERS / live.name).exists()
