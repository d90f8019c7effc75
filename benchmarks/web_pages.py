"""Web page render times: the standings page and its refresh fragment on a 1,000-bot ladder.

Fills a separate PostgreSQL database (``monsoon_bench_web``) with 1,000 public bots, their
ratings and 300 rating points each (300,000 points: the history a trend is read from), with bulk
inserts, then renders the pages in-process through Django's test client (the whole view, selector
and template path, no network) and prints the median and worst of a few runs.  Also times the
replay frames of a five-player Batavia game (the match page's one expensive step) cold and from
the cache.

Run: ``.venv/bin/python -m benchmarks.web_pages`` (PostgreSQL on 127.0.0.1:5432 with trust auth,
as ``scripts/ensure-services.sh`` sets up).
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.bench_db import ensure_database

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = "monsoon_bench_web"
ENV = {
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "SECRET_KEY": "benchmark-only-secret-key-0123456789abcdefghijklmnop",
    "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
    "DEBUG": "0",
    "DJANGO_SETTINGS_MODULE": "ladder.settings",
    "MEDIA_ROOT": str(ROOT / "test-artifacts" / "bench-media"),
    "STATIC_ROOT": str(ROOT / "test-artifacts" / "bench-static"),
}
BOTS = 1_000
POINTS = 300


def populate() -> None:
    import numpy as np
    from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX
    from django.core.management import call_command
    from django.db import connection, transaction

    from ladder.accounts.models import User
    from ladder.bots.models import Bot, BotVersion
    from ladder.ladders.models import Ladder
    from ladder.ratings.models import Rating, RatingPoint

    call_command("migrate", verbosity=0)
    ladder = Ladder.objects.get(game="batavia", num_players=3)
    if RatingPoint.objects.filter(ladder=ladder).count() >= BOTS * POINTS:
        return
    started = time.perf_counter()
    rng = np.random.default_rng(1)
    with transaction.atomic():
        RatingPoint.objects.all().delete()
        Rating.objects.all().delete()
        BotVersion.objects.all().delete()
        Bot.objects.all().delete()
        User.objects.filter(username__startswith="bench-").delete()
        owners = User.objects.bulk_create(
            User(username=f"bench-owner-{i}", password=UNUSABLE_PASSWORD_PREFIX) for i in range(100)
        )
        bots = Bot.objects.bulk_create(
            Bot(owner=owners[i % 100], name=f"bench-bot-{i}", game="batavia") for i in range(BOTS)
        )
        versions = BotVersion.objects.bulk_create(
            BotVersion(
                bot=b,
                number=1,
                artifact=f"bots/bench-{b.pk}.py",
                kind="py",
                sha256="0" * 64,
                size=100,
                command=["python3", "main.py"],
                status=BotVersion.Status.ACTIVE,
            )
            for b in bots
        )
        walks = 1500 + np.cumsum(rng.normal(0, 15, (BOTS, POINTS)), axis=1)
        Rating.objects.bulk_create(
            Rating(
                ladder=ladder,
                bot_version=v,
                mu=0,
                sd=0.3,
                rating=float(walks[i, -1]),
                low=float(walks[i, -1] - 80),
                high=float(walks[i, -1] + 80),
                games=POINTS,
                provisional=False,
            )
            for i, v in enumerate(versions)
        )
        for step in range(POINTS):
            RatingPoint.objects.bulk_create(
                (
                    RatingPoint(
                        ladder=ladder,
                        bot_version=v,
                        rating=float(walks[i, step]),
                        low=float(walks[i, step] - 80),
                        high=float(walks[i, step] + 80),
                        games=step + 1,
                    )
                    for i, v in enumerate(versions)
                ),
                batch_size=5000,
            )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(
        f"seeded {BOTS} bots x {POINTS} rating points in {time.perf_counter() - started:.0f} s",
        flush=True,
    )


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    os.environ.update(ENV)
    ensure_database(DB_NAME)
    import django

    django.setup()
    populate()
    from django.core.management import call_command

    call_command("collectstatic", "--noinput", verbosity=0)  # as a deployment does
    from django.core.cache import cache
    from django.test import Client

    from bots.builtin import get_policy
    from engine.match import play_match
    from ladder.ladders.models import Ladder
    from ladder.ratings.selectors import standings, trends
    from ladder.web.replay import build_replay

    client = Client()
    ladder = Ladder.objects.get(game="batavia", num_players=3)
    ids = [s.rating.bot_version_id for s in standings(ladder)]

    def page(url: str) -> Callable[[], None]:
        def get() -> None:
            response = client.get(url)
            if response.status_code != 200:  # a timed error page would be a false figure
                raise SystemExit(f"{url} answered {response.status_code}")

        return get

    print(
        f"{BOTS} bots, {BOTS * POINTS} rating points, in-process (no network), "
        "2-core machine shared with other work"
    )
    for name, fn in [
        ("trends() query, whole table", lambda: trends(ladder, ids)),
        ("standings page (1,000 rows)", page("/ladders/batavia/3/")),
        ("standings refresh fragment", page("/ladders/batavia/3/table/")),
    ]:
        median, worst = timed(fn, 7)
        print(f"  {name:<32} median {median:7.1f} ms   worst {worst:7.1f} ms", flush=True)
    _, log = play_match("batavia", 7, [get_policy("random", "batavia")] * 5)

    def frames() -> None:
        build_replay(log, seat_names=["s"] * 5, forfeits=[None] * 5, reveal_private=True)

    median, worst = timed(frames, 5)
    print(
        f"  {'replay frames, Batavia 5 players':<32} median {median:7.1f} ms   "
        f"worst {worst:7.1f} ms ({len(log['decisions'])} decisions)"
    )
    replay = build_replay(log, seat_names=["s"] * 5, forfeits=[None] * 5, reveal_private=True)
    cache.set("bench-replay", replay)
    median, worst = timed(lambda: cache.get("bench-replay"), 20)
    print(f"  {'same, from the cache':<32} median {median:7.1f} ms   worst {worst:7.1f} ms")


if __name__ == "__main__":
    main()
