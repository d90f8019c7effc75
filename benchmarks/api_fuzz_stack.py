"""Schemathesis against the deploy stack: every phase, stateful too, anonymous and with a token.

The suite's own fuzz (``tests/ladder/test_api_fuzz.py``) drives the WSGI application in the
test process; this drives what a user reaches: ``deploy/nginx/monsoon.conf`` in front of
gunicorn with ``deploy/gunicorn.conf.py`` and production settings (``DEBUG=0``, Redis as the
shared cache, so throttles and the login lockout count as in production), on a database of its
own that is made afresh for every run (``monsoon_fuzz``), with one user who owns one bot.

``schemathesis run`` runs twice over the live ``/api/schema/``: once without credentials, once
with that user's API token, each with every check and the phases examples, coverage, fuzzing
and stateful (sequences of calls linked by the schema's response links: a created bot's id used
in the next request). One check is tuned as in the suite: "schema-valid request rejected"
accepts 400, 401, 403, 404, 409 and 429 too (a wrong password, a name already taken, a
throttled or locked-out caller: refusals no schema can express). Prints, per run, the
operations tested, the cases generated, the server errors (there must be none) and every other
failure grouped by check, with the operations it was seen on; ``docs/ladder.md`` explains each
that remains. A pure-Python calibration loop timed in the same run says how fast the machine
was.

Run: ``.venv/bin/python -m benchmarks.api_fuzz_stack`` (PostgreSQL and Redis as
``scripts/ensure-services.sh`` sets them up, and nginx, which it installs). ``--max-examples``
sets the cases per operation and phase (default 20); ``--seed`` the generator's seed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.api_load import ENV
from benchmarks.bench_db import recreate_database
from benchmarks.slow_bodies import calibration_ms
from tests.e2e.proxy_stack import (
    ROOT,
    nginx_or_install,
    shipped_gunicorn_env,
    start_gunicorn,
    start_nginx,
    tail,
)

DB_NAME = "monsoon_fuzz"
SCHEMATHESIS = str(Path(sys.executable).with_name("schemathesis"))
CONFIG = """\
[checks.positive_data_acceptance]
expected-statuses = ["2xx", "3xx", "400", "401", "403", "404", "409", "429"]
"""
SEED_USER = """
from rest_framework.authtoken.models import Token
from ladder.accounts.services import create_user
from ladder.bots.services import create_bot
user = create_user("fuzzer", password="fuzzer-password-1")
create_bot(user, name="pepper", game="batavia")
print(Token.objects.get_or_create(user=user)[0].key)
"""


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout


def fuzz(
    url: str, work: Path, name: str, headers: list[str], max_examples: int, seed: int
) -> tuple[dict, float]:
    """One ``schemathesis run``; its JSON report and how long it took."""
    report = work / f"{name}.json"
    config = work / "schemathesis.toml"
    config.write_text(CONFIG)
    command = [
        SCHEMATHESIS,
        "--config-file",
        str(config),
        "run",
        url,
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--max-examples",
        str(max_examples),
        "--seed",
        str(seed),
        "--workers",
        "2",
        "--request-timeout",
        "30",
        "--suppress-health-check",
        "all",
        "--report",
        "json",
        "--report-json-path",
        str(report),
        "--no-color",
    ]
    for header in headers:
        command += ["--header", header]
    started = time.monotonic()
    with open(work / f"{name}.out", "w") as out:
        subprocess.run(command, cwd=work, stdout=out, stderr=subprocess.STDOUT, check=False)
    took = time.monotonic() - started
    if not report.exists():
        raise SystemExit(
            f"schemathesis wrote no report; its output ends:\n{tail(work / f'{name}.out')}"
        )
    return json.loads(report.read_text()), took


def describe(name: str, document: dict, took: float) -> list[str]:
    cases = document["test_cases"]
    operations = document.get("operations") or {}
    failures = document["failures"]
    server_errors = sum(f["count"] for f in failures if f["type"] == "not_a_server_error")
    lines = [
        f"{name}: {operations.get('tested', 0)} of {operations.get('total', 0)} operations, "
        f"{cases['generated']} cases in {took:.0f} s; {server_errors} server errors; "
        f"{cases['unique_failures']} unique failures, {cases['errored']} errored cases"
    ]
    phases = document.get("phases") or {}
    lines.append("  phases: " + ", ".join(f"{k} {v['status']}" for k, v in phases.items()))
    for failure in failures:
        ops = ", ".join(failure["operations"][:6])
        more = len(failure["operations"]) - 6
        lines.append(
            f"  {failure['count']:4d} x {failure['title']} ({failure['type']}): {ops}"
            + (f" and {more} more" if more > 0 else "")
        )
    for error in document["errors"]:
        lines.append(f"  error {error['count']} x {error['title']}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-examples", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    nginx = nginx_or_install()
    recreate_database(DB_NAME)
    env = {
        **os.environ,
        **ENV,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
        "CACHE_URL": "redis://127.0.0.1:6379/4",
        "GUNICORN_LOG_LEVEL": "warning",
    }
    env = shipped_gunicorn_env(env)
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "shell", "-c", "from django.core.cache import cache; cache.clear()")
    token = manage(env, "shell", "-c", SEED_USER).strip().splitlines()[-1]
    print(f"calibration: pure-Python loop {calibration_ms():.0f} ms (best of 3)", flush=True)
    with tempfile.TemporaryDirectory(prefix="api-fuzz-") as folder:
        work = Path(folder)
        (work / "static").mkdir()
        gunicorn, upstream = start_gunicorn(env, work / "gunicorn.log")
        proxy = None
        try:
            proxy, port = start_nginx(
                nginx, work / "nginx", upstream_port=upstream, static_root=work / "static"
            )
            url = f"http://127.0.0.1:{port}/api/schema/"
            print(
                f"schemathesis {args.max_examples} cases per operation and phase, seed "
                f"{args.seed}, against nginx -> gunicorn (deploy/ as shipped):",
                flush=True,
            )
            runs = [("anonymous", []), ("token", [f"Authorization: Token {token}"])]
            for name, headers in runs:
                document, took = fuzz(url, work, name, headers, args.max_examples, args.seed)
                print("\n".join(describe(name, document, took)), flush=True)
            errors = tail(work / "gunicorn.log", 200).count("Traceback")
            print(f"gunicorn log: {errors} tracebacks", flush=True)
            print(f"calibration: pure-Python loop {calibration_ms():.0f} ms (best of 3)")
        finally:
            if proxy is not None:
                proxy.stop()
            gunicorn.stop()


if __name__ == "__main__":
    main()
