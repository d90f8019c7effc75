"""The shipped nginx in front of gunicorn keeps the API answering through a slow-body attack.

Issue 25: 24 connections that each declared a 100 KB body and sent 13 bytes held every gunicorn
thread, so ``GET /api/v1/games/`` timed out, and the connections were never closed. Here gunicorn
runs with ``deploy/gunicorn.conf.py`` behind nginx with ``deploy/nginx/monsoon.conf`` (rendered
for free loopback ports, a temporary prefix and a short body timeout, see
``tests/e2e/proxy_stack.py``). During the attack every probe through nginx is answered 200, no
attack request ever reaches gunicorn, and once the attackers stop sending, nginx closes their
connections. How fast the probes are answered is a figure of ``benchmarks/slow_bodies.py``, not
an assertion here.
"""

from __future__ import annotations

import http.client
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from tests.e2e.proxy_stack import (
    ATTACK_PATH,
    PROBE_PATH,
    SlowBodies,
    StackError,
    free_port,
    nginx_binary,
    nginx_test,
    probe,
    render_site,
    start_gunicorn,
    start_nginx,
    tail,
    write_config,
)
from tests.e2e.stack import wait_for

# django_db: pytest-django creates (and migrates) the test database only for tests that mark it,
# and the gunicorn started here reads that database.
pytestmark = [pytest.mark.e2e, pytest.mark.django_db]

BODY_TIMEOUT_SECONDS = 6  # the rendered client_body_timeout; the attack trickles far faster
TRICKLE_SECONDS = 0.5
ATTACKERS = 24
PROBES = 6
STATIC_NAME = "proxy-check.txt"
STATIC_TEXT = b"served by nginx from STATIC_ROOT\n"


@pytest.fixture
def nginx() -> str:
    binary = nginx_binary()
    if binary is None:
        pytest.fail("nginx is not installed (scripts/ensure-services.sh installs it)")
    return binary


@pytest.fixture
def static_root(tmp_path: Path) -> Path:
    root = tmp_path / "static"
    root.mkdir()
    (root / STATIC_NAME).write_bytes(STATIC_TEXT)
    return root


@pytest.fixture
def gunicorn(tmp_path: Path) -> Iterator[tuple[int, Path]]:
    """gunicorn with the deploy settings (two processes: the machine is shared) on the test
    database; its port and log."""
    db = connection.settings_dict
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("MONSOON_", "CELERY_", "DATABASE_", "GUNICORN_", "WEB_"))
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "ladder.settings_test",
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "MEDIA_ROOT": str(tmp_path / "media"),
            "WEB_CONCURRENCY": "2",
            "PYTHONUNBUFFERED": "1",
        }
    )
    log = tmp_path / "gunicorn.log"
    try:
        process, port = start_gunicorn(env, log)
    except StackError as error:
        pytest.fail(str(error))
    yield port, log
    process.stop()


def test_shipped_site_file_passes_nginx_t(nginx, tmp_path, static_root):
    prefix = tmp_path / "nginx"
    site = render_site(port=free_port(), upstream_port=free_port(), static_root=static_root)
    result = nginx_test(nginx, prefix, write_config(prefix, site))
    assert result.returncode == 0, result.stderr
    assert "syntax is ok" in result.stderr and "test is successful" in result.stderr


def _declared_too_large(port: int) -> int:
    """A POST declaring more than MONSOON_REQUEST_MAX_BYTES, none of it sent: the status."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest("POST", ATTACK_PATH)
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(300 * 1024))
        conn.endheaders()
        return conn.getresponse().status
    finally:
        conn.close()


def test_slow_bodies_never_reach_gunicorn_and_the_api_keeps_answering(
    nginx, gunicorn, tmp_path, static_root
):
    upstream_port, gunicorn_log = gunicorn
    try:
        proxy, port = start_nginx(
            nginx,
            tmp_path / "nginx",
            upstream_port=upstream_port,
            static_root=static_root,
            body_timeout=f"{BODY_TIMEOUT_SECONDS}s",
        )
    except StackError as error:
        pytest.fail(str(error))
    attack: SlowBodies | None = None
    try:
        assert probe(port)[0] == 200, tail(gunicorn_log)
        attack = SlowBodies(port, ATTACKERS)
        attack.trickle(TRICKLE_SECONDS)
        for number in range(PROBES):
            status = probe(port)[0]
            assert status == 200, f"probe {number}: {status}\n{tail(gunicorn_log)}"
        # Static files come from nginx itself (gunicorn has never heard of this one), and a
        # body declared over the limit is refused without being read.
        static = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        static.request("GET", f"/static/{STATIC_NAME}")
        answer = static.getresponse()
        assert (answer.status, answer.read()) == (200, STATIC_TEXT)
        static.close()
        assert _declared_too_large(port) == 413
        assert attack.closed() == set(), "nginx closed connections that were still sending"

        attack.stop_trickle()
        wait_for(
            lambda: len(attack.closed()) == ATTACKERS,
            120,
            f"nginx to close the {ATTACKERS} stalled connections (client_body_timeout)",
        )
        requests = tail(gunicorn_log, 10_000)
        assert f"GET {PROBE_PATH}" in requests
        assert ATTACK_PATH not in requests, "a partial body reached gunicorn"
    finally:
        if attack is not None:
            attack.close()
        proxy.stop()


def _answer(port: int, method: str, path: str = "/api/v1/games/") -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request(method, path)
    answer = conn.getresponse()
    answer.read()
    conn.close()
    return answer


def test_nginx_refuses_trace_with_the_allow_header_a_405_must_carry(nginx, tmp_path, static_root):
    """nginx answers TRACE itself (it never reaches gunicorn): a 405 without ``Allow`` breaks
    RFC 9110 section 15.5.6, and scanners flagged it. No upstream is needed to see it."""
    try:
        proxy, port = start_nginx(
            nginx, tmp_path / "nginx", upstream_port=free_port(), static_root=static_root
        )
    except StackError as error:
        pytest.fail(str(error))
    try:
        for path in ("/", "/api/v1/games/", "/static/x.css"):
            answer = _answer(port, "TRACE", path)
            assert answer.status == 405, (path, answer.status)
            allowed = {m.strip() for m in (answer.getheader("Allow") or "").split(",")}
            assert {"GET", "HEAD", "POST", "OPTIONS"} <= allowed, (path, allowed)
            assert "TRACE" not in allowed
        # Other answers are untouched: no upstream here, so a proxied GET is nginx's 502.
        assert _answer(port, "GET").getheader("Allow") is None
    finally:
        proxy.stop()
