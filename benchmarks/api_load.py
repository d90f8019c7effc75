"""API latency under load: standings and match lists with 100,000 recorded matches.

Fills a separate PostgreSQL database (``monsoon_bench``) with 1,000 public bots and 100,000
finished ranked matches (3-player Batavia tables, places drawn from known strengths), refits the
ratings through the real service (timed: the database side of a refit), starts gunicorn on
127.0.0.1 and drives it with ``hey`` (a real HTTP load generator, Debian package ``hey``) at a
fixed 200 requests/s per endpoint.  Target: p99 < 100 ms.

The seed data is inserted with bulk inserts, not through the upload/record services, to take
seconds instead of an hour; every request in the measurement goes through the real stack.

Run: ``.venv/bin/python -m benchmarks.api_load`` (needs PostgreSQL on 127.0.0.1:5432 with trust
auth, as ``scripts/ensure-services.sh`` sets up; installs ``hey`` with apt when missing).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import datetime
from pathlib import Path

from benchmarks.bench_db import ensure_database, seed_public_bots

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = "monsoon_bench"
PORT = 8765
ENV = {
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "SECRET_KEY": "benchmark-only-secret-key-0123456789abcdefghijklmnop",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DEBUG": "0",
    "DJANGO_SETTINGS_MODULE": "ladder.settings",
    "MEDIA_ROOT": str(ROOT / "test-artifacts" / "bench-media"),
    # Production refuses per-process throttle counts: the machine's Redis is the shared cache.
    "CACHE_URL": "redis://127.0.0.1:6379/3",
}


def ensure_hey() -> str:
    path = shutil.which("hey")
    if path:
        return path
    apt_get = shutil.which("apt-get")
    if apt_get is None:
        raise SystemExit(
            "the 'hey' load generator is missing and there is no apt-get to install it"
        )
    print("installing the 'hey' load generator with apt ...", flush=True)
    subprocess.run([apt_get, "install", "-y", "-qq", "hey"], check=True, stdout=subprocess.DEVNULL)
    path = shutil.which("hey")
    if path is None:
        raise SystemExit("apt-get installed no 'hey' on the PATH")
    return path


def populate(matches: int, bots: int, seed: int) -> None:
    """Seed data, once: skipped when the database already holds enough finished matches."""
    import numpy as np
    from django.core.management import call_command
    from django.db import transaction

    from ladder.ladders.models import Ladder
    from ladder.matches.models import Match, MatchSeat

    call_command("migrate", verbosity=0)
    ladder = Ladder.objects.get(game="batavia", num_players=3)
    if Match.objects.filter(ladder=ladder, status="finished").count() >= matches:
        print(f"database already holds {matches} matches", flush=True)
        return
    print(f"seeding {bots} bots and {matches} matches ...", flush=True)
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    with transaction.atomic():
        Match.objects.all().delete()
        version_ids = seed_public_bots("bench", bots=bots, owners=100)
        strength = rng.normal(0, 1, bots)
        for start in range(0, matches, 10_000):
            count = min(10_000, matches - start)
            tables = np.stack([rng.choice(bots, 3, replace=False) for _ in range(count)])
            noisy = strength[tables] + rng.gumbel(size=tables.shape)
            places = np.argsort(np.argsort(-noisy, axis=1), axis=1) + 1
            rows = Match.objects.bulk_create(
                (
                    Match(
                        ladder=ladder,
                        game="batavia",
                        variant=ladder.variant,
                        seed=int(rng.integers(0, 2**62)),
                        status=Match.Status.FINISHED,
                        ranked=True,
                        rated=True,
                    )
                    for _ in places
                ),
                batch_size=5000,
            )
            MatchSeat.objects.bulk_create(
                (
                    MatchSeat(
                        match=m,
                        seat=s,
                        bot_version_id=version_ids[int(tables[i, s])],
                        score=float(10 - places[i, s]),
                        place=int(places[i, s]),
                    )
                    for i, m in enumerate(rows)
                    for s in range(3)
                ),
                batch_size=10_000,
            )
            print(f"  {start + count} matches", flush=True)
        Match.objects.filter(ladder=ladder).update(finished_at=time_now())
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # fresh planner statistics, as autovacuum would give
    print(f"seeded in {time.perf_counter() - started:.0f} s", flush=True)


def time_now() -> datetime:
    from django.utils import timezone

    return timezone.now()


def refit() -> None:
    from ladder.ladders.models import Ladder
    from ladder.ratings.services import refit_ladder

    ladder = Ladder.objects.get(game="batavia", num_players=3)
    for samples in (0, 20):
        fit = refit_ladder(ladder.pk, samples=samples)
        print(
            f"refit_ladder through the database: {fit.matches} matches, {fit.versions} "
            f"versions, {samples} bootstrap samples: {fit.seconds:.2f} s",
            flush=True,
        )


def start_gunicorn(workers: int, cache_seconds: int) -> subprocess.Popen:
    env = {**os.environ, **ENV, "MONSOON_API_CACHE_SECONDS": str(cache_seconds)}
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "ladder.wsgi",
            "-w",
            str(workers),
            "-b",
            f"127.0.0.1:{PORT}",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{PORT}/api/v1/ladders/", timeout=2)
            return process
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise SystemExit("gunicorn did not start")


def load(hey: str, url: str, seconds: int, rate: int, connections: int) -> dict[str, float]:
    per_connection = max(1, rate // connections)
    out = subprocess.run(
        [hey, "-z", f"{seconds}s", "-c", str(connections), "-q", str(per_connection), url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if rps is None:
        raise SystemExit(f"hey printed no Requests/sec line:\n{out}")
    figures = {"rps": float(rps.group(1))}
    for pct in ("50", "90", "99"):
        match = re.search(rf"{pct}% in ([\d.]+) secs", out)
        figures[f"p{pct}"] = float(match.group(1)) * 1000 if match else float("nan")
    codes = re.findall(r"\[(\d{3})\]\s+(\d+) responses", out)
    figures["non_200"] = sum(int(n) for code, n in codes if code != "200")
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--bots", type=int, default=1_000)
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--rate", type=int, default=200, help="requests per second")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--skip-refit", action="store_true")
    parser.add_argument(
        "--cache-seconds",
        type=int,
        default=2,
        help="list cache for the first round (the second runs without)",
    )
    args = parser.parse_args()
    os.environ.update(ENV)
    ensure_database(DB_NAME)
    import django

    django.setup()
    populate(args.matches, args.bots, seed=1)
    if not args.skip_refit:
        refit()
    from django.db import connection

    from ladder.bots.models import Bot
    from ladder.ladders.models import Ladder

    ladder = Ladder.objects.get(game="batavia", num_players=3)
    some_bot = Bot.objects.filter(name="bench-bot-7").values_list("pk", flat=True).first()
    connection.close()
    hey = ensure_hey()
    base = f"http://127.0.0.1:{PORT}/api/v1"
    endpoints = {
        "standings (first 100)": f"{base}/ladders/{ladder.pk}/standings/",
        "match list (50 newest)": f"{base}/matches/",
        "match list ?ladder&status": f"{base}/matches/?ladder={ladder.pk}&status=finished",
        "match list ?bot=": f"{base}/matches/?bot={some_bot}",
    }
    for cache_seconds in (args.cache_seconds, 0):
        server = start_gunicorn(args.workers, cache_seconds)
        try:
            print(
                f"\nhey: {args.rate} requests/s for {args.seconds} s per endpoint, gunicorn "
                f"{args.workers} sync workers, list cache {cache_seconds} s "
                f"(MONSOON_API_CACHE_SECONDS), 2-core machine shared with other work"
            )
            print(
                f"  {'endpoint':<28} {'req/s':>7} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} "
                f"{'non-200':>8}"
            )
            for name, url in endpoints.items():
                f = load(hey, url, args.seconds, args.rate, connections=8)
                verdict = "ok" if f["p99"] < 100 else "OVER TARGET"
                print(
                    f"  {name:<28} {f['rps']:>7.1f} {f['p50']:>8.1f} {f['p90']:>8.1f} "
                    f"{f['p99']:>8.1f} {f['non_200']:>8}  {verdict}",
                    flush=True,
                )
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
