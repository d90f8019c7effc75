"""What the end-to-end tests share beside their fixtures: the fleet of worker processes, API
helpers for a token client, and polling with a generous deadline.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from ladder.bots import services as bot_services
from ladder.bots.models import BotVersion
from ladder.matches import services as match_services
from ladder.matches.models import Match
from ladder.ratings.models import Rating, RatingPoint
from tests.factories import accept, ladder_for, make_bot

ROOT = Path(__file__).resolve().parents[2]


BOTS = Path(__file__).parent / "bots"


def wait_for(
    condition: Callable[[], object], timeout: float, what: str, interval: float = 0.2
) -> object:
    """Poll ``condition`` until it is truthy; fail the test with ``what`` after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}")


def token_client(username: str) -> APIClient:
    """An API client as a programmer has one: the token from ``auth/token/`` for the persona's
    password, sent as ``Authorization: Token ...`` (docs/languages.md, "Uploading through the
    API")."""
    from tests.factories import password_of

    client = APIClient()
    answer = client.post(
        "/api/v1/auth/token/", {"username": username, "password": password_of(username)}
    )
    assert answer.status_code == 200, answer.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    return client


def api_create_bot(api: APIClient, name: str, game: str) -> int:
    """A new bot of the client's user, through the REST API; its id."""
    created = api.post("/api/v1/bots/", {"name": name, "game": game}, format="json")
    assert created.status_code == 201, created.content
    return int(created.json()["id"])


def api_upload(api: APIClient, bot_id: int, data: bytes, filename: str) -> dict[str, Any]:
    """Upload a version as a programmer does (multipart ``artifact``); the version's JSON.

    It comes back ``pending``: in these tests only a worker process validates.
    """
    artifact = io.BytesIO(data)
    artifact.name = filename
    uploaded = api.post(
        f"/api/v1/bots/{bot_id}/upload/", {"artifact": artifact}, format="multipart"
    )
    assert uploaded.status_code == 201, uploaded.content
    body: dict[str, Any] = uploaded.json()
    assert body["status"] == "pending", body
    return body


class Fleet:
    """Celery worker and beat processes of one test, each in its own session."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env, self.logs = env, logs
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.restarts: dict[str, int] = {}
        self._commands: dict[str, tuple[list[str], dict[str, str]]] = {}

    def _spawn(self, name: str, argv: list[str], extra_env: dict[str, str]) -> None:
        self._commands[name] = (argv, extra_env)
        log = open(self.logs / f"{name}.log", "ab")  # noqa: SIM115 (the process owns it)
        self.procs[name] = subprocess.Popen(
            argv,
            cwd=ROOT,
            env={**self.env, **extra_env},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()

    def worker(
        self,
        name: str,
        *,
        concurrency: int = 2,
        queues: str = "matches,validation,default",
        wait: bool = True,
        launcher: Sequence[str] = (),
        env: Mapping[str, str] | None = None,
        **extra_env: str,
    ) -> None:
        """A Celery worker with ``env`` and ``extra_env`` over the fleet's environment, consuming
        ``queues`` (and its own direct queue, ``<name>@<host>.dq2``).

        ``launcher`` is an argv prefix that starts it elsewhere (another namespace, say).
        """
        self._spawn(
            name,
            [
                *launcher,
                CELERY,
                "-A",
                "workers.celery_app",
                "worker",
                "-Q",
                queues,
                "-c",
                str(concurrency),
                "-n",
                f"{name}@%h",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=INFO",
            ],
            {**(env or {}), **extra_env},
        )
        if wait:
            from ladder.fleet.models import WorkerNode

            wait_for(
                lambda: WorkerNode.objects.filter(
                    name__startswith=f"{name}@", stopped_at__isnull=True
                ).exists(),
                60,
                f"worker {name} to report for duty",
            )

    def beat(self, **extra_env: str) -> None:
        self._spawn(
            "beat",
            [
                CELERY,
                "-A",
                "workers.celery_app",
                "beat",
                "--loglevel=INFO",
                "-s",
                str(self.logs / "beat-schedule"),
            ],
            extra_env,
        )

    def supervise(self) -> None:
        """What systemd's ``Restart=always`` does: start again every process that exited."""
        for name, proc in list(self.procs.items()):
            if proc.poll() is not None:
                self.restarts[name] = self.restarts.get(name, 0) + 1
                argv, extra_env = self._commands[name]
                self._spawn(name, argv, extra_env)

    def kill(self, name: str) -> None:
        """``kill -9`` of the whole worker: its main process and every pool process."""
        proc = self.procs.pop(name)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def session_alive(self, pgid: int) -> list[int]:
        alive = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    if os.getsid(int(entry.name)) == pgid:
                        alive.append(int(entry.name))
        return alive

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")

    def stop_all(self) -> None:
        for proc in self.procs.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        for proc in self.procs.values():  # pool processes and sandboxes of a killed group
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
        self.procs.clear()


CELERY = str(Path(sys.executable).with_name("celery"))


REFERENCE = Path(__file__).resolve().parents[2] / "bots" / "reference"


def finished_count() -> int:
    return Match.objects.filter(status=Status.FINISHED).count()


def assert_recorded_exactly_once(matches: list[Match]) -> None:
    """Every match finished once; ratings counted each seat of each match once."""
    for match in matches:
        match.refresh_from_db()
        assert match.status == Status.FINISHED, (match.pk, match.status, match.status_reason)
        assert match.rated
        assert RatingPoint.objects.filter(match=match).count() == match.seats.count()
    played = Counter(v for m in matches for v in m.seats.values_list("bot_version", flat=True))
    games = dict(Rating.objects.values_list("bot_version", "games"))
    assert games == dict(played)


def steady_versions(owner, count: int = 2) -> list[BotVersion]:
    """Active versions of the 30 ms-a-move bot (validated in-process: not the point here)."""
    versions = []
    for i in range(count):
        bot = make_bot(owner, f"steady-{i}", "packet_row")
        version = bot_services.upload_version(
            bot, user=owner, filename="main.py", data=(BOTS / "steady.py").read_bytes()
        )
        validated = bot_services.validate_version(version.pk, validator=accept)
        if validated is None:
            # A worker of this test's stack took the upload's validation task first: the
            # version is then the worker's to validate, in its real sandbox.
            active = BotVersion.objects.filter(pk=version.pk, status=BotVersion.Status.ACTIVE)
            wait_for(active.exists, 120, f"the worker to validate version {version.pk}")
            validated = active.get()
        versions.append(validated)
    return versions


def queue_matches(versions: list[BotVersion], count: int) -> list[Match]:
    ladder = ladder_for("packet_row", 2)
    return [match_services.create_match(ladder, versions, seed=100 + i) for i in range(count)]


Status = Match.Status
