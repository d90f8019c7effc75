"""The one-command demo (``make demo``): the whole ladder service on this machine, no servers.

Run with the virtual environment's Python. It migrates a SQLite database, seeds the demo
accounts and the reference bots (real uploads, validated by the worker), then starts the web
server (gunicorn), a Celery worker (two sandboxed match slots, every queue) and Celery beat on
the filesystem broker, and reports what the ladder does until Ctrl-C. Everything lives in one
data folder (``demo-data/`` by default): the database, the broker's message files, uploaded
artifacts, the worker's artifact cache and the logs. A second run reuses that folder (standings
carry on where they stopped); ``--reset`` deletes it first.

Stopping (Ctrl-C, SIGTERM, ``--duration`` or ``--stop-after-standings``) sends SIGTERM to each
service's process group, SIGKILL to what is still there after ``--grace`` seconds, and then,
because this process is a child subreaper, kills and reaps anything the services left behind
(a bubblewrap sandbox whose worker died first lands here rather than at init).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
MARKER = ".monsoon-demo"
"""A file in every data folder this script made: ``--reset`` deletes no folder without it."""
PR_SET_CHILD_SUBREAPER = 36
PR_SET_PDEATHSIG = 1
MATCH_PAGE = 200
ECHO_WORDS = ("WARNING", "ERROR", "CRITICAL", "Traceback")
"""Service log lines shown on the console without ``--verbose`` (all lines go to the logs)."""

# The demo's pace, for two match slots: a small queue that the matchmaker tops up every few
# seconds, so the first standings appear quickly and the ratings keep moving. A value already in
# the environment wins, so a visitor can try other settings without editing anything.
DEMO_TUNING = {
    "MONSOON_MATCHMAKE_SECONDS": "3",
    "MONSOON_QUEUE_TARGET": "4",
    "MONSOON_MATCH_LEASE_SECONDS": "30",
    "MONSOON_REAP_SECONDS": "10",
    "MONSOON_RESEND_AFTER_SECONDS": "60",
    "MONSOON_REFIT_SECONDS": "120",
    "MONSOON_API_CACHE_SECONDS": "1",
    "MONSOON_WORKER_HEARTBEAT_SECONDS": "10",
    # A version whose validation was cut short by Ctrl-C is tried again soon on the next run.
    "MONSOON_VALIDATION_LEASE_SECONDS": "60",
}
# Variables that would point the demo at someone else's data (a developer's PostgreSQL, Redis,
# S3 bucket, cache): the demo's own values replace or remove them.
FOREIGN = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CACHE_URL",
    "AWS_STORAGE_BUCKET_NAME",
    "MEDIA_ROOT",
    "STATIC_ROOT",
    "MONSOON_ARTIFACT_CACHE",
    "MONSOON_BROKER_FOLDER",
    "DJANGO_SETTINGS_MODULE",
    "SECRET_KEY",
)


class DemoError(Exception):
    """Something the visitor has to fix (a busy port, a missing sandbox): printed, exit 2."""


STARTED = time.monotonic()


def say(text: str) -> None:
    print(f"demo | {time.monotonic() - STARTED:5.1f}s  {text}", flush=True)


# --- the data folder and the environment --------------------------------------------------------


def prepare_data(data: Path, reset: bool) -> None:
    if reset and data.exists():
        if not (data / MARKER).exists() and any(data.iterdir()):
            raise DemoError(
                f"--reset: {data} is not a demo data folder (no {MARKER}); not deleting it"
            )
        shutil.rmtree(data)
        say(f"reset: deleted {data}")
    elif data.exists() and any(data.iterdir()) and not (data / MARKER).exists():
        raise DemoError(f"{data} exists and is not a demo data folder; choose another --data")
    for sub in ("logs", "media", "artifacts", "broker"):
        (data / sub).mkdir(parents=True, exist_ok=True)
    (data / MARKER).write_text("Data of scripts/demo.py; delete at will.\n")


def demo_environment(data: Path, host: str, no_sandbox: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in FOREIGN}
    for name, value in DEMO_TUNING.items():
        env.setdefault(name, value)
    local = {"localhost", "127.0.0.1", "::1", "[::1]"}
    env.update(
        {
            # DEBUG=1 lets ladder.settings accept the demo's development setup (SQLite, the
            # development secret, plain-HTTP cookies; it binds to localhost); ladder.settings_demo
            # then turns Django's DEBUG off, so visitors see the site's own 404 and 500 pages.
            "DJANGO_SETTINGS_MODULE": "ladder.settings_demo",
            "DEBUG": "1",
            "ALLOWED_HOSTS": "*" if host not in local else "localhost,127.0.0.1,[::1]",
            "DATABASE_URL": f"sqlite:///{data / 'demo.sqlite3'}",
            "CELERY_BROKER_URL": "filesystem://localhost/",  # the host is ignored (no warning)
            "MONSOON_BROKER_FOLDER": str(data / "broker"),
            "MEDIA_ROOT": str(data / "media"),
            "STATIC_ROOT": str(data / "static"),
            "MONSOON_ARTIFACT_CACHE": str(data / "artifacts"),
            "PYTHONUNBUFFERED": "1",
        }
    )
    if no_sandbox:
        env["MONSOON_SANDBOX"] = "none"
    else:
        env.pop("MONSOON_SANDBOX", None)
    return env


def port_problem(host: str, port: int) -> str | None:
    """Why the web server could not listen on ``host:port``, or None."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn does
        try:
            probe.bind((host.strip("[]"), port))
        except OSError as exc:
            return f"port {port} on {host} is busy ({exc.strerror}); choose another with --port"
    return None


def sandbox_problem(python: str) -> str | None:
    """Asked in a child process: the check builds a seccomp filter and probes bubblewrap."""
    probe = subprocess.run(
        [python, "-c", "from workers.sandbox import sandbox_problem as p; print(p() or '')"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if probe.returncode != 0:
        return probe.stderr.strip().splitlines()[-1] if probe.stderr.strip() else "probe failed"
    return probe.stdout.strip() or None


# --- processes ----------------------------------------------------------------------------------


def become_subreaper() -> bool:
    """Orphans of our services re-parent to us (Linux), so we can find and end them."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def _die_with_us() -> None:
    """In the child before exec: SIGTERM when the demo dies, even by SIGKILL (Linux)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)


def own_children() -> set[int]:
    pids: set[int] = set()
    with contextlib.suppress(OSError):
        for task in Path("/proc/self/task").iterdir():
            with contextlib.suppress(OSError):
                pids.update(int(p) for p in (task / "children").read_text().split())
    return pids


@dataclass
class Service:
    """One long-running process of the demo, in its own process group, logging to a file."""

    name: str
    argv: list[str]
    log_path: Path
    echo_all: bool
    process: subprocess.Popen[bytes] | None = None
    _threads: list[threading.Thread] = field(default_factory=list)

    def start(self, env: dict[str, str]) -> None:
        """Start the process; call before any thread exists (``preexec_fn`` is not thread-safe)."""
        self.process = subprocess.Popen(
            self.argv,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_us,
        )

    def _started(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            raise RuntimeError(f"{self.name} has not been started")
        return self.process

    def start_logging(self) -> None:
        process = self._started()
        log = self.log_path.open("ab")
        pump = threading.Thread(
            target=self._pump, args=(process.stdout, log), name=f"log-{self.name}", daemon=True
        )
        pump.start()
        self._threads.append(pump)

    def _pump(self, stream: IO[bytes], log: IO[bytes]) -> None:
        with log:
            for raw in stream:
                log.write(raw)
                log.flush()
                line = raw.decode(errors="replace").rstrip()
                if self.echo_all or any(word in line for word in ECHO_WORDS):
                    print(f"{self.name:>6} | {line}", flush=True)

    @property
    def pid(self) -> int:
        return self._started().pid

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal_group(self, sig: int) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, sig)

    def join_logs(self) -> None:
        for thread in self._threads:
            thread.join(timeout=2)


def log_tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def end_stale_seats() -> None:
    """Thaw, kill and remove the seat cgroups of dead worker processes.

    A worker killed while one of its seats was frozen leaves that seat's bwrap and bot frozen
    in their cgroup, where the kill that ``--die-with-parent`` sends cannot reach them (that
    was "could not end processes" after a Ctrl-C). The sweep every new worker process runs at
    start ends them; the demo starts none any more, so it runs the sweep itself.
    """
    sweep = (
        "from workers.cgroups import sweep_stale_seats; sweep_stale_seats(); "
        "from workers.staging import sweep_stale_copies; sweep_stale_copies()"
    )
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        subprocess.run(
            [sys.executable, "-c", sweep],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=60,
            check=False,
        )


def stop_services(services: list[Service], grace: float, hurry: threading.Event) -> list[int]:
    """End every process the demo started; returns the pids that could not be ended.

    SIGTERM goes to each service's main process only, so the worker shuts down warm: it stops
    taking tasks and lets a match in progress finish (and record its result) for up to
    ``grace`` seconds, or until ``hurry`` is set (a second Ctrl-C). Then each process group is
    killed, the seats of the killed worker are ended (:func:`end_stale_seats`), and finally
    whatever re-parented to this subreaper (a sandbox whose worker died).
    """
    for service in services:
        if service.running():
            with contextlib.suppress(ProcessLookupError):
                service.process.send_signal(signal.SIGTERM)  # type: ignore[union-attr]
    deadline = time.monotonic() + grace
    while any(s.running() for s in services) and time.monotonic() < deadline and not hurry.is_set():
        time.sleep(0.1)
    for service in services:
        if service.running():
            say(f"{service.name} still running: killing it")
        # The group may outlive its leader (a pool process in the middle of a match): kill it all.
        service.signal_group(signal.SIGKILL)
        if service.process is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                service.process.wait(timeout=10)
        service.join_logs()
    end_stale_seats()
    deadline = time.monotonic() + 10
    while (left := own_children()) and time.monotonic() < deadline:
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        for pid in left:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        time.sleep(0.1)
    return sorted(own_children())


def run_step(argv: list[str], env: dict[str, str], log_path: Path, what: str) -> str:
    say(what)
    result = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    with log_path.open("a") as log:
        log.write(f"$ {' '.join(argv)}\n{result.stdout}{result.stderr}\n")
    if result.returncode != 0:
        raise DemoError(f"{what} failed:\n{(result.stdout + result.stderr).strip()}")
    return result.stdout


# --- watching the ladder through its REST API ---------------------------------------------------


def fetch_json(url: str) -> object:
    """GET ``url`` from the demo's own web server and parse the JSON it answers."""
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise ValueError(f"the demo only reads its own web server over HTTP, not {url!r}")
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310  (scheme checked above)
        return json.load(response)


def api_get(base: str, path: str) -> dict[str, Any]:
    page = fetch_json(f"{base}{path}")
    if not isinstance(page, dict):
        raise ValueError(f"{path} answered {type(page).__name__}, not a JSON object")
    return page


def all_pages(base: str, path: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    url: str | None = f"{base}{path}"
    while url:
        page = fetch_json(url)
        if isinstance(page, list):  # an unpaginated list
            return page
        if not isinstance(page, dict):
            raise ValueError(f"{url} answered {type(page).__name__}, not a page of results")
        rows.extend(page["results"])
        url = page.get("next")
    return rows


@dataclass
class LadderState:
    ladders: dict[str, list[dict[str, Any]]]  # label -> standings rows (scheduled ladders)
    finished: int
    failed: int

    @property
    def with_standings(self) -> list[str]:
        return [label for label, rows in self.ladders.items() if rows]


def ladder_state(base: str) -> LadderState:
    ladders = {}
    for ladder in all_pages(base, "/api/v1/ladders/"):
        if not ladder["schedule_enabled"]:
            continue
        label = f"{ladder['game']} ({ladder['num_players']} players)"
        ladders[label] = all_pages(base, f"/api/v1/ladders/{ladder['id']}/standings/")
    # The match list is cursor-paginated (no count): one page of up to MATCH_PAGE is enough here.
    finished = len(
        api_get(base, f"/api/v1/matches/?status=finished&page_size={MATCH_PAGE}")["results"]
    )
    failed = len(api_get(base, f"/api/v1/matches/?status=failed&page_size={MATCH_PAGE}")["results"])
    return LadderState(ladders, finished, failed)


def wait_for_web(base: str, web: Service, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not web.running():
            raise DemoError(f"the web server exited:\n{log_tail(web.log_path)}")
        try:
            fetch_json(f"{base}/api/v1/ladders/")
            return
        except (OSError, ValueError):
            time.sleep(0.3)
    raise DemoError(f"the web server did not answer within {timeout:.0f} s")


# --- main ---------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000, help="web server port (8000)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (127.0.0.1)")
    parser.add_argument(
        "--data", type=Path, default=ROOT / "demo-data", help="the demo's data folder (demo-data/)"
    )
    parser.add_argument(
        "--reset",
        action="store_true",
        help="delete the data folder first: a fresh database and fresh standings",
    )
    parser.add_argument("--concurrency", type=int, default=2, help="the worker's match slots (2)")
    parser.add_argument(
        "--stop-after-standings",
        action="store_true",
        help="stop once every playing ladder has standings (exit 1 if that "
        "takes longer than --timeout)",
    )
    parser.add_argument(
        "--duration",
        type=float,
        default=0,
        help="stop after this many seconds (0: run until Ctrl-C)",
    )
    parser.add_argument(
        "--timeout", type=float, default=300, help="seconds --stop-after-standings waits (300)"
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=20,
        help="seconds the services get to stop before they are killed (20)",
    )
    parser.add_argument(
        "--policies",
        default="random,greedy,mcts",
        help="reference bots to upload for every game (random,greedy,mcts); a "
        "game plays only at tables its bots can fill",
    )
    parser.add_argument(
        "--all-tables",
        action="store_true",
        help="play every table size the reference bots can fill (six ladders), "
        "not only each game's smallest (four)",
    )
    parser.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run bots unsandboxed (MONSOON_SANDBOX=none): only where bubblewrap "
        "cannot run, and never with bots you do not trust",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="echo every service log line (else only warnings and errors)",
    )
    return parser.parse_args(argv)


def build_services(args: argparse.Namespace, python: str, logs: Path) -> list[Service]:
    celery = [python, "-m", "celery", "-A", "workers.celery_app"]
    data = args.data
    return [
        Service(
            "web",
            [
                python,
                "-m",
                "gunicorn",
                "-c",
                str(ROOT / "deploy" / "gunicorn.conf.py"),
                "--bind",
                f"{args.host}:{args.port}",
                "--workers",
                "2",
                "--graceful-timeout",
                str(max(int(args.grace) - 2, 1)),
            ],
            logs / "web.log",
            args.verbose,
        ),
        # One worker on one host: no gossip, mingle or remote-control heartbeats to exchange.
        Service(
            "worker",
            [
                *celery,
                "worker",
                "-Q",
                "matches,validation,default",
                "-c",
                str(args.concurrency),
                "-n",
                "demo@%h",
                "-l",
                "info",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            logs / "worker.log",
            args.verbose,
        ),
        Service(
            "beat",
            [*celery, "beat", "-l", "info", "-s", str(data / "beat-schedule")],
            logs / "beat.log",
            args.verbose,
        ),
    ]


def print_welcome(base: str, seed_output: str) -> None:
    say("")
    say(f"site       {base}/")
    say(f"standings  {base}/ (every ladder) and {base}/api/v1/ladders/<id>/standings/")
    say(f"REST API   {base}/api/v1/   (docs: {base}/api/docs/)")
    say(f"admin      {base}/admin/")
    for line in seed_output.splitlines():
        if line.startswith("login "):
            say(line)
    say("Ctrl-C stops every process the demo started")
    say("")


def watch(
    args: argparse.Namespace,
    base: str,
    services: list[Service],
    started: float,
    stopping: Callable[[], bool],
) -> int:
    """Report the ladder's progress until asked to stop; returns the exit status."""
    first_at: float | None = None
    all_at: float | None = None
    last_line = ""
    while not stopping():
        for service in services:
            if not service.running():
                say(
                    f"{service.name} exited unexpectedly; its log ends:\n"
                    f"{log_tail(service.log_path)}"
                )
                return 1
        elapsed = time.monotonic() - started
        try:
            state = ladder_state(base)
        except (OSError, ValueError, KeyError) as exc:
            say(f"could not read the ladder ({exc}); trying again")
            state = None
        if state is not None:
            played = f"{state.finished}{'+' if state.finished >= MATCH_PAGE else ''}"
            line = (
                f"{played} matches played, {state.failed} failed; standings on "
                f"{len(state.with_standings)}/{len(state.ladders)} ladders"
            )
            if line != last_line:
                say(line)
                last_line = line
            if first_at is None and state.with_standings:
                first_at = elapsed
                label = state.with_standings[0]
                top = state.ladders[label][0]
                say(
                    f"first standings after {elapsed:.1f} s: {label}, leader {top['bot_name']} "
                    f"({top['rating']:.1f})"
                )
            if all_at is None and state.ladders and len(state.with_standings) == len(state.ladders):
                all_at = elapsed
                say(
                    f"standings on all {len(state.ladders)} playing ladders after "
                    f"{elapsed:.1f} s: {base}/"
                )
                if args.stop_after_standings:
                    return 0
        if args.stop_after_standings and elapsed > args.timeout:
            say(f"no standings on every ladder after {args.timeout:.0f} s")
            return 1
        if args.duration and elapsed >= args.duration:
            say(f"--duration {args.duration:.0f} s is over")
            return 0
        time.sleep(2)
    return 0


def main(argv: list[str] | None = None) -> int:
    started = STARTED
    args = parse_args(argv)
    args.data = args.data.resolve()
    python = sys.executable
    stop_requested = threading.Event()
    hurry = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        # os.write, not print: the signal may arrive in the middle of a print of the main thread.
        name = signal.Signals(signum).name
        if stop_requested.is_set():
            if not hurry.is_set():
                os.write(1, f"demo | {name} again: killing everything now\n".encode())
            hurry.set()
            return
        os.write(1, f"demo | {name}: stopping\n".encode())
        stop_requested.set()

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    services: list[Service] = []
    status = 0
    try:
        if problem := port_problem(args.host, args.port):
            raise DemoError(problem)
        if not args.no_sandbox and (problem := sandbox_problem(python)):
            raise DemoError(
                f"bots cannot be sandboxed on this machine: {problem}\n"
                "(`make sandbox` installs bubblewrap; --no-sandbox runs the "
                "reference bots unsandboxed)"
            )
        reused = (args.data / MARKER).exists() and not args.reset
        prepare_data(args.data, args.reset)
        logs = args.data / "logs"
        env = demo_environment(args.data, args.host, args.no_sandbox)
        say(f"data in {args.data} (reused by the next run; --reset starts afresh)")
        manage = [python, str(ROOT / "manage.py")]
        run_step(
            [*manage, "migrate", "--noinput"],
            env,
            logs / "setup.log",
            "migrating the SQLite database",
        )
        seed = [
            *manage,
            "seed_demo",
            "--policies",
            args.policies,
            *(["--all-tables"] if args.all_tables else []),
        ]
        seed_output = run_step(
            seed,
            env,
            logs / "setup.log",
            "seeding demo accounts and the reference bots of every game",
        )
        for line in seed_output.splitlines():
            if not line.startswith("login "):
                say(line)
        if stop_requested.is_set():
            return 130
        become_subreaper()
        services = build_services(args, python, logs)
        for service in services:
            service.start(env)
        for service in services:
            service.start_logging()
            say(f"started {service.name} (pid {service.pid}, log {service.log_path})")
        wildcard = args.host in ("0.0.0.0", "::")  # noqa: S104  (a comparison, not a bind)
        base = f"http://{'127.0.0.1' if wildcard else args.host}:{args.port}"
        wait_for_web(base, services[0], timeout=60)
        print_welcome(base, seed_output)
        if reused:
            say("standings shown at once are those of the previous run")
        status = watch(args, base, services, started, stop_requested.is_set)
    except DemoError as exc:
        if stop_requested.is_set():  # Ctrl-C during migrate or seed interrupts them too
            status = 130
        else:
            say(f"error: {exc}")
            status = 2
    finally:
        if services:
            say(
                f"stopping web, worker and beat (the worker may finish its matches for up to "
                f"{args.grace:.0f} s; Ctrl-C again to kill at once)"
            )
            left = stop_services(services, args.grace, hurry)
            if left:
                say(f"could not end processes {left}")
                status = status or 1
            else:
                say("stopped; no process left running")
    return status


if __name__ == "__main__":
    sys.exit(main())
