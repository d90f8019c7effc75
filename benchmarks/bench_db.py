"""The benchmarks' own PostgreSQL databases, kept apart from the test and demo databases.

A benchmark seeds 100,000 rows once and reuses them on the next run, so it needs its database
to exist before Django connects; this creates it through psycopg (no ``psql`` client needed),
with the name quoted as an identifier.
"""

from __future__ import annotations

import psycopg
from psycopg import sql

SERVER = "postgres://postgres@127.0.0.1:5432/postgres"


def ensure_database(name: str, server: str = SERVER) -> None:
    """Create database ``name`` on ``server`` unless it exists (trust auth, as
    ``scripts/ensure-services.sh`` sets up)."""
    with psycopg.connect(server, autocommit=True) as connection:
        found = connection.execute(
            "select 1 from pg_database where datname = %s", (name,)
        ).fetchone()
        if found is None:
            connection.execute(sql.SQL("create database {}").format(sql.Identifier(name)))


def recreate_database(name: str, server: str = SERVER) -> None:
    """Drop ``name`` (closing its connections) and create it empty: a run from a known start."""
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(
            sql.SQL("drop database if exists {} with (force)").format(sql.Identifier(name))
        )
        connection.execute(sql.SQL("create database {}").format(sql.Identifier(name)))


def seed_public_bots(prefix: str, *, bots: int, owners: int) -> list[int]:
    """``bots`` public Batavia bots of ``owners`` owners, each with one active version; returns
    the version ids in bot order.  Bulk inserts, not the upload services: seed data only."""
    from django.contrib.auth.hashers import UNUSABLE_PASSWORD_PREFIX

    from ladder.accounts.models import User
    from ladder.bots.models import Bot, BotVersion

    owner_rows = User.objects.bulk_create(
        User(username=f"{prefix}-owner-{i}", password=UNUSABLE_PASSWORD_PREFIX)
        for i in range(owners)
    )
    bot_rows = Bot.objects.bulk_create(
        (
            Bot(owner=owner_rows[i % owners], name=f"{prefix}-bot-{i}", game="batavia")
            for i in range(bots)
        ),
        batch_size=5000,
    )
    versions = BotVersion.objects.bulk_create(
        (
            BotVersion(
                bot=bot,
                number=1,
                artifact=f"bots/{prefix}-{bot.pk}.py",
                kind="py",
                sha256="0" * 64,
                size=100,
                command=["python3", "main.py"],
                status=BotVersion.Status.ACTIVE,
            )
            for bot in bot_rows
        ),
        batch_size=5000,
    )
    return [version.pk for version in versions]
