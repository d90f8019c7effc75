"""Suite-wide fixtures: the personas every ladder, tournament and web test can call by name.

The cast (each made through ``tests.factories.make_user``; password ``<name>-password-1``):

- ``alice``: a bot programmer; in permission tests she is the owner.
- ``bob``: her rival, another bot programmer (the "other user" who must not see alice's
  private things).
- ``olivia``: an organiser (the ``organisers`` group): she runs tournaments.
- ``sam``: a staff member, who may see everything.
- an anonymous visitor: no account; ``api_clients["anonymous"]`` / ``web_clients["anonymous"]``.

``api_clients`` and ``web_clients`` hold one logged-in client per role (``anonymous``,
``owner`` = alice, ``other`` = bob, ``organiser`` = olivia, ``staff`` = sam), so a permission
test parametrizes over the role names. Objects beyond the users (bots, versions, matches) come
from the plain functions in ``tests/factories.py``. A package conftest may define a fixture of
the same name; the nearer one wins for that package.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.apps import AppConfig
from django.core.management import call_command
from django.db.models.signals import post_migrate
from django.test import Client
from pytest_django.fixtures import Settings
from rest_framework.test import APIClient

from ladder.accounts.models import ORGANISERS_GROUP, User
from ladder.bots import artifacts, source_check
from ladder.ladders.services import sync_ladders
from ladder.lifecycle import queue
from tests.factories import api_client, make_user, web_client
from tests.helpers import cpu_hogs, use_match_log_folder

pytest_plugins = ["tests.ci_skips", "pytester"]

SEND_TO_BROKER = queue.send
"""The real sender, for tests that run real workers (``broker``)."""


def _seed_reference_rows(sender: AppConfig, **kwargs: Any) -> None:
    """The rows the data migrations seed (a ladder per game and player count, the organisers
    group), made again whenever Django sends ``post_migrate``.

    The suite builds its database without migrations (``--no-migrations``: a third of the time
    of running them all), and a transactional test ends with a flush that empties every table
    and then sends ``post_migrate``: both times these rows come back, as content types and
    permissions do. ``tests/ladder/test_project.py`` applies the real migrations from zero.
    """
    if sender.label != "ladders":
        return
    from django.contrib.auth.models import Group

    sync_ladders()
    Group.objects.get_or_create(name=ORGANISERS_GROUP)


post_migrate.connect(_seed_reference_rows, dispatch_uid="tests.seed_reference_rows")


@pytest.fixture
def migration_history(transactional_db: None, settings: Settings) -> None:
    """The test database as the migrations build it, their history recorded, for the tests
    that migrate back to an old schema, write rows as they were and migrate forward again.

    The suite's database is built from the models (``--no-migrations``), so it has no history
    to migrate from; the first such test in a process replaces the schema with the one every
    migration makes, which later tests in that process (and every other test, whose models
    it matches) then use.
    """
    from django.contrib.contenttypes.models import ContentType
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    settings.MIGRATION_MODULES = {}  # the real migrations, not pytest-django's "none"
    executor = MigrationExecutor(connection)
    if not set(executor.loader.graph.leaf_nodes()) <= set(executor.loader.applied_migrations):
        with connection.cursor() as cursor:
            cursor.execute("DROP SCHEMA public CASCADE")
            cursor.execute("CREATE SCHEMA public")
        call_command("migrate", verbosity=0)
        ContentType.objects.clear_cache()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist (``--dist loadgroup``) the end-to-end tests run in one process and
    the browser tests in one process, each in order, so they never start two stacks or two
    Chromiums at once; while they wait on their servers, the other process runs CPU-bound
    tests beside them. The tests that migrate back and forth share one process too, which
    then builds its schema from the migrations once (``migration_history``). Without
    pytest-xdist (``-p no:xdist``) there are no groups (and no ``xdist_group`` marker)."""
    for item in items:
        _name_the_operation(item)
    if not config.pluginmanager.hasplugin("xdist"):
        return
    for item in items:
        if item.get_closest_marker("e2e"):
            _group(item, "e2e")
        elif item.get_closest_marker("browser"):
            _group(item, "browser")
        elif "migration_history" in getattr(item, "fixturenames", ()):
            _group(item, "migrations")


def _set_node_id(item: pytest.Item, nodeid: str) -> None:
    """Rename ``item``. pytest 9 keeps the id as a parsed ``NodeId`` in ``_id`` (the string
    ``_nodeid`` that plugins such as pytest-xdist 3.8 still assign is no longer read)."""
    from _pytest.nodeid import coerce_node_id

    item._id = coerce_node_id(nodeid)


def _group(item: pytest.Item, name: str) -> None:
    """Put ``item`` in ``--dist loadgroup``'s group ``name``: the scheduler reads the group
    from the node id's ``@name`` suffix (the ``xdist_group`` marker's own renaming is lost
    on pytest 9, see :func:`_set_node_id`)."""
    item.add_marker(pytest.mark.xdist_group(name))
    if not item.nodeid.endswith(f"@{name}"):
        _set_node_id(item, f"{item.nodeid}@{name}")


def _name_the_operation(item: pytest.Item) -> None:
    """Give a schemathesis item (one per API operation) a node id of its own.

    Schemathesis names each item ``test[GET /path]`` but leaves them all the test function's
    node id; pytest-xdist schedules by node id, so under ``--dist loadgroup`` one item per
    function ran and the other operations silently did not."""
    label = getattr(item, "operation_label", None)
    if label and not item.nodeid.endswith("]"):
        _set_node_id(item, f"{item.nodeid}[{label}]")


REAL_SOURCE_CHECK_MODULES = frozenset(
    {"test_source_check.py", "test_uploads.py", "test_quota_race.py"}
)
"""Tests of uploads and of the syntax checker: each of their uploads starts the real child."""

_syntax_verdicts: dict[tuple[tuple[str, bytes], ...], source_check.SourceProblem | None] = {}


@pytest.fixture(autouse=True)
def _one_syntax_check_per_source(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The upload's syntax check (a child interpreter) runs once per distinct set of sources
    in a test process and its verdict is reused: most tests upload the same few bots to have
    versions, and the child cost 50-300 ms each time. The check is deterministic in its
    input, so the verdict is the one the child gives; a busy or missing checker is never
    remembered. The upload and source-check tests always run the child."""
    if request.path.name in REAL_SOURCE_CHECK_MODULES:
        return
    real = source_check.first_syntax_problem

    def remembered(sources: dict[str, bytes]) -> source_check.SourceProblem | None:
        key = tuple(sorted(sources.items()))
        if key not in _syntax_verdicts:
            _syntax_verdicts[key] = real(sources)
        return _syntax_verdicts[key]

    monkeypatch.setattr(artifacts, "first_syntax_problem", remembered)


@pytest.fixture(autouse=True)
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """What the ladder hands to the workers after commit (task name, id), kept here instead of
    sent to a broker: no test reaches a broker unless it asks for ``broker``. A test that plays
    what is sent replaces ``ladder.lifecycle.queue.send`` itself."""
    calls: list[tuple[str, int]] = []
    monkeypatch.setattr(queue, "send", lambda task, object_id: calls.append((task, object_id)))
    return calls


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch, sent: list[tuple[str, int]]) -> None:
    """Ids go to the configured broker, as in production (tests with real Celery workers)."""
    monkeypatch.setattr(queue, "send", SEND_TO_BROKER)


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    """Throttle counts live in the cache: each test starts with a full budget, so a test's
    outcome never depends on how many sign-ups or bots the tests before it made."""
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture
def isolated_media(settings: Settings, tmp_path: Path) -> Path:
    """Uploads and match logs of this test go to its own folders (and vanish with it)."""
    media = tmp_path / "media"
    settings.MEDIA_ROOT = media
    use_match_log_folder(settings, tmp_path / "match-logs")
    return media


@pytest.fixture
def alice(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def bob(db: None) -> User:
    return make_user("bob")


@pytest.fixture
def olivia(db: None) -> User:
    return make_user("olivia", organiser=True)


@pytest.fixture
def sam(db: None) -> User:
    return make_user("sam", staff=True)


ROLES = ("anonymous", "owner", "other", "organiser", "staff")
"""The role names of ``api_clients`` and ``web_clients``, for ``parametrize``."""


@pytest.fixture
def api_clients(alice: User, bob: User, olivia: User, sam: User) -> dict[str, APIClient]:
    return {
        "anonymous": api_client(),
        "owner": api_client(alice),
        "other": api_client(bob),
        "organiser": api_client(olivia),
        "staff": api_client(sam),
    }


@pytest.fixture
def web_clients(alice: User, bob: User, olivia: User, sam: User) -> dict[str, Client]:
    return {
        "anonymous": web_client(),
        "owner": web_client(alice),
        "other": web_client(bob),
        "organiser": web_client(olivia),
        "staff": web_client(sam),
    }


@pytest.fixture
def two_cpu_hogs() -> Iterator[None]:
    """Two processes spinning beside the test for its whole length (killed in teardown)."""
    with cpu_hogs(2):
        yield
