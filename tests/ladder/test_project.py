"""Project-level checks: settings refuse unsafe production setups, migrations, schema, admin."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from ladder.lifecycle import flow
from ladder.matches.models import Match
from tests.factories import api_client as client_for
from tests.factories import engine_result, ladder_for, make_active_version, make_bot
from tests.helpers import present

ROOT = Path(__file__).resolve().parents[2]
GOOD_KEY = "k7Qz-" * 10  # 50 characters, five distinct: the least Django accepts
PLACEHOLDER_KEY = "replace-with-at-least-32-random-characters-from-a-password-generator"
KEY_ADVICE = "python -c 'import secrets; print(secrets.token_urlsafe(50))'"


def load_settings(**env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CACHE_URL"}
    }
    clean.update(env)
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import ladder.settings as s; print(s.DATABASES['default']['ENGINE'], s.DEBUG)",
        ],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    "env, complaint",
    [
        ({}, "SECRET_KEY must be set"),
        ({"SECRET_KEY": "short"}, "SECRET_KEY must be set"),
        ({"SECRET_KEY": "k" * 32}, "SECRET_KEY must be set"),
        ({"SECRET_KEY": "k" * 49 + "Q"}, "at least 5 different characters"),
        ({"SECRET_KEY": "abcd" * 20}, "at least 5 different characters"),
        ({"SECRET_KEY": PLACEHOLDER_KEY}, "placeholder"),
        ({"SECRET_KEY": "django-insecure-" + "abcdefghij" * 5}, "placeholder"),
        ({"SECRET_KEY": GOOD_KEY}, "ALLOWED_HOSTS must list"),
        ({"SECRET_KEY": GOOD_KEY, "ALLOWED_HOSTS": "*"}, "ALLOWED_HOSTS must list"),
        ({"DEBUG": "maybe"}, "DEBUG must be a boolean"),
    ],
)
def test_production_settings_refuse_unsafe_defaults(env, complaint):
    result = load_settings(**env)
    assert result.returncode != 0
    assert complaint in result.stderr
    if "ALLOWED_HOSTS" not in complaint and "DEBUG" not in env:
        assert KEY_ADVICE in result.stderr  # how to make a good one


def test_the_deploy_check_refuses_a_placeholder_key_even_in_debug():
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "CACHE_URL"}
    }
    env.update(DEBUG="1", SECRET_KEY=PLACEHOLDER_KEY, DJANGO_SETTINGS_MODULE="ladder.settings")
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0
    assert "monsoon.E001" in result.stderr and KEY_ADVICE in result.stderr


def test_settings_from_environment():
    ok = load_settings(
        SECRET_KEY=GOOD_KEY,
        ALLOWED_HOSTS="monsoon.example",
        DATABASE_URL="postgres://u@db:5432/monsoon",
        CACHE_URL="redis://c:6379/1",
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.split() == ["django.db.backends.postgresql", "False"]
    dev = load_settings(DEBUG="1")
    assert dev.stdout.split() == ["django.db.backends.sqlite3", "True"]


def _manage(*args: str, database_url: str) -> subprocess.CompletedProcess:
    """``manage.py`` in a process of its own: the suite's database is built without
    migrations, so the real ones are applied (and compared with the models) only here."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "ladder.settings_test"}
    env["DATABASE_URL"] = database_url
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_every_migration_applies_from_zero_and_agrees_with_the_models(db):
    """A production database is made by running every migration, data migrations too (a
    ladder for every game and player count, the organisers group), on PostgreSQL."""
    import psycopg
    from django.db import connection

    from engine.registry import all_games

    server = connection.settings_dict
    scratch = f"{server['NAME']}_migrations"
    admin_url = f"postgresql://{server['USER']}@{server['HOST']}:{server['PORT']}/postgres"
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
        admin.execute(f'CREATE DATABASE "{scratch}"')
    url = f"postgres://{server['USER']}@{server['HOST']}:{server['PORT']}/{scratch}"
    try:
        migrated = _manage("migrate", "--noinput", database_url=url)
        assert migrated.returncode == 0, migrated.stderr
        agree = _manage("makemigrations", "--check", "--dry-run", database_url=url)
        assert agree.returncode == 0, agree.stdout + agree.stderr
        with psycopg.connect(url.replace("postgres://", "postgresql://", 1)) as seeded:
            tables = set(seeded.execute("SELECT game, num_players FROM ladders_ladder").fetchall())
            groups = seeded.execute("SELECT name FROM auth_group").fetchall()
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
    assert tables == {(g.name, n) for g in all_games().values() for n in g.player_counts}
    assert groups == [("organisers",)]


def test_openapi_schema_validates_without_warnings(db, tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", file=str(tmp_path / "s.yaml"))
    assert "standings" in (tmp_path / "s.yaml").read_text()


def test_ladders_exist_for_every_game_and_player_count(db):
    from engine.registry import all_games
    from ladder.ladders.models import Ladder

    expected = {(g.name, n) for g in all_games().values() for n in g.player_counts}
    assert set(Ladder.objects.values_list("game", "num_players")) == expected


@pytest.fixture
def admin_world(alice, bob, olivia, sam):
    sam.is_superuser = True
    sam.save()
    versions = [
        make_active_version(make_bot(u, f"admin-{u.username}")) for u in (alice, bob, olivia)
    ]
    from ladder.matches.services import create_match

    done = create_match(ladder_for(players=3), versions, seed=5)
    flow.record_result(match_id=done.pk, result=engine_result(done))
    waiting = create_match(ladder_for(players=3), versions, seed=6)
    return {"done": done, "waiting": waiting, "version": versions[0]}


def test_admin_pages_for_staff(admin_world, sam, alice):
    staff = client_for(None)
    staff.force_login(sam)
    for url in [
        "/admin/",
        "/admin/bots/bot/",
        "/admin/bots/botversion/",
        f"/admin/bots/botversion/{admin_world['version'].pk}/change/",
        "/admin/matches/match/",
        f"/admin/matches/match/{admin_world['done'].pk}/change/",
        "/admin/ladders/ladder/",
        "/admin/ratings/rating/",
        "/admin/ratings/ratingfit/",
    ]:
        assert staff.get(url).status_code == 200, url
    user = client_for(None)
    user.force_login(alice)
    assert user.get("/admin/matches/match/").status_code == 302  # to the admin login


def test_admin_actions_cancel_and_rerun(admin_world, sam):
    staff = client_for(None)
    staff.force_login(sam)
    waiting, done = admin_world["waiting"], admin_world["done"]
    staff.post("/admin/matches/match/", {"action": "cancel", "_selected_action": [waiting.pk]})
    waiting.refresh_from_db()
    assert waiting.status == Match.Status.CANCELLED
    before = Match.objects.count()
    staff.post("/admin/matches/match/", {"action": "rerun", "_selected_action": [done.pk]})
    assert Match.objects.count() == before + 1
    assert present(Match.objects.order_by("-pk").first()).seed == done.seed
