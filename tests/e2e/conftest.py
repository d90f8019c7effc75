"""Real worker processes on a real broker: a Redis of the tests' own, Celery workers and beat.

The Redis server here belongs to these tests (its port is this checkout's, from
``ladder.settings_test.E2E_REDIS_PORT``) so that a test may restart it without disturbing
anything else on the machine. Workers and beat are ``celery`` processes in their own sessions,
reading the test database (committed data: these tests use ``transactional_db``) through
``DATABASE_URL``, optionally through :class:`FlakyProxy`, a TCP relay the test can cut.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db import connection

from tests.e2e.stack import (
    Fleet,
    wait_for,
)
from tests.helpers import use_match_log_folder


class RedisServer:
    """A redis-server without persistence: a restart loses every queued message."""

    def __init__(self, port: int, workdir: Path) -> None:
        self.port, self.workdir = port, workdir
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def _ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed (scripts/ensure-services.sh installs it)")
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.workdir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(self._ping, 10, f"redis-server on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def restart(self, down_seconds: float = 1.0) -> None:
        self.stop()
        time.sleep(down_seconds)
        self.start()

    def flush(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as sock:
            sock.sendall(b"FLUSHALL\r\n")
            sock.recv(16)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory) -> Iterator[RedisServer]:
    server = RedisServer(django_settings.E2E_REDIS_PORT, tmp_path_factory.mktemp("redis"))
    if server._ping():  # left over by an interrupted run of this checkout
        pytest.fail(f"port {server.port} is taken; stop the process listening there")
    server.start()
    yield server
    server.stop()


class FlakyProxy:
    """A TCP relay to PostgreSQL that the test can cut: every connection drops, new ones fail."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.cut = threading.Event()
        self.cuts = 0
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut.is_set():
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open.update((client, upstream))
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        try:
            while chunk := src.recv(65536):
                dst.sendall(chunk)
        except OSError:
            pass
        finally:
            for sock in (src, dst):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
                with self._lock:
                    self._open.discard(sock)

    def go_down(self) -> None:
        """The database becomes unreachable: open connections break, new ones fail."""
        self.cut.set()
        self.cuts += 1
        with self._lock:
            sockets = list(self._open)
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

    def come_back(self) -> None:
        self.cut.clear()

    def close(self) -> None:
        self._closed = True
        self.listener.close()


@pytest.fixture
def worker_env(
    transactional_db, settings, tmp_path, redis_server, broker
) -> Iterator[dict[str, str]]:
    """The environment of this test's workers, and this process wired to the same broker."""
    from ladder.ladders.services import sync_ladders

    sync_ladders()  # a transactional test's flush removed the rows the migrations made
    redis_server.flush()
    media = tmp_path / "media"
    settings.MEDIA_ROOT = media
    # The workers store game logs under their MEDIA_ROOT (ladder.settings_test): read them there.
    use_match_log_folder(settings, media / "match-logs")
    settings.CELERY_BROKER_URL = redis_server.url
    from workers.celery_app import app  # Celery's current app, as the workers app makes it

    app.conf.update(broker_url=redis_server.url)
    db = connection.settings_dict
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("MONSOON_", "CELERY_", "DATABASE_"))
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "ladder.settings_test",
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "DATABASE_CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": redis_server.url,
            "MEDIA_ROOT": str(media),
            "MONSOON_ARTIFACT_CACHE": str(tmp_path / "artifact-cache"),
            "MONSOON_MATCH_LEASE_SECONDS": "4",
            "MONSOON_RESEND_AFTER_SECONDS": "3",
            "MONSOON_REAP_SECONDS": "1",
            "MONSOON_MATCHMAKE_SECONDS": "1",
            "MONSOON_QUEUE_TARGET": "0",
            "MONSOON_WORKER_HEARTBEAT_SECONDS": "1",
            "MONSOON_WORKER_STOP_GRACE_SECONDS": "5",
            "PYTHONUNBUFFERED": "1",
        }
    )
    yield env


@pytest.fixture
def fleet(worker_env, tmp_path) -> Iterator[Fleet]:
    logs = tmp_path / "logs"
    logs.mkdir()
    fleet = Fleet(worker_env, logs)
    yield fleet
    fleet.stop_all()


@pytest.fixture
def flaky_database() -> Iterator[FlakyProxy]:
    db = connection.settings_dict
    proxy = FlakyProxy((db["HOST"] or "127.0.0.1", int(db["PORT"] or 5432)))
    yield proxy
    proxy.close()
