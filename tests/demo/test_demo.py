"""``make demo`` end to end: scripts/demo.py in a temporary data folder on a free port.

The demo runs with the two quick reference bots (random, greedy) so that the whole stack — the
seed's real uploads, validation on the Celery worker in the bubblewrap sandbox, the matchmaker on
beat, the filesystem broker, SQLite shared by four processes, gunicorn serving the REST API —
gets from nothing to standings in well under a minute. The test reads the standings through the
API while the demo runs, stops it as Ctrl-C would, and then checks that nothing it started is
still running: this test process is made a child subreaper, so any orphan the demo left behind
would re-parent here instead of vanishing into init.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
PR_SET_CHILD_SUBREAPER = 36
STANDINGS_TIMEOUT_S = 120


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def get(port: int, path: str) -> object:
    """The JSON the demo's API answers at ``path`` (the demo serves plain HTTP on 127.0.0.1)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as response:
        return json.load(response)


def get_object(port: int, path: str) -> dict[str, Any]:
    data = get(port, path)
    if not isinstance(data, dict):
        raise ValueError(f"{path} answered {type(data).__name__}, not an object")
    return data


def get_list(port: int, path: str) -> list[dict[str, Any]]:
    data = get(port, path)
    if not isinstance(data, list):
        raise ValueError(f"{path} answered {type(data).__name__}, not a list")
    return data


@contextlib.contextmanager
def subreaper() -> Iterator[None]:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        pytest.skip("cannot become a child subreaper (not Linux?)")
    try:
        yield
    finally:
        libc.prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0)


def children() -> set[int]:
    pids: set[int] = set()
    for task in Path("/proc/self/task").iterdir():
        with contextlib.suppress(OSError):
            pids.update(int(p) for p in (task / "children").read_text().split())
    return pids


def processes_mentioning(text: str) -> list[str]:
    """Processes whose command line or environment contains ``text`` (the data folder)."""
    found = []
    needle = text.encode()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmdline = (proc / "cmdline").read_bytes()
            environ = (proc / "environ").read_bytes()
        except OSError:
            continue
        if needle in cmdline or needle in environ:
            words = cmdline.replace(b"\0", b" ").decode(errors="replace")
            found.append(f"{proc.name}: {words}")
    return found


def standings(port: int) -> dict[str, list[dict[str, Any]]]:
    return {
        f"{ladder['game']}/{ladder['num_players']}": get_object(
            port, f"/api/v1/ladders/{ladder['id']}/standings/"
        )["results"]
        for ladder in get_list(port, "/api/v1/ladders/")
        if ladder["schedule_enabled"]
    }


@pytest.mark.skipif(sys.platform != "linux", reason="the demo's sandbox and /proc are Linux's")
def test_demo_fills_standings_with_sandboxed_matches_and_leaves_nothing_behind(tmp_path):
    from workers.sandbox import sandbox_problem

    if problem := sandbox_problem():
        pytest.skip(f"bots cannot be sandboxed here: {problem}")
    data = tmp_path / "demo-data"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    output = tmp_path / "demo.out"
    earlier = children()  # what earlier tests of this session still run is not the demo's
    with subreaper(), output.open("w") as out:
        demo = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "scripts" / "demo.py"),
                "--data",
                str(data),
                "--port",
                str(port),
                "--policies",
                "random,greedy",
                "--grace",
                "10",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            table: dict[str, list[dict[str, Any]]] = {}
            deadline = time.monotonic() + STANDINGS_TIMEOUT_S
            while time.monotonic() < deadline and demo.poll() is None:
                with contextlib.suppress(OSError, ValueError):
                    table = standings(port)
                    # Two bots per game: the two-player ladders play, each until both are rated;
                    # and the demo has told the visitor so.
                    if (
                        table
                        and all(len(rows) == 2 for rows in table.values())
                        and "first standings after" in output.read_text()
                    ):
                        break
                time.sleep(1)
            assert demo.poll() is None, output.read_text()
            assert sorted(table) == ["east_indiaman/2", "packet_row/2"], output.read_text()
            assert all(len(rows) == 2 for rows in table.values()), (table, output.read_text())
            finished = get_object(port, "/api/v1/matches/?status=finished&page_size=200")["results"]
            assert finished, "standings without finished matches"
            # The site's own 404 page through gunicorn, not Django's debug page; CSS served.
            with pytest.raises(urllib.error.HTTPError) as missing:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/no-such-page/", timeout=10)
            page = missing.value.read().decode()
            assert missing.value.code == 404 and "URLconf" not in page and "Monsoon" in page
            with urllib.request.urlopen(
                f"http://127.0.0.1:{port}/static/web/site.css", timeout=10
            ) as css:
                assert css.status == 200
            match = get_object(port, f"/api/v1/matches/{finished[-1]['id']}/")
            assert match["kind"] == "ladder" and match["ranked"]
            assert {seat["bot_name"] for seat in match["seats"]} <= {
                "east-indiaman-random",
                "east-indiaman-greedy",
                "packet-row-random",
                "packet-row-greedy",
            }
        finally:
            demo.send_signal(signal.SIGINT)  # what Ctrl-C does
            try:
                status = demo.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(demo.pid, signal.SIGKILL)
                demo.wait()
                raise
        time.sleep(0.5)
        leftovers = children() - earlier
        for pid in leftovers:  # reap, so a failure here does not leave zombies in pytest
            with contextlib.suppress(ChildProcessError, ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
    text = output.read_text()
    assert status == 0, text
    assert not leftovers, f"processes left behind: {leftovers}\n{text}"
    assert not processes_mentioning(str(data)), processes_mentioning(str(data))
    assert "first standings after" in text and "no process left running" in text

    # What the worker reported about itself, and what it recorded, straight from the database.
    db = sqlite3.connect(data / "demo.sqlite3")
    workers = db.execute(
        "select sandbox, sandbox_problem, stopped_at from fleet_workernode"
    ).fetchall()
    assert workers and all(sandbox == "bwrap" and problem == "" for sandbox, problem, _ in workers)
    statuses = dict(db.execute("select status, count(*) from bots_botversion group by status"))
    assert statuses.get("active") == 8, statuses  # every upload validated on the worker
    played = db.execute("select count(*) from matches_match where status = 'finished'").fetchone()[
        0
    ]
    assert played >= 2
    db.close()
