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
