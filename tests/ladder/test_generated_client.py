"""A client generated from the live OpenAPI schema plays a whole journey against a live server.

openapi-python-client is run once for this module, as a subprocess, on the schema the server
serves at ``/api/schema/``; every module it writes must import, and the journey then uses the
generated functions and models alone (no hand-written request): a token, a bot, an upload
polled until validated, standings, matches, a game log, a challenge, live frames, a version
test and a tournament. A schema that promised a page where the API answers an array, a body
shape the API refuses, or a field the API does not send breaks the generated parsing here.

What the workers would do is done in the test process: an upload is validated by a thread the
enqueue hook starts (``validate_version`` with a stand-in smoke match, as the other ladder
tests), and a match is played by the engine and recorded through ``record_result``.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import pkgutil
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from django.db import connection

from ladder.accounts.services import create_user, set_organiser
from ladder.bots import services as bot_services
from ladder.bots.models import BotVersion
from ladder.ladders.services import sync_ladders
from ladder.lifecycle import flow, queue
from ladder.matches import services as match_services
from ladder.matches.models import Match
from ladder.tournaments import services as tournament_services
from ladder.tournaments.models import Tournament
from tests.factories import (
    GOOD_BOT,
    accept,
    engine_result,
    ladder_for,
    make_active_version,
    make_bot,
)
from tests.tournaments.play import play_pending

pytestmark = pytest.mark.django_db(transaction=True)

PACKAGE = "monsoon_generated_client"
DEADLINE_SECONDS = 120  # generous: the suite runs on a loaded 2-core machine
WORKER = "journey-host/1"

_validations: list[threading.Thread] = []


def validate_in_background(task: str, version_id: int) -> None:
    """The workers: validate in another thread, as a worker would, while the client polls."""
    if task != queue.VALIDATE_VERSION:
        return

    def run() -> None:
        try:
            bot_services.validate_version(version_id, validator=accept)
        finally:
            connection.close()

    thread = threading.Thread(target=run, name=f"validate-{version_id}", daemon=True)
    _validations.append(thread)
    thread.start()


@pytest.fixture(scope="module")
def generated(
    live_server: Any, tmp_path_factory: pytest.TempPathFactory, django_db_blocker: Any
) -> Iterator[ModuleType]:
    """The client package openapi-python-client writes from the served schema (once a module)."""
    folder = tmp_path_factory.mktemp("generated-client")
    schema_file = folder / "schema.json"
    with django_db_blocker.unblock():  # the server thread's request may touch the database
        answer = httpx.get(f"{live_server.url}/api/schema/", params={"format": "json"})
    answer.raise_for_status()
    schema_file.write_bytes(answer.content)
    json.loads(schema_file.read_text())  # a JSON document, not an error page
    # The dev extra installs it beside the interpreter running the tests (the project's venv).
    beside = Path(sys.executable).with_name("openapi-python-client")
    generator = str(beside) if beside.exists() else shutil.which("openapi-python-client")
    assert generator, "openapi-python-client is not installed: make install (the dev extra)"
    result = subprocess.run(
        [
            generator,
            "generate",
            "--path",
            str(schema_file),
            "--output-path",
            str(folder / PACKAGE),
            "--meta",
            "none",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Unable to parse" not in result.stdout, result.stdout
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _op(name: str) -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.api.v1.{name}")


def _models() -> ModuleType:
    return importlib.import_module(f"{PACKAGE}.models")


def ok(response: Any, status: int = 200) -> Any:
    """The parsed body of an answer that must have ``status``."""
    assert response.status_code == status, (response.status_code, response.content[:2000])
    assert response.parsed is not None
    return response.parsed


def poll(check: Callable[[], Any], what: str) -> Any:
    """Ask until ``check`` gives a true value (no fixed sleep decides anything)."""
    deadline = time.monotonic() + DEADLINE_SECONDS
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def test_every_generated_module_imports(generated):
    """Six modules failed at import: a body listed under three content types with one shape."""
    broken = {}
    for module in pkgutil.walk_packages(generated.__path__, prefix=f"{PACKAGE}."):
        try:
            importlib.import_module(module.name)
        except Exception as exc:  # every failure is reported, not just the first
            broken[module.name] = repr(exc)
    assert broken == {}


@pytest.fixture
def journey_world(monkeypatch):
    sync_ladders()  # every ladder of the registry, whatever the database held
    alice = create_user("alice", password="alice-password-1")
    set_organiser(alice)  # she runs the tournament at the end
    rivals = [
        make_active_version(make_bot(create_user(name, password=f"{name}-password-1"), bot))
        for name, bot in (("bob", "cinnamon"), ("carol", "clove"))
    ]
    # From here on an upload is validated the way a worker would: later, in another thread.
    monkeypatch.setattr(queue, "send", validate_in_background)
    yield alice, rivals
    for thread in _validations:
        thread.join(timeout=DEADLINE_SECONDS)
    _validations.clear()


@pytest.fixture
def anonymous(generated, live_server):
    """The generated client without credentials; closed after the test, so the live server's
    keep-alive thread ends and gives its database connection back."""
    with generated.Client(base_url=live_server.url, raise_on_unexpected_status=True) as client:
        yield client


def test_a_generated_client_plays_a_whole_journey(generated, live_server, journey_world, anonymous):
    _, rivals = journey_world
    m = _models()

    # A token for the user name and password.
    token = ok(
        _op("v1_auth_token_create").sync_detailed(
            client=anonymous,
            body=m.AuthTokenRequest(username="alice", password="alice-password-1"),
        )
    ).token
    with generated.AuthenticatedClient(
        base_url=live_server.url, token=token, prefix="Token", raise_on_unexpected_status=True
    ) as api:
        journey(generated, anonymous, api, rivals)


def journey(generated: ModuleType, anonymous: Any, api: Any, rivals: list[BotVersion]) -> None:
    m = _models()
    assert ok(_op("v1_me_retrieve").sync_detailed(client=api)).username == "alice"

    # A bot (public by default) and its first upload, polled until validated.
    bot = ok(
        _op("v1_bots_create").sync_detailed(
            client=api, body=m.BotRequest(name="pepper", game="batavia")
        ),
        201,
    )
    assert bot.is_public is True
    first = upload(generated, api, bot.id, GOOD_BOT)
    assert first.status.value == "pending"
    first = wait_until_validated(api, bot.id, first.id)
    assert first.status.value == "active"
    assert ok(_op("v1_versions_retrieve").sync_detailed(id=first.id, client=api)).number == 1

    # The workers play a ranked match with it (done here by the engine).
    ladder = ladder_for("batavia", 3)
    played = match_services.create_match(
        ladder, [BotVersion.objects.get(pk=first.id), *rivals], seed=5
    )
    flow.record_result(match_id=played.pk, result=engine_result(played))

    # Standings, matches, the log, the bot's record: what anyone can read.
    ladders = ok(_op("v1_ladders_list").sync_detailed(client=anonymous, game="batavia"))
    assert ladder.pk in [row.id for row in ladders]
    standings = ok(_op("v1_ladders_standings_list").sync_detailed(id=ladder.pk, client=anonymous))
    assert "pepper" in [row.bot_name for row in standings.results]
    matches = ok(_op("v1_matches_list").sync_detailed(client=anonymous, bot=bot.id))
    assert [row.id for row in matches.results] == [played.pk]
    detail = ok(_op("v1_matches_retrieve").sync_detailed(id=played.pk, client=anonymous))
    assert detail.status.value == "finished" and len(detail.seats) == 3
    log = ok(_op("v1_matches_log_retrieve").sync_detailed(id=played.pk, client=anonymous))
    assert log.to_dict()["seed"] == 5
    stderr = ok(_op("v1_matches_stderr_list").sync_detailed(id=played.pk, client=api))
    assert [row.bot_name for row in stderr] == ["pepper"]
    rivalry = ok(_op("v1_bots_head_to_head_list").sync_detailed(id=bot.id, client=anonymous))
    assert {row.opponent_name for row in rivalry} == {"cinnamon", "clove"}
    ratings = ok(
        _op("v1_bots_ratings_list").sync_detailed(id=bot.id, client=anonymous, ladder=ladder.pk)
    )
    assert ratings and ratings[0].version == first.id

    # A challenge, and its live frames once a worker plays it.
    challenge = ok(
        _op("v1_challenges_create").sync_detailed(
            client=api,
            body=m.ChallengeRequest(bots=[bot.id, *(v.bot_id for v in rivals)]),
        ),
        201,
    )
    assert challenge.kind.value == "challenge" and not challenge.ranked
    mine = ok(_op("v1_challenges_list").sync_detailed(client=api))
    assert [row.id for row in mine.results] == [challenge.id]
    publish_some_moves(challenge.id)
    live = ok(_op("v1_matches_live_retrieve").sync_detailed(id=challenge.id, client=anonymous))
    assert live.status == "running" and live.total == 4 and len(live.decisions) == 4
    later = ok(
        _op("v1_matches_live_retrieve").sync_detailed(id=challenge.id, client=anonymous, since=3)
    )
    assert later.since == 3 and len(later.decisions) == 1
    assert later.decisions[0].to_dict() == live.decisions[3].to_dict()

    # A second version, then a version test of it against the first.
    second = wait_until_validated(
        api, bot.id, upload(generated, api, bot.id, GOOD_BOT + b"# v2\n").id
    )
    versions = ok(_op("v1_bots_versions_list").sync_detailed(id=bot.id, client=api))
    assert {v.number: v.status.value for v in versions} == {1: "retired", 2: "active"}
    test = ok(
        _op("v1_version_tests_create").sync_detailed(
            client=api,
            body=m.VersionTestCreateRequest(candidate=second.id, baseline=first.id, max_games=4),
        ),
        201,
    )
    assert test.status.value == "running" and test.bot == "pepper"
    listed = ok(_op("v1_version_tests_list").sync_detailed(client=api))
    assert [row.id for row in listed.results] == [test.id]
    cancelled = ok(_op("v1_version_tests_cancel_create").sync_detailed(id=test.id, client=api))
    assert cancelled.status.value != "running"

    # A tournament: created, entered, read back through every one of its views.
    starts = datetime.now(UTC) + timedelta(days=1)
    cup = ok(
        _op("v1_tournaments_create").sync_detailed(
            client=api,
            body=m.TournamentCreateRequest(
                name="Journey cup",
                game="batavia",
                num_players=3,
                format_="round_robin",
                starts_at=starts,
            ),
        ),
        201,
    )
    cup_id = cup.id
    for entered in (bot.id, *(v.bot_id for v in rivals)):  # hers, then two invited
        entrant = ok(
            _op("v1_tournaments_entrants_create").sync_detailed(
                id=cup_id, client=api, body=m.RegisterRequest(bot=entered)
            ),
            201,
        )
        assert entrant.bot == entered
    entrants = ok(_op("v1_tournaments_entrants_list").sync_detailed(id=cup_id, client=anonymous))
    assert {e.bot_name for e in entrants} == {"pepper", "cinnamon", "clove"}
    tournaments = ok(_op("v1_tournaments_list").sync_detailed(client=anonymous, game="batavia"))
    assert [t.name for t in tournaments.results] == ["Journey cup"]

    # The start comes and the workers play its matches (the tick and the engine, here).
    tournament_services.tick(now=starts + timedelta(minutes=1))
    assert play_pending(no_capture, Tournament.objects.get(pk=cup.id)) >= 1
    tournament_services.tick(now=starts + timedelta(minutes=2))
    detail = ok(_op("v1_tournaments_retrieve").sync_detailed(id=cup_id, client=anonymous))
    assert detail.status.value == "finished", detail.status_reason
    standings = ok(_op("v1_tournaments_standings_list").sync_detailed(id=cup_id, client=anonymous))
    assert len(standings) == 3 and {row.rank for row in standings} <= {1, 2, 3}
    assert {row.bot_name for row in standings} == {"pepper", "cinnamon", "clove"}
    rounds = ok(_op("v1_tournaments_rounds_list").sync_detailed(id=cup_id, client=anonymous))
    assert rounds and rounds[0].tables and rounds[0].tables[0].matches
    cross = ok(_op("v1_tournaments_crosstable_retrieve").sync_detailed(id=cup_id, client=anonymous))
    assert len(cross.rows) == 3
    played_in_cup = ok(
        _op("v1_tournaments_matches_list").sync_detailed(id=cup_id, client=anonymous, round_=1)
    )
    assert played_in_cup.results
    assert {row.match.status.value for row in played_in_cup.results} == {"finished"}


def no_capture(**_: bool) -> contextlib.nullcontext[None]:
    """Outside a test transaction the on-commit hooks run by themselves."""
    return contextlib.nullcontext()


def upload(generated: ModuleType, api: Any, bot_id: int, source: bytes) -> Any:
    body = _models().UploadRequest(
        artifact=generated.types.File(payload=io.BytesIO(source), file_name="main.py")
    )
    return ok(_op("v1_bots_upload_create").sync_detailed(id=bot_id, client=api, body=body), 201)


def wait_until_validated(api: Any, bot_id: int, version_id: int) -> Any:
    def validated() -> Any:
        versions = ok(_op("v1_bots_versions_list").sync_detailed(id=bot_id, client=api))
        version = next(v for v in versions if v.id == version_id)
        return version if version.status.value not in ("pending", "validating") else None

    return poll(validated, f"version {version_id} to be validated")


def publish_some_moves(match_id: int) -> None:
    """A worker claims the challenge and publishes its first four decisions."""
    match = Match.objects.get(pk=match_id)
    assert match_services.claim_match(match_id, worker=WORKER)
    log = engine_result(match).log
    assert log is not None
    assert match_services.publish_progress(
        match_id, worker=WORKER, decisions=log["decisions"][:4], forfeits=[None] * 3
    )
