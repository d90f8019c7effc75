"""Scale: a ladder of 10,000 active bots and 1,000,000 recorded matches in PostgreSQL.

Fills a database of its own (``monsoon_scale``) with 10,000 public bots of 1,000 owners and
1,000,000 finished ranked 3-player Batavia matches (places drawn from hidden strengths), then
measures, each figure printed beside its target:

- the database's size per recorded match (rows and indexes of matches and seats) and the size of a
  real game log stored zstd-compressed in object storage (logs are not in the database);
- matchmaking: building the candidate pool of 10,000 bots, and picking one table from it;
- the live rating update of one recorded result (the whole ``record_result`` transaction);
- the full refit over the whole history, without and with the bootstrap interval;
- standings and match-list latency (p50/p99) under 200 requests/s through gunicorn (``hey``).

The seed data goes in with PostgreSQL's COPY, not through the services (minutes instead of days);
everything measured afterwards goes through the real code.  The data is reused by the next run
(``--reseed`` starts again).  Run: ``.venv/bin/python -m benchmarks.scale`` (PostgreSQL on
127.0.0.1:5432 with trust auth, as ``scripts/ensure-services.sh`` sets up).
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import signal
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from django.db.backends.utils import CursorWrapper

from benchmarks import api_load
from benchmarks.bench_db import ensure_database, seed_public_bots

DB_NAME = "monsoon_scale"
SEAT_COUNT = 3


def row_line(values: list[Any]) -> str:
    """One line of COPY's text format (no value here contains a tab, newline or backslash)."""
    return "\t".join("\\N" if v is None else str(v) for v in values) + "\n"


def populate(matches: int, bots: int, seed: int, *, reseed: bool) -> None:
    """Seed users, bots and versions with the ORM, matches and seats with COPY (once)."""
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from ladder.accounts.models import User
    from ladder.bots.models import Bot, BotVersion
    from ladder.ladders.models import Ladder
    from ladder.matches.models import Match, MatchSeat
    from ladder.ratings.models import Rating, RatingFit, RatingPoint

    call_command("migrate", verbosity=0)
    ladder = Ladder.objects.get(game="batavia", num_players=SEAT_COUNT)
    held = Match.objects.filter(ladder=ladder, status="finished").count()
    if held >= matches and not reseed:
        print(f"database already holds {held:,} matches (--reseed to start again)", flush=True)
        return
    print(f"seeding {bots:,} bots and {matches:,} matches ...", flush=True)
    started = time.perf_counter()
    rng = np.random.default_rng(seed)
    now = timezone.now().isoformat()
    with transaction.atomic():
        for model in (RatingPoint, RatingFit, Rating, MatchSeat, Match, BotVersion, Bot):
            model.objects.all().delete()
        User.objects.filter(username__startswith="scale-owner-").delete()
        version_ids = np.array(seed_public_bots("scale", bots=bots, owners=bots // 10))
        strength = rng.normal(0, 1, bots)
        with connection.cursor() as cursor:
            cursor.execute("select coalesce(max(id), 0) from matches_match")
            first_match = cursor.fetchone()[0] + 1
            cursor.execute("select coalesce(max(id), 0) from matches_matchseat")
            first_seat = cursor.fetchone()[0] + 1
        for start in range(0, matches, 100_000):
            count = min(100_000, matches - start)
            tables = rng.integers(0, bots, (count, SEAT_COUNT))
            clash = (tables[:, 0] == tables[:, 1]) | (tables[:, 0] == tables[:, 2])
            clash |= tables[:, 1] == tables[:, 2]
            while clash.any():
                tables[clash] = rng.integers(0, bots, (int(clash.sum()), SEAT_COUNT))
                clash = (tables[:, 0] == tables[:, 1]) | (tables[:, 0] == tables[:, 2])
                clash |= tables[:, 1] == tables[:, 2]
            noisy = strength[tables] + rng.gumbel(size=tables.shape)
            places = np.argsort(np.argsort(-noisy, axis=1), axis=1) + 1
            match_text = io.StringIO()
            seat_text = io.StringIO()
            for i in range(count):
                match_id = first_match + start + i
                row = [int(p) for p in places[i]]
                match_text.write(
                    row_line(
                        [
                            match_id,
                            ladder.pk,
                            "batavia",
                            ladder.variant,
                            int(rng.integers(0, 2**62)),
                            "ladder",
                            "t",
                            "finished",
                            now,
                            now,
                            0,
                            "",
                            "",
                            "t",
                        ]
                    )
                )
                for s in range(SEAT_COUNT):
                    seat_text.write(
                        row_line(
                            [
                                first_seat + (start + i) * SEAT_COUNT + s,
                                match_id,
                                s,
                                int(version_ids[tables[i, s]]),
                                float(10 - row[s]),
                                row[s],
                                "",
                                "",
                            ]
                        )
                    )
            with connection.cursor() as cursor:
                copy_text(
                    cursor,
                    "copy matches_match (id, ladder_id, game, variant, seed, kind, ranked, "
                    "status, created_at, finished_at, attempts, worker, status_reason, rated) "
                    "from stdin",
                    match_text.getvalue(),
                )
                copy_text(
                    cursor,
                    "copy matches_matchseat (id, match_id, seat, bot_version_id, score, place, "
                    "forfeit_reason, stderr) from stdin",
                    seat_text.getvalue(),
                )
            print(f"  {start + count:,} matches", flush=True)
        with connection.cursor() as cursor:
            last_match = first_match + matches - 1
            last_seat = first_seat + matches * SEAT_COUNT - 1
            for table, last in (("matches_match", last_match), ("matches_matchseat", last_seat)):
                cursor.execute("select setval(pg_get_serial_sequence(%s, 'id'), %s)", [table, last])
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")  # fresh planner statistics, as autovacuum would give
    print(f"seeded in {time.perf_counter() - started:.0f} s", flush=True)


def copy_text(cursor: CursorWrapper, statement: str, text: str) -> None:
    with cursor.copy(statement) as copy:
        copy.write(text.encode())


def verdict(value: float, target: float) -> str:
    return "ok" if value <= target else "OVER TARGET"


def report(name: str, value: float, unit: str, target: float) -> None:
    print(
        f"  {name:<52} {value:>12,.2f} {unit:<6} target <= {target:,g} {unit:<6} "
        f"{verdict(value, target)}",
        flush=True,
    )


def timed(action: Callable[[], object], repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return times


def storage_figures(matches: int) -> None:
    """Bytes per match in PostgreSQL, and per game log in object storage (real logs, zstd)."""
    from django.db import connection

    from bots.builtin import get_policy
    from engine.match import play_match
    from ladder.matches import logstore

    with connection.cursor() as cursor:
        cursor.execute(
            "select pg_total_relation_size('matches_match'), "
            "pg_total_relation_size('matches_matchseat'), pg_database_size(current_database())"
        )
        match_bytes, seat_bytes, database = cursor.fetchone()
        # The matches held, not the number asked for: earlier runs' live updates added some.
        cursor.execute("select count(*) from matches_match")
        held = cursor.fetchone()[0]
    print(f"\nstorage ({held:,} matches held)", flush=True)
    report(
        "database: match + 3 seats, rows and indexes",
        (match_bytes + seat_bytes) / held,
        "B",
        1024,
    )
    print(f"  {'(whole database)':<52} {database / 2**30:>12,.2f} GiB", flush=True)
    sizes = []
    for game_seed in range(20):
        policies = [get_policy("random", "batavia") for _ in range(SEAT_COUNT)]
        _, log = play_match("batavia", game_seed, policies)
        raw = logstore.encode(log)
        packed = logstore.zstandard.ZstdCompressor(level=logstore.ZSTD_LEVEL).compress(raw)
        sizes.append((len(raw), len(packed)))
    raw_mean = statistics.mean(s[0] for s in sizes)
    packed_mean = statistics.mean(s[1] for s in sizes)
    report("object storage: one 3-player Batavia log, zstd", packed_mean, "B", 4096)
    print(
        f"  {'(the same log as JSON)':<52} {raw_mean:>12,.0f} B      "
        f"-> {matches * packed_mean / 2**30:,.2f} GiB for {matches:,} logs",
        flush=True,
    )


def matchmaking_figures() -> None:
    import random

    from ladder.ladders.models import Ladder
    from ladder.ratings import matchmaking

    ladder = Ladder.objects.get(game="batavia", num_players=SEAT_COUNT)
    pool: list[Any] = []

    def build() -> None:
        pool[:] = [matchmaking.Pool(matchmaking.candidates(ladder))]

    build_times = timed(build, 3)
    rng = random.Random(1)
    pick_times = timed(lambda: matchmaking.pick_table(ladder, pool[0], rng), 200)
    print(f"\nmatchmaking ({len(pool[0].candidates):,} candidate bots)", flush=True)
    report(
        "candidate pool for one ladder (median of 3)",
        statistics.median(build_times) * 1e3,
        "ms",
        2000,
    )
    report(
        "one table picked from the pool (median of 200)",
        statistics.median(pick_times) * 1e3,
        "ms",
        10,
    )


def live_update_figures(samples: int) -> None:
    from ladder.ladders.models import Ladder
    from ladder.lifecycle import flow
    from ladder.lifecycle.types import MatchResult
    from ladder.matches import services as match_services
    from ladder.matches.models import Match

    if samples <= 0:  # --live-samples 0: leave the seeded matches as they are
        return
    ladder = Ladder.objects.get(game="batavia", num_players=SEAT_COUNT)
    recent = list(
        Match.objects.filter(ladder=ladder, status="finished")
        .order_by("-id")
        .prefetch_related("seats__bot_version__bot")[:samples]
    )
    new = [
        match_services.create_match(
            ladder, [s.bot_version for s in m.seats.order_by("seat")], queue=False
        )
        for m in recent
    ]
    result = MatchResult(
        scores=(3, 2, 1), ranking=(1, 2, 3), forfeits=(None,) * 3, stderr=("",) * 3, log=None
    )
    times = []
    for match in new:
        started = time.perf_counter()
        flow.record_result(match_id=match.pk, result=result)
        times.append(time.perf_counter() - started)
    times.sort()
    print(
        f"\nlive rating update ({samples} results recorded through flow.record_result)", flush=True
    )
    report("one result recorded and rated (median)", statistics.median(times) * 1e3, "ms", 20)
    report(
        "one result recorded and rated (p99)", times[int(len(times) * 0.99) - 1] * 1e3, "ms", 100
    )


def refit_figures(bootstrap: int) -> None:
    from ladder.ladders.models import Ladder
    from ladder.ratings.services import refit_ladder

    ladder = Ladder.objects.get(game="batavia", num_players=SEAT_COUNT)
    print("\nfull refit over the whole history", flush=True)
    for samples, target in ((0, 120), (bootstrap, 600)):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        fit = refit_ladder(ladder.pk, samples=samples)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        report(
            f"refit, {samples} bootstrap samples ({fit.matches:,} matches, {fit.versions:,} bots)",
            fit.seconds,
            "s",
            target,
        )
        print(
            f"  {'(peak memory of the process)':<52} {max(peak, before) / 1024:>12,.0f} MiB",
            flush=True,
        )
    # A refit rewrites every rating row of the ladder; autovacuum re-analyses the table within a
    # minute (its threshold is 10% of rows changed), until then the planner misjudges standings.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE ratings_rating")


def http_figures(rate: int, seconds: int, workers: int) -> None:
    from django.db import connection

    from ladder.bots.models import Bot
    from ladder.ladders.models import Ladder

    ladder = Ladder.objects.get(game="batavia", num_players=SEAT_COUNT)
    some_bot = Bot.objects.filter(name="scale-bot-7").values_list("pk", flat=True).first()
    connection.close()
    hey = api_load.ensure_hey()
    base = f"http://127.0.0.1:{api_load.PORT}/api/v1"
    endpoints = {
        "standings (first page)": f"{base}/ladders/{ladder.pk}/standings/",
        "match list (newest)": f"{base}/matches/",
        "match list ?ladder&status": f"{base}/matches/?ladder={ladder.pk}&status=finished",
        "match list ?bot=": f"{base}/matches/?bot={some_bot}",
    }
    server = api_load.start_gunicorn(workers, cache_seconds=0)
    try:
        print(
            f"\nHTTP: {rate} requests/s for {seconds} s per endpoint, gunicorn {workers} sync "
            "workers, no list cache",
            flush=True,
        )
        for name, url in endpoints.items():
            f = api_load.load(hey, url, seconds, rate, connections=8)
            report(
                f"{name}: p99 ({f['rps']:.0f} req/s, p50 {f['p50']:.1f} ms, "
                f"{f['non_200']} non-200)",
                f["p99"],
                "ms",
                100,
            )
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bots", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--reseed", action="store_true")
    parser.add_argument("--bootstrap", type=int, default=20, help="bootstrap samples in a refit")
    parser.add_argument("--live-samples", type=int, default=200)
    parser.add_argument("--rate", type=int, default=200, help="requests per second")
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--skip-http", action="store_true")
    parser.add_argument("--skip-refit", action="store_true")
    parser.add_argument("--seed-only", action="store_true", help="fill the database and stop")
    parser.add_argument(
        "--database",
        default=DB_NAME,
        help="database name, so runs from different checkouts keep their own data",
    )
    args = parser.parse_args()
    database_url = f"postgres://postgres@127.0.0.1:5432/{args.database}"
    api_load.ENV["DATABASE_URL"] = database_url
    os.environ.update(api_load.ENV)
    ensure_database(args.database)
    import django

    django.setup()
    populate(args.matches, args.bots, seed=1, reseed=args.reseed)
    if args.seed_only:
        return
    print("\nMonsoon at scale: figures from this run on this machine (2 cores, shared)")
    storage_figures(args.matches)
    if not args.skip_refit:
        refit_figures(args.bootstrap)
    matchmaking_figures()
    live_update_figures(args.live_samples)
    if not args.skip_http:
        http_figures(args.rate, args.seconds, args.workers)


if __name__ == "__main__":
    main()
