"""gunicorn behind the shipped nginx site file, on free loopback ports, and a slow-body attack.

Shared by the proxy test (``tests/e2e/test_proxy.py``) and its benchmark
(``benchmarks/slow_bodies.py``), so both exercise the same files: gunicorn runs with
``deploy/gunicorn.conf.py`` and nginx with ``deploy/nginx/monsoon.conf``, rendered for test ports
and a temporary prefix by :func:`render_site` (every rewrite must find its line, so a changed
site file fails loudly instead of being tested half-rendered). Nothing here imports pytest:
failures raise :class:`StackError` carrying the process's last log lines.
"""

from __future__ import annotations

import contextlib
import functools
import http.client
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE_FILE = ROOT / "deploy" / "nginx" / "monsoon.conf"
GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"
GUNICORN = str(Path(sys.executable).with_name("gunicorn"))
PROBE_PATH = "/api/v1/games/"
# The attack of issue 25: a body declared at 100 KB (under MONSOON_REQUEST_MAX_BYTES, so nothing
# refuses it up front) of which only the first 13 bytes arrive, on an endpoint that reads it.
ATTACK_PATH = "/api/v1/auth/token/"
ATTACK_DECLARED = 100_000
ATTACK_FIRST_BYTES = b'{"username":"'
ATTEMPTS = 5  # a free port can be taken between choosing it and binding it


class StackError(RuntimeError):
    """A process of the stack did not come up (or went away); the message holds its log."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def tail(path: Path, lines: int = 40) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return f"(no log at {path})"
    return "\n".join(text.splitlines()[-lines:])


def nginx_binary() -> str | None:
    """Debian installs nginx in /usr/sbin, which is not on every user's PATH."""
    return shutil.which("nginx") or (
        "/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None
    )


def nginx_or_install() -> str:
    """nginx's binary, installed by ``scripts/ensure-services.sh`` when missing (benchmarks)."""
    binary = nginx_binary()
    if binary is None:
        subprocess.run([str(ROOT / "scripts" / "ensure-services.sh")], check=True)
        binary = nginx_binary()
    if binary is None:
        raise SystemExit("nginx is missing")
    return binary


def shipped_gunicorn_env(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` without the variables that would override deploy/gunicorn.conf.py's shape."""
    drop = ("WEB_CONCURRENCY", "GUNICORN_THREADS", "GUNICORN_BIND")
    return {name: value for name, value in env.items() if name not in drop}


def _sub(pattern: str, replacement: str, text: str, what: str) -> str:
    result, count = re.subn(pattern, replacement, text, flags=re.M)
    if count == 0:
        raise StackError(f"{SITE_FILE.name} has no {what} line to render ({pattern!r})")
    return result


def render_site(
    *,
    port: int,
    upstream_port: int,
    static_root: Path,
    body_timeout: str | None = None,
    site: str | None = None,
) -> str:
    """The shipped site file with loopback ports, a static folder and (for a test that waits for
    it) a shorter ``client_body_timeout``; every other limit stays as shipped."""
    text = SITE_FILE.read_text() if site is None else site
    text = _sub(r"^(\s*)listen 80;$", rf"\1listen 127.0.0.1:{port};", text, "listen 80")
    text = _sub(r"^\s*listen \[::\]:80;\n", "", text, "listen [::]:80")
    text = _sub(
        r"^(\s*)server 127\.0\.0\.1:8000;$",
        rf"\1server 127.0.0.1:{upstream_port};",
        text,
        "upstream server",
    )
    text = _sub(
        r"^(\s*)alias /srv/monsoon/staticfiles/;$",
        rf"\1alias {static_root}/;",
        text,
        "static alias",
    )
    if body_timeout is not None:
        text = _sub(
            r"^(\s*)client_body_timeout \S+;$",
            rf"\1client_body_timeout {body_timeout};",
            text,
            "client_body_timeout",
        )
    return text


def render_main(prefix: Path, site_path: Path) -> str:
    """A main nginx.conf like Debian's, around the site file, with every path under ``prefix``.

    Run as root, nginx would hand its workers to ``nobody``, who cannot read a private temporary
    folder: the workers keep the current user instead.
    """
    user = f"user {pwd.getpwuid(os.geteuid()).pw_name};" if os.geteuid() == 0 else ""
    mime = Path("/etc/nginx/mime.types")
    types = f"include {mime};" if mime.is_file() else "types { application/json json; }"
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return f"""{user}
daemon off;
worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} info;
events {{
    worker_connections 512;
}}
http {{
    {types}
    default_type application/octet-stream;
    access_log {prefix / "access.log"};
{temp}
    include {site_path};
}}
"""


def write_config(prefix: Path, site: str) -> Path:
    prefix.mkdir(parents=True, exist_ok=True)
    site_path = prefix / "monsoon.conf"
    site_path.write_text(site)
    main = prefix / "nginx.conf"
    main.write_text(render_main(prefix, site_path))
    return main


def nginx_test(binary: str, prefix: Path, config: Path) -> subprocess.CompletedProcess[str]:
    """``nginx -t`` of a rendered configuration."""
    return subprocess.run(
        [binary, "-t", "-p", str(prefix), "-c", str(config), "-e", str(prefix / "error.log")],
        capture_output=True,
        text=True,
        timeout=60,
    )


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            return True
    except OSError:
        return False


class Process:
    """A server child in its own session, its output in ``log``."""

    def __init__(self, name: str, argv: list[str], env: Mapping[str, str], log: Path) -> None:
        self.name, self.log = name, log
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                argv,
                cwd=ROOT,
                env=dict(env),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_until(self, ready: Callable[[], bool], timeout: float, extra_log: Path | None) -> bool:
        """True once ``ready()``; False if the process exited first. Raises after ``timeout``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if ready():
                return True
            if self.proc.poll() is not None:
                return False
            time.sleep(0.2)
        self.stop()
        logs = tail(self.log) + ("\n" + tail(extra_log) if extra_log else "")
        raise StackError(f"{self.name} did not answer in {timeout:.0f} s; its log ends:\n{logs}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


def start_gunicorn(env: Mapping[str, str], log: Path, timeout: float = 120) -> tuple[Process, int]:
    """gunicorn with deploy/gunicorn.conf.py on a free port, answering ``PROBE_PATH``."""
    for _ in range(ATTEMPTS):
        port = free_port()
        process = Process(
            "gunicorn",
            [GUNICORN, "-c", str(GUNICORN_CONF)],
            {**env, "GUNICORN_BIND": f"127.0.0.1:{port}"},
            log,
        )

        def answers(port: int = port) -> bool:
            try:
                return probe(port, timeout=5)[0] == 200
            except OSError:
                return False

        if process.wait_until(answers, timeout, None):
            return process, port
        if "Address already in use" not in tail(log):
            break
    raise StackError(f"gunicorn did not start; its log ends:\n{tail(log)}")


def start_nginx(
    binary: str,
    prefix: Path,
    *,
    upstream_port: int,
    static_root: Path,
    body_timeout: str | None = None,
    timeout: float = 60,
) -> tuple[Process, int]:
    """nginx with the rendered site file on a free port (another one if that port was taken)."""
    error_log = prefix / "error.log"
    for _ in range(ATTEMPTS):
        port = free_port()
        site = render_site(
            port=port,
            upstream_port=upstream_port,
            static_root=static_root,
            body_timeout=body_timeout,
        )
        config = write_config(prefix, site)
        process = Process(
            "nginx",
            [binary, "-p", str(prefix), "-c", str(config), "-e", str(error_log)],
            os.environ,
            prefix / "nginx.out",
        )
        if process.wait_until(functools.partial(_listening, port), timeout, error_log):
            return process, port
        if "Address already in use" not in tail(error_log):
            break
    raise StackError(f"nginx did not start; its error log ends:\n{tail(error_log)}")


def probe(port: int, path: str = PROBE_PATH, timeout: float = 30) -> tuple[int, float]:
    """One ``GET`` on a fresh connection: its status and how long the answer took."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        return response.status, time.perf_counter() - started
    finally:
        connection.close()


class SlowBodies:
    """``count`` connections that each declare a body and send only its first bytes.

    While :meth:`trickle` runs, every connection gets one more byte each ``interval`` seconds, so
    it stays alive however long a read timeout allows between reads; after :meth:`stop_trickle`
    the connections only wait. :meth:`closed` tells which ones the server has closed.
    """

    def __init__(self, port: int, count: int = 24) -> None:
        head = (
            f"POST {ATTACK_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Content-Type: application/json\r\nContent-Length: {ATTACK_DECLARED}\r\n\r\n"
        ).encode()
        self.sockets: list[socket.socket] = []
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
            sock.sendall(head + ATTACK_FIRST_BYTES)
            self.sockets.append(sock)
        self.sent = len(ATTACK_FIRST_BYTES)
        self.answers = b""  # whatever the server wrote back before closing (a 408, say)
        self._closed: set[int] = set()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def trickle(self, interval: float = 0.5) -> None:
        def run() -> None:
            while not self._stop.wait(interval) and self.sent < ATTACK_DECLARED - 1:
                for index, sock in enumerate(self.sockets):
                    try:
                        sock.sendall(b"a")
                    except OSError:
                        self._closed.add(index)
                self.sent += 1

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()

    def stop_trickle(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def closed(self) -> set[int]:
        """Indexes of the connections the server closed (end of stream or reset)."""
        for index, sock in enumerate(self.sockets):
            if index in self._closed:
                continue
            try:
                sock.setblocking(False)
                data = sock.recv(65536)
            except (BlockingIOError, InterruptedError):
                continue  # open, nothing to read
            except OSError:
                self._closed.add(index)  # reset
                continue
            finally:
                with contextlib.suppress(OSError):
                    sock.setblocking(True)
            if not data:
                self._closed.add(index)
            else:
                self.answers += data
        return set(self._closed)

    def close(self) -> None:
        self.stop_trickle()
        for sock in self.sockets:
            sock.close()
