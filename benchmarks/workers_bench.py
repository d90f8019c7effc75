"""Matches per minute through Celery + Redis against a local process pool; queue latency.

The same seeded 4-player Batavia matches between the reference ``random`` bot, uploaded as
real bot versions, every seat in bubblewrap, are played by:

1. a local ``multiprocessing`` pool of two processes calling ``workers.matches.job.play``
   (no broker, no database: the ceiling for this machine), once;
2. the same pool doing a worker's whole job without the broker: claim, play, record and
   rate through ``ladder.matches.services`` (the same work the Celery task does);
3. one Celery worker with two pool processes on Redis, every match queued at once, timed
   from the first ``queued_at`` to the last ``finished_at`` (claiming, reading the spec, lease
   renewal, artifact cache, recording and rating included).

After four untimed matches through the worker (its processes' first matches import the task's
modules and unpack the artifact, as the pool's did in 1), 2 and 3 alternate for ``--rounds``
rounds (the one first in a round goes second in the next), so that the load of a shared machine
weighs on both alike; the ratio Celery / local whole job of each round is printed, and their
median against the target (>= 0.9). Each round prints a calibration loop (fixed pure-Python
work) and the load average beside its figures, and how many database connections ended during
its Celery run (a worker process that reconnected for every match showed here). The spec read
of one match is timed in this process first.

Then the queue latency (``queued`` to ``running``) twice: for the matches of the full queue
above, and for matches sent one at a time to an idle worker (the broker's own delay).

    scripts/ensure-services.sh >/dev/null && .venv/bin/python -m benchmarks.workers_bench

Uses the PostgreSQL database ``monsoon_bench`` (dropped and created) and Redis database 14;
``MONSOON_BENCH_DB`` and ``MONSOON_BENCH_REDIS_DB`` choose others (two engineers benchmarking on
one machine must not drop each other's database).
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ladder.lifecycle.types import MatchSpec

ROOT = Path(__file__).resolve().parents[1]
DB_NAME = os.environ.get("MONSOON_BENCH_DB", "monsoon_bench")
BROKER = f"redis://127.0.0.1:6379/{int(os.environ.get('MONSOON_BENCH_REDIS_DB', '14'))}"
GAME, PLAYERS = "batavia", 4
WORK = Path(tempfile.mkdtemp(prefix="monsoon-bench-"))
os.environ.update(
    {
        "DJANGO_SETTINGS_MODULE": "ladder.settings",
        "DEBUG": "1",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
        "CELERY_BROKER_URL": BROKER,
        "MONSOON_QUEUE_TARGET": "0",
        "MEDIA_ROOT": str(WORK / "media"),
        "MONSOON_ARTIFACT_CACHE": str(WORK / "cache"),
    }
)


def _fresh_database() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")


def _seed_versions() -> list:
    from ladder.accounts.services import create_user
    from ladder.bots import services as bots
    from ladder.ladders.models import Ladder

    Ladder.objects.update(schedule_enabled=False)
    owner = create_user("bench")  # owns the bots only: never logs in
    source = (ROOT / "bots" / "reference" / "random" / "main.py").read_bytes()
    versions = []
    for i in range(PLAYERS):
        bot = bots.create_bot(owner, name=f"random-{i}", game=GAME)
        version = bots.upload_version(bot, user=owner, filename="main.py", data=source)
        versions.append(
            bots.validate_version(
                version.pk, validator=lambda _artifact: bots.ValidationOutcome(True)
            )
        )
    return versions


def _new_matches(versions: list, count: int) -> list[int]:
    """Matches waiting as ``new`` (not sent anywhere), seeds 0..count-1."""
    from ladder.ladders.models import Ladder
    from ladder.matches.services import create_match

    ladder = Ladder.objects.get(game=GAME, num_players=PLAYERS)
    return [create_match(ladder, versions, seed=seed, queue=False).pk for seed in range(count)]


_pool_state: dict = {}


def _pool_init(artifacts: dict[int, bytes]) -> None:
    from workers.artifact_cache import ArtifactCache
    from workers.sandbox import BwrapLauncher

    _pool_state.update(
        artifacts=artifacts,
        launcher=BwrapLauncher(),
        # One cache for the pool's processes and its rounds, as a worker's is for its own.
        cache=ArtifactCache(WORK / "pool-cache"),
    )


def _pool_play(job: tuple[MatchSpec, bool]) -> None:
    from workers.matches import job as match_job

    spec, record = job
    if record:
        from django.utils import timezone

        from ladder.matches.models import Match
        from ladder.matches.services import claim_match

        # new -> queued without the broker hook: this pool is the queue.
        Match.objects.filter(pk=spec.match_id).update(status="queued", queued_at=timezone.now())
        claim_match(spec.match_id, worker=f"pool/{os.getpid()}")
    outcome = match_job.play(
        spec,
        launcher=_pool_state["launcher"],
        cache=_pool_state["cache"],
        fetch=_pool_state["artifacts"].__getitem__,
    )
    if record:
        from ladder.lifecycle import flow
        from workers.matches.tasks import result_of

        flow.record_result(match_id=spec.match_id, result=result_of(outcome))


def _local_pool(match_ids: list[int], *, record: bool) -> float:
    from django.db import connections

    from ladder.bots.selectors import artifact_bytes
    from ladder.lifecycle import flow

    specs = [flow.spec(match_id=match_id) for match_id in match_ids]
    artifacts = {seat.version_id: artifact_bytes(seat.version_id) for seat in specs[0].seats}
    connections.close_all()  # each pool process opens its own
    began = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(2, _pool_init, (artifacts,)) as pool:
        pool.map(_pool_play, [(spec, record) for spec in specs], chunksize=1)
    return time.perf_counter() - began


def _start_worker() -> subprocess.Popen[bytes]:
    from ladder.fleet.models import WorkerNode

    log = open(WORK / "worker.log", "wb")  # noqa: SIM115 (the worker owns it)
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).with_name("celery")),
            "-A",
            "workers.celery_app",
            "worker",
            "-Q",
            "matches,validation,default",
            "-c",
            "2",
            "-n",
            "bench@%h",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 60
    while not WorkerNode.objects.filter(name__startswith="bench@").exists():
        if time.monotonic() > deadline or proc.poll() is not None:
            raise SystemExit(f"the worker did not start; see {WORK / 'worker.log'}")
        time.sleep(0.2)
    return proc


def _wait_finished(match_ids: list[int], timeout: float = 1800) -> None:
    from ladder.matches.models import Match

    deadline = time.monotonic() + timeout
    while Match.objects.filter(pk__in=match_ids).exclude(status="finished").exists():
        if time.monotonic() > deadline:
            raise SystemExit("matches did not finish in time")
        time.sleep(0.1)


def _elapsed_ms(start: datetime | None, end: datetime | None) -> float:
    """Milliseconds between two timestamps of a finished match (both are set by then)."""
    if start is None or end is None:
        raise SystemExit("a finished match is missing a timestamp")
    return (end - start).total_seconds() * 1000


def _latencies(match_ids: list[int]) -> list[float]:
    from ladder.matches.models import Match

    return [_elapsed_ms(m.queued_at, m.started_at) for m in Match.objects.filter(pk__in=match_ids)]


def _through_celery(match_ids: list[int]) -> tuple[float, list[float]]:
    from django.db.models import Max, Min

    from ladder.matches.models import Match
    from ladder.matches.services import enqueue_match

    for match_id in match_ids:
        enqueue_match(match_id)
    _wait_finished(match_ids)
    span = Match.objects.filter(pk__in=match_ids).aggregate(
        a=Min("queued_at"), b=Max("finished_at")
    )
    return _elapsed_ms(span["a"], span["b"]) / 1000, _latencies(match_ids)


def _idle_latency(count: int) -> list[float]:
    from ladder.ladders.models import Ladder
    from ladder.matches.models import Match
    from ladder.matches.services import create_match, enqueue_match

    template = Match.objects.order_by("pk").first()
    if template is None:
        raise SystemExit("no match to copy the seats of: run the throughput part first")
    versions = [seat.bot_version for seat in template.seats.order_by("seat")]
    ladder = Ladder.objects.get(game=GAME, num_players=PLAYERS)
    ids = []
    for seed in range(count):
        match = create_match(ladder, versions, seed=10_000 + seed, queue=False)
        enqueue_match(match.pk)
        _wait_finished([match.pk])
        ids.append(match.pk)
    return _latencies(ids)


def _per_match(match_ids: list[int]) -> str:
    """Median claim-to-recorded time of a match, and median idle gap between two consecutive
    matches of one process (its previous result recorded to its next claim)."""
    from ladder.matches.models import Match

    rows = sorted(
        Match.objects.filter(pk__in=match_ids).values_list("worker", "started_at", "finished_at")
    )
    runs = [_elapsed_ms(start, done) for _w, start, done in rows]
    gaps = [
        _elapsed_ms(before[2], start)
        for before, (worker, start, _done) in itertools.pairwise(rows)
        if before[0] == worker
    ]
    return (
        f"claim to recorded median {statistics.median(runs):.0f} ms, gap between a "
        f"process's matches median {statistics.median(gaps):.0f} ms"
    )


def _sessions() -> int:
    """Connections to the benchmark's database that have ended so far (PostgreSQL's count)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        row = cursor.fetchone()
    return int(row[0]) if row else 0


def _spec_read(match_ids: list[int]) -> str:
    """Median time of ``flow.spec`` (what the task reads after each claim), in this process."""
    from ladder.lifecycle import flow

    medians = []
    for _ in range(3):  # the best of three passes: a busy machine's pauses fall in one
        times = []
        for match_id in match_ids:
            began = time.perf_counter()
            flow.spec(match_id=match_id)
            times.append((time.perf_counter() - began) * 1000)
        medians.append(statistics.median(times))
    return f"spec read (flow.spec) median {min(medians):.1f} ms (best of 3 passes)"


def _describe(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"median {statistics.median(ordered):.1f} ms, p90 {p90:.1f} ms, max {ordered[-1]:.1f} ms"


def _conditions() -> str:
    from benchmarks.forfeit_under_load import calibration_ms

    return f"calibration loop {calibration_ms():5.1f} ms, load {os.getloadavg()[0]:4.1f}"


def _rate(count: int, seconds: float) -> str:
    return f"{seconds:6.1f} s  {count / seconds * 60:6.1f} matches/min"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3, help="local / Celery rounds, alternated")
    parser.add_argument("--idle", type=int, default=10, help="matches for the idle latency")
    args = parser.parse_args()
    from workers.sandbox import sandbox_problem

    if problem := sandbox_problem():
        raise SystemExit(f"no sandbox: {problem}")
    _fresh_database()
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(BROKER).flushdb()
    versions = _seed_versions()
    play_ids = _new_matches(versions, args.matches)
    warmup_ids = _new_matches(versions, 4)
    rounds = [
        (_new_matches(versions, args.matches), _new_matches(versions, args.matches))
        for _ in range(args.rounds)
    ]
    print(
        f"{args.matches} matches of {PLAYERS}-player {GAME}, reference random bots, "
        f"bubblewrap, 2 processes each way; {os.cpu_count()} cores; {_conditions()}"
    )
    print(_spec_read(play_ids))
    play_s = _local_pool(play_ids, record=False)
    print(f"local pool, play only     : {_rate(args.matches, play_s)}")

    worker = _start_worker()
    try:
        # Untimed: each worker process's first match imports the task's modules and unpacks the
        # artifact into the worker's cache (the pool did both above, in play only).
        _through_celery(warmup_ids)
        ratios = []
        for number, (job_ids, celery_ids) in enumerate(rounds, 1):
            times: dict[str, float] = {}
            order = ("local", "celery") if number % 2 else ("celery", "local")
            for way in order:
                if way == "local":
                    times[way] = _local_pool(job_ids, record=True)
                else:
                    before = _sessions()
                    times[way], queued_latency = _through_celery(celery_ids)
                    time.sleep(1)  # the last connections' ends reach the statistics
                    opened = _sessions() - before
            ratios.append(times["local"] / times["celery"])
            print(f"round {number} ({' first, '.join(order)} second; {_conditions()})")
            print(f"  local pool, whole job   : {_rate(args.matches, times['local'])}")
            print(f"  celery + redis          : {_rate(args.matches, times['celery'])}")
            print(f"  ratio celery / local whole job: {ratios[-1]:.2f}")
            print(f"  per match, local whole job: {_per_match(job_ids)}")
            print(f"  per match, celery + redis : {_per_match(celery_ids)}")
            print(f"  database connections ended during the celery run: {opened}")
        ratio = statistics.median(ratios)
        verdict = "met" if ratio >= 0.9 else "MISSED"
        print(
            f"ratio celery / local whole job, median of {len(ratios)}: {ratio:.2f} "
            f"(target >= 0.9: {verdict}); rounds: {', '.join(f'{r:.2f}' for r in ratios)}"
        )
        print(
            f"queue latency, all {args.matches} queued at once (last round): "
            f"{_describe(queued_latency)}"
        )
        print(
            f"queue latency, idle worker ({args.idle} one at a time): "
            f"{_describe(_idle_latency(args.idle))}"
        )
        print(f"at the end: {_conditions()}")
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
        shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
