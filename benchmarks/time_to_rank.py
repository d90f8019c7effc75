"""Time to a trustworthy rank: from a new version's upload to a rank its author can believe.

Starts the stack a deployment runs (gunicorn for the API, one Celery worker with two slots,
``celery beat`` with the ladder's own schedule: matchmaker, reaper, refit) on PostgreSQL and
Redis, with a throwaway database.  A ladder of graded bots (a greedy bot that plays a random
legal action with probability ``epsilon``: 0.0, 0.05, ... 0.95) is uploaded and validated by the
worker, warmed up until each has played some ranked games and refit; then a new version of known
strength (``--epsilon``, between two ladder bots) is uploaded through the REST API with a token,
as its author would, and the run watches the standings until it has played ``--final-games``
games.  It prints the minutes from the upload to

- validation (the worker's sandboxed smoke match made it ``active``);
- its first ranked match (started, and finished);
- its rank interval being within +-1 rank of its final rank (first, and for good), the rank
  interval being the ranks its 95% interval spans among the other bots' means
  (``benchmarks/rank_interval.py``), the final rank its place when the run ends;

and where the time went from validation to that moment: matches being played, results being
rated, matches waiting in the queue, and no match of it anywhere (waiting for the matchmaker's
next run).  Every figure is printed beside a calibration loop timed in the same run and the
target (<= 2 minutes to the interval on one 2-slot worker).

    .venv/bin/python -m benchmarks.time_to_rank --quick   # a few minutes
    .venv/bin/python -m benchmarks.time_to_rank           # the full run

The game is East Indiaman at two seats: its greedy matches are the fastest of the four games (77
decisions and two sandboxes a match, against 107 for Packet Row, 162 for Borneo and 215 for
Batavia at their smallest tables, measured in-process).  Uses the PostgreSQL database
``monsoon_ttr`` (dropped and created) and Redis databases 11 (broker) and 12 (cache);
``MONSOON_BENCH_DB`` and ``MONSOON_BENCH_REDIS_DB`` choose others.
"""

from __future__ import annotations

import argparse
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

import requests

from benchmarks.rank_interval import (
    Shown,
    Snapshot,
    Span,
    breakdown,
    convergence,
    rank_interval,
    rank_of,
)

ROOT = Path(__file__).resolve().parents[1]
DB_NAME = os.environ.get("MONSOON_BENCH_DB", "monsoon_ttr")
REDIS_DB = int(os.environ.get("MONSOON_BENCH_REDIS_DB", "11"))
PORT = int(os.environ.get("MONSOON_BENCH_PORT", "8771"))
BASE = f"http://127.0.0.1:{PORT}"
GAME, PLAYERS = "east_indiaman", 2
TARGET_MINUTES = 2.0
AUTHOR, PASSWORD = "author", "time-to-rank-author-password"
WORK = Path(tempfile.mkdtemp(prefix="monsoon-ttr-"))
ENV = {
    "DJANGO_SETTINGS_MODULE": "ladder.settings",
    "DEBUG": "0",
    "SECRET_KEY": "benchmark-only-secret-key-0123456789abcdefghijklmnop",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "CELERY_BROKER_URL": f"redis://127.0.0.1:6379/{REDIS_DB}",
    "CACHE_URL": f"redis://127.0.0.1:6379/{REDIS_DB + 1}",
    "MEDIA_ROOT": str(WORK / "media"),
    "MONSOON_ARTIFACT_CACHE": str(WORK / "artifact-cache"),
    "PYTHONUNBUFFERED": "1",
}
os.environ.update(ENV)

BOT_SOURCE = '''"""Greedy, except that it plays a random legal action with probability {epsilon}."""

import random

from bots.builtin import get_policy, random_policy
from bots.sdk import run
from engine.rng import Rng

EPSILON = {epsilon}


class GradedBot:
    def setup(self, start):
        self.greedy = get_policy("greedy", start["game"])
        self.rng = Rng.derive(random.getrandbits(62), "graded", start["game"], start["seat"])
        self.coin = random.Random()

    def act(self, observation, legal_actions):
        if self.coin.random() < EPSILON:
            return random_policy(observation, legal_actions, self.rng)
        return self.greedy(observation, legal_actions, self.rng)


if __name__ == "__main__":
    run(GradedBot)
'''


def bot_source(epsilon: float) -> bytes:
    return BOT_SOURCE.format(epsilon=repr(round(epsilon, 4))).encode()


def calibration_ms() -> float:
    """A fixed pure-Python loop: how fast this machine runs Python right now."""
    started = time.perf_counter()
    total = 0
    for i in range(2_000_000):
        total += i * i % 7
    return (time.perf_counter() - started) * 1000


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


# --- the stack ------------------------------------------------------------------------------


def fresh_database() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")


class Stack:
    """The deployment's processes (web, worker, beat), each in its own session."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(self, name: str, argv: list[str]) -> None:
        log = open(WORK / f"{name}.log", "wb")  # noqa: SIM115 (the process owns it)
        self.procs[name] = subprocess.Popen(
            argv, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
        log.close()

    def check(self) -> None:
        for name, proc in self.procs.items():
            if proc.poll() is not None:
                raise SystemExit(f"{name} exited ({proc.returncode}); see {WORK / name}.log")

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def start_stack(stack: Stack) -> None:
    from ladder.fleet.models import WorkerNode

    bin_dir = Path(sys.executable).parent
    stack.start("web", [str(bin_dir / "gunicorn"), "ladder.wsgi", "-w", "2", "-b",
                        f"127.0.0.1:{PORT}", "--log-level", "warning"])  # fmt: skip
    stack.start("worker", [str(bin_dir / "celery"), "-A", "workers.celery_app", "worker",
                           "-Q", "matches,validation,default", "-c", "2", "-n", "ttr@%h",
                           "-l", "warning"])  # fmt: skip
    deadline = time.monotonic() + 90
    while not WorkerNode.objects.filter(name__startswith="ttr@", stopped_at__isnull=True).exists():
        stack.check()
        if time.monotonic() > deadline:
            raise SystemExit(f"the worker did not report for duty; see {WORK / 'worker.log'}")
        time.sleep(0.2)
    while True:
        stack.check()
        try:
            requests.get(f"{BASE}/api/v1/games/", timeout=2)
            break
        except requests.RequestException:
            if time.monotonic() > deadline:
                raise SystemExit(f"gunicorn did not answer; see {WORK / 'web.log'}") from None
            time.sleep(0.3)


def start_beat(stack: Stack) -> None:
    celery = str(Path(sys.executable).with_name("celery"))
    stack.start("beat", [celery, "-A", "workers.celery_app", "beat", "-l", "warning",
                         "-s", str(WORK / "celerybeat-schedule")])  # fmt: skip


# --- the ladder -----------------------------------------------------------------------------


def ladder_bots(count: int) -> list[tuple[int, float]]:
    """``count`` graded bots, each of its own owner (as on a real ladder), uploaded through the
    services and sent to the worker for validation; (version id, epsilon) each."""
    from ladder.accounts.services import create_user
    from ladder.bots import services as bots

    out = []
    for i in range(count):
        epsilon = round(i / count, 4)
        owner = create_user(f"keeper-{i:02d}")
        bot = bots.create_bot(owner, name=f"greedy-eps-{i:02d}", game=GAME)
        version = bots.upload_version(bot, user=owner, filename="main.py", data=bot_source(epsilon))
        out.append((version.pk, epsilon))
    return out


def wait_active(version_ids: list[int], stack: Stack, timeout: float) -> None:
    from ladder.bots.models import BotVersion

    deadline = time.monotonic() + timeout
    while True:
        states = dict(BotVersion.objects.filter(pk__in=version_ids).values_list("pk", "status"))
        if all(s == "active" for s in states.values()):
            return
        bad = {pk: s for pk, s in states.items() if s == "rejected"}
        if bad:
            reasons = BotVersion.objects.filter(pk__in=bad).values_list("failure_reason", flat=True)
            raise SystemExit(f"versions rejected: {list(reasons)[:2]}")
        stack.check()
        if time.monotonic() > deadline:
            raise SystemExit(f"validation did not finish; see {WORK / 'worker.log'}")
        time.sleep(0.3)


def warm_up(games: int, stack: Stack) -> tuple[int, float]:
    """Ranked matches until every ladder bot has ``games``, scheduled by the matchmaker's own
    ``fill_queue`` (four waiting, as fast as the worker plays them, beside the beat's runs),
    then a refit (the queue is left as it is: the new version arrives on a ladder at work);
    returns the matches played and the median seconds a match took."""
    from django.db.models import F, Min

    from ladder.matches.models import Match
    from ladder.ratings.matchmaking import fill_queue
    from ladder.ratings.models import Rating
    from ladder.ratings.services import refit_all_ladders

    while True:
        stack.check()
        fewest = Rating.objects.aggregate(m=Min("games"))["m"]
        if fewest is not None and fewest >= games:
            break
        fill_queue(capacity=4)
        time.sleep(0.2)
    refit_all_ladders()  # the beat keeps the ladder playing meanwhile, as it runs in production
    played = Match.objects.filter(status="finished")
    durations = [
        d.total_seconds()
        for d in played.annotate(d=F("finished_at") - F("started_at")).values_list("d", flat=True)
    ]
    return played.count(), statistics.median(durations)


def configure_ladders() -> None:
    """Only the benchmark's ladder is scheduled (a bot plays every enabled ladder of its game)."""
    from ladder.ladders.models import Ladder

    Ladder.objects.update(schedule_enabled=False)
    Ladder.objects.filter(game=GAME, num_players=PLAYERS).update(schedule_enabled=True)


# --- the new version ------------------------------------------------------------------------


def upload_through_api(epsilon: float) -> tuple[int, float, datetime]:
    """Log in for a token, create a bot and upload its version over HTTP; (version id, the
    monotonic and the wall-clock time the upload request was sent)."""
    from django.utils import timezone

    session = requests.Session()
    answer = session.post(
        f"{BASE}/api/v1/auth/token/", data={"username": AUTHOR, "password": PASSWORD}, timeout=30
    )
    answer.raise_for_status()
    session.headers["Authorization"] = f"Token {answer.json()['token']}"
    created = session.post(f"{BASE}/api/v1/bots/", json={"name": "newcomer", "game": GAME})
    created.raise_for_status()
    wall, sent = timezone.now(), time.monotonic()
    uploaded = session.post(
        f"{BASE}/api/v1/bots/{created.json()['id']}/upload/",
        files={"artifact": ("main.py", bot_source(epsilon))},
        timeout=60,
    )
    if uploaded.status_code != 201:
        raise SystemExit(f"upload refused: {uploaded.status_code} {uploaded.text[:300]}")
    return int(uploaded.json()["id"]), sent, wall


def standings_rows() -> dict[int, Shown]:
    from ladder.ladders.models import Ladder
    from ladder.ratings.selectors import standings_rows as rows

    ladder = Ladder.objects.get(game=GAME, num_players=PLAYERS)
    return {
        r["version"]: Shown(rating=r["rating"], low=r["low"], high=r["high"], games=r["games"])
        for r in rows(ladder)
    }


def watch(version_id: int, final_games: int, cap_s: float, stack: Stack, sent: float) -> dict:
    """Poll the standings (as the author refreshing the page would) until the version has
    ``final_games`` or ``cap_s`` passed; the snapshots and when it became active."""
    from ladder.bots.models import BotVersion

    snapshots: list[Snapshot] = []
    active_at: float | None = None
    while True:
        now = time.monotonic() - sent
        stack.check()
        if active_at is None:
            if BotVersion.objects.filter(pk=version_id, status="active").exists():
                active_at = now
            elif BotVersion.objects.filter(pk=version_id, status="rejected").exists():
                raise SystemExit("the new version was rejected")
        rows = standings_rows()
        snapshots.append(Snapshot(seconds=now, rows=rows))
        games = rows[version_id].games if version_id in rows else 0
        if games >= final_games or now > cap_s:
            return {"snapshots": snapshots, "active_at": active_at, "capped": now > cap_s}
        time.sleep(0.25)


def spans_of(version_id: int, upload_wall: datetime) -> list[Span]:
    from ladder.matches.models import Match
    from ladder.ratings.models import RatingPoint

    def rel(when: datetime | None) -> float | None:
        return None if when is None else (when - upload_wall).total_seconds()

    rated = dict(
        RatingPoint.objects.filter(bot_version_id=version_id, match__isnull=False).values_list(
            "match_id", "created_at"
        )
    )
    out = []
    for m in Match.objects.filter(seats__bot_version_id=version_id, ranked=True).order_by("pk"):
        out.append(
            Span(
                created=(m.created_at - upload_wall).total_seconds(),
                queued=rel(m.queued_at),
                started=rel(m.started_at),
                finished=rel(m.finished_at),
                rated=rel(rated.get(m.pk)),
            )
        )
    return out


# --- the report -----------------------------------------------------------------------------


def minutes(seconds: float | None) -> str:
    return "never" if seconds is None else f"{seconds / 60:6.2f} min ({seconds:6.1f} s)"


def report(version_id: int, watched: dict, spans: list[Span], calibration: float) -> None:
    from ladder.ratings.models import RatingFit

    snapshots: list[Snapshot] = watched["snapshots"]
    last = snapshots[-1].rows
    final_rank = rank_of(version_id, last)
    conv = convergence(version_id, snapshots, final_rank)
    started = [s.started for s in spans if s.started is not None]
    finished = [s.finished for s in spans if s.finished is not None]
    active_at = watched["active_at"]
    verdict = "ok" if conv.settled is not None and conv.settled <= TARGET_MINUTES * 60 else "MISSED"
    print(f"\ncalibration loop: {calibration:.0f} ms; load average {load_average()}")
    print(f"from upload (POST .../upload/) to       {'':8}  (target <= {TARGET_MINUTES:g} min)")
    print(f"  validation (version active)          {minutes(active_at)}")
    print(f"  first ranked match started           {minutes(min(started) if started else None)}")
    print(f"  first ranked match finished          {minutes(min(finished) if finished else None)}")
    print(f"  rank interval first within +-1       {minutes(conv.first_within)}")
    print(f"  rank interval within +-1 for good    {minutes(conv.settled)}  {verdict}")
    me = last[version_id]
    best, worst = rank_interval(version_id, last)
    print(
        f"final: rank {final_rank} of {len(last)} after {me.games} games "
        f"({me.rating:.0f} Elo, 95% {me.low:.0f}..{me.high:.0f}, ranks {best}..{worst}); "
        f"games when settled: {conv.games_at_settled}"
        + ("; the run hit its time cap" if watched["capped"] else "")
    )
    if active_at is not None:
        end = conv.settled if conv.settled is not None else snapshots[-1].seconds
        what = "a trustworthy rank" if conv.settled is not None else "the end of the run"
        b = breakdown(spans, active_at, end)
        played = [
            (s.started, s.finished, s.rated)
            for s in spans
            if s.started is not None and s.finished is not None and s.finished <= end
        ]
        print(f"where the {end:.1f} s to {what} went:")
        for name, seconds in (
            ("validation (upload to active)", active_at),
            ("matchmaker (no match of it queued)", b.matchmaker),
            ("queue (its match waiting for a slot)", b.queued),
            ("matches (its match being played)", b.playing),
            ("rating (result recorded, not rated)", b.rating),
        ):
            print(f"  {name:<40} {seconds:7.1f} s  {100 * seconds / end:5.1f}%")
        if played:
            per_match = statistics.median(done - start for start, done, _ in played)
            rated = [r - done for _, done, r in played if r is not None]
            print(
                f"  {len(played)} matches of it by then: median {per_match:.2f} s each from "
                f"claim to result; result to rating median "
                f"{1000 * statistics.median(rated) if rated else float('nan'):.1f} ms"
            )
    from ladder.matches.models import Match

    window = Match.objects.filter(
        status=Match.Status.FINISHED, ranked=True, started_at__gte=watched["upload_wall"]
    )
    total = window.count()
    seconds = snapshots[-1].seconds
    print(
        f"the worker finished {total} ranked matches from upload to end "
        f"({60 * total / seconds:.0f} a minute), {len(finished)} of them seating the new version"
    )
    fits = RatingFit.objects.count()
    print(f"history-wide refits during the whole run (beat, every MONSOON_REFIT_SECONDS): {fits}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games: a few minutes")
    parser.add_argument("--bots", type=int, default=20)
    parser.add_argument("--epsilon", type=float, default=0.775, help="the new version's")
    parser.add_argument("--warmup-games", type=int, help="each ladder bot's games before")
    parser.add_argument("--final-games", type=int, help="the new version's games at the end")
    parser.add_argument("--cap-minutes", type=float, help="stop watching after this long")
    parser.add_argument("--keep-logs", action="store_true", help="keep the processes' logs")
    args = parser.parse_args()
    warmup = args.warmup_games or (12 if args.quick else 30)
    final = args.final_games or (80 if args.quick else 200)
    cap = 60 * (args.cap_minutes or (6 if args.quick else 12))
    from workers.sandbox import sandbox_problem

    if problem := sandbox_problem():
        raise SystemExit(f"no sandbox: {problem}")
    fresh_database()
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(ENV["CELERY_BROKER_URL"]).flushdb()
    configure_ladders()
    from ladder.accounts.services import create_user

    create_user(AUTHOR, password=PASSWORD)
    calibration = [calibration_ms()]
    print(
        f"time to rank: {args.bots} graded greedy bots, {PLAYERS}-player {GAME}, one worker "
        f"-c 2, matchmaker every {settings.MONSOON_MATCHMAKE_SECONDS} s to at least "
        f"{settings.MONSOON_QUEUE_TARGET} waiting; {os.cpu_count()} cores, load average "
        f"{load_average()}; logs in {WORK}",
        flush=True,
    )
    stack = Stack({**os.environ, **ENV})
    try:
        start_stack(stack)
        start_beat(stack)  # the reaper sends again what the broker lost, as in a deployment
        versions = ladder_bots(args.bots)
        began = time.monotonic()
        wait_active([v for v, _ in versions], stack, timeout=600)
        print(f"{args.bots} ladder versions validated by the worker in "
              f"{time.monotonic() - began:.1f} s", flush=True)  # fmt: skip
        began = time.monotonic()
        played, median_s = warm_up(warmup, stack)
        print(
            f"warm-up: {played} ranked matches ({warmup}+ games each) in "
            f"{time.monotonic() - began:.0f} s, median {median_s:.2f} s a match; refit",
            flush=True,
        )
        time.sleep(3)  # from now on only the beat's matchmaker schedules: the ladder as it runs
        version_id, sent, upload_wall = upload_through_api(args.epsilon)
        print(f"new version {version_id} (epsilon {args.epsilon}) uploaded through the API; "
              f"watching until {final} games or {cap / 60:.0f} min", flush=True)  # fmt: skip
        watched = watch(version_id, final, cap, stack, sent)
        watched["upload_wall"] = upload_wall
        spans = spans_of(version_id, upload_wall)
        calibration.append(calibration_ms())
        report(version_id, watched, spans, statistics.mean(calibration))
    finally:
        stack.stop()
        if not args.keep_logs:
            shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
