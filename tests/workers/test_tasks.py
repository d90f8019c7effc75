"""The Celery tasks run in-process (``Task.apply``): claiming, sandboxed play, recording once,
infrastructure failures, validation, the reaper and the fleet table.

Personas: alice uploads the reference bots; sam is staff (the operator who reads the fleet).
The real worker process on a real broker is exercised in ``tests/e2e``.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import timedelta
from pathlib import Path

import pytest
from celery import current_app
from django.db import OperationalError
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from ladder.accounts.services import create_user
from ladder.bots import services as bot_services
from ladder.bots.models import BotVersion
from ladder.fleet import services as fleet_services
from ladder.lifecycle import queue
from ladder.matches import logstore
from ladder.matches import selectors as match_selectors
from ladder.matches import services as match_services
from ladder.matches.models import Match, MatchLog
from ladder.ratings.models import Rating, RatingPoint
from tests.factories import accept, ladder_for, make_bot
from tests.factories import api_client as client_for
from tests.workers.programs import (
    REFERENCE,
    upload_reference,
    validated,
)
from tests.workers.sandbox_helpers import needs_sandbox
from workers import tasks
from workers.artifact_cache import ArtifactCache, ArtifactError
from workers.matches import tasks as match_tasks
from workers.matches import validation

CRASHING_BOT = b"import sys\nprint('no module named numpy', file=sys.stderr)\nsys.exit(3)\n"


@pytest.fixture(autouse=True)
def _worker_dirs(settings, tmp_path):
    """Each test gets its own storage and artifact cache (the cache is per worker process), and
    the tasks run in-process: nothing is sent to a broker."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.MONSOON_ARTIFACT_CACHE = tmp_path / "cache"


@pytest.fixture
def accept_every_version(monkeypatch):
    """The smoke match replaced by an instant yes, for tests about something else."""
    monkeypatch.setattr(validation, "validate_artifact", accept)


@pytest.fixture
def alice(db):
    return create_user("alice", password="alice-password-1")


@pytest.fixture
def two_active(alice):
    return [
        validated(upload_reference(alice, "pr-random", "random")),
        validated(upload_reference(alice, "pr-greedy", "greedy")),
    ]


@needs_sandbox
def test_a_queued_match_is_played_in_the_sandbox_and_recorded_once(two_active):
    assert [v.status for v in two_active] == ["active", "active"]
    assert all(v.smoke_log == logstore.smoke_object_name(v.pk) for v in two_active)
    match = match_services.create_match(ladder_for("packet_row", 2), two_active, seed=11)

    first = match_tasks.run_match.apply(args=(match.pk,)).get()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    assert "recorded" in first
    assert sorted(match_selectors.ranking_of(match) or []) in ([1, 2], [1, 1])
    assert MatchLog.objects.filter(match=match).exists()
    assert match.worker.endswith(f"/{os.getpid()}")  # who ran it: this process
    points = RatingPoint.objects.count()

    second = match_tasks.run_match.apply(args=(match.pk,)).get()
    assert "nothing to do" in second
    assert RatingPoint.objects.count() == points
    assert list(Rating.objects.values_list("games", flat=True)) == [1, 1]


@needs_sandbox
def test_a_lost_artifact_is_an_infrastructure_failure_never_a_result(two_active, settings):
    settings.MONSOON_MATCH_MAX_ATTEMPTS = 2
    match = match_services.create_match(ladder_for("packet_row", 2), two_active, seed=3)
    gone = two_active[1]
    gone.artifact.storage.delete(gone.artifact.name)
    settings.MONSOON_ARTIFACT_CACHE = Path(settings.MEDIA_ROOT).parent / "empty-cache"

    match_tasks.run_match.apply(args=(match.pk,))
    match.refresh_from_db()
    assert (match.status, match.attempts) == (Match.Status.QUEUED, 1)
    assert "cannot fetch artifact" in match.status_reason

    match_tasks.run_match.apply(args=(match.pk,))
    match.refresh_from_db()
    assert (match.status, match.attempts) == (Match.Status.FAILED, 2)
    assert match_selectors.ranking_of(match) is None and not match.rated
    assert not Rating.objects.exists()


@needs_sandbox
def test_validation_rejects_a_bot_that_crashes_and_shows_its_stderr(alice):
    bot = make_bot(alice, "crasher", "borneo")
    version = bot_services.upload_version(bot, user=alice, filename="main.py", data=CRASHING_BOT)
    version = validated(version)
    assert version.status == BotVersion.Status.REJECTED
    assert "crash" in version.failure_reason
    assert "no module named numpy" in version.failure_reason
    # The smoke match it forfeited is kept for its owner's replay: the public log, no stderr.
    log = json.loads(logstore.read_json(version.smoke_log))
    assert log["game"] == "borneo" and "numpy" not in json.dumps(log)


def test_validation_of_a_version_that_is_not_pending_does_nothing(alice, accept_every_version):
    version = validated(upload_reference(alice, "pr-random", "random"))
    assert version.status == BotVersion.Status.ACTIVE
    again = match_tasks.validate_bot_version.apply(args=(version.pk,)).get()
    assert "nothing to do" in again


def test_the_reaper_requeues_dead_workers_matches_and_resends_lost_ids(
    alice, settings, sent, accept_every_version
):
    settings.MONSOON_RESEND_AFTER_SECONDS = 60
    versions = [validated(upload_reference(alice, f"pr-{i}", "random")) for i in range(2)]
    ladder = ladder_for("packet_row", 2)
    abandoned = match_services.create_match(ladder, versions)
    lost = match_services.create_match(ladder, versions)
    fresh = match_services.create_match(ladder, versions)
    assert match_services.claim_match(abandoned.pk, worker="dead@host/1", lease_seconds=30)
    long_ago = timezone.now() - timedelta(minutes=10)
    Match.objects.filter(pk=abandoned.pk).update(lease_expires_at=long_ago)
    Match.objects.filter(pk=lost.pk).update(queued_at=long_ago)
    sent.clear()

    report = tasks.reap.apply().get()
    assert report["expired"] == [abandoned.pk]
    assert report["matches_resent"] == [lost.pk]
    # The requeued one is sent after its commit (never, inside this test's transaction).
    assert sent == [(queue.RUN_MATCH, lost.pk)]
    abandoned.refresh_from_db()
    assert (abandoned.status, abandoned.attempts) == (Match.Status.QUEUED, 1)
    assert "lease expired" in abandoned.status_reason

    sent.clear()
    assert tasks.reap.apply().get()["matches_resent"] == []  # stamped: not sent every beat
    fresh.refresh_from_db()
    assert fresh.sent_at is None


def test_a_validation_left_by_a_dead_worker_goes_back_to_pending(alice, settings):
    settings.MONSOON_VALIDATION_LEASE_SECONDS = 60
    version = upload_reference(alice, "pr-random", "random")
    assert bot_services.begin_validation(version.pk)
    BotVersion.objects.filter(pk=version.pk).update(
        validation_started_at=timezone.now() - timedelta(minutes=5)
    )
    assert tasks.reap.apply().get()["stale_validations"] == [version.pk]
    version.refresh_from_db()
    assert version.status == BotVersion.Status.PENDING


def test_recording_waits_for_the_database_and_then_gives_up(monkeypatch):
    monkeypatch.setattr(match_tasks.time, "sleep", lambda _s: None)
    calls = []

    def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise OperationalError("connection refused")
        return "recorded"

    assert match_tasks._with_database_patience(flaky, "test") == "recorded"
    assert len(calls) == 3

    def down():
        raise OperationalError("connection refused")

    with pytest.raises(OperationalError):
        match_tasks._with_database_patience(down, "test", patience_s=0)


def test_the_artifact_cache_unpacks_once_and_refuses_other_bytes(tmp_path):
    data = b"print('hello')\n"
    digest = hashlib.sha256(data).hexdigest()
    cache = ArtifactCache(tmp_path / "cache")
    fetches = []

    def fetch():
        fetches.append(1)
        return data

    first = cache.directory(digest, "py", fetch)
    second = cache.directory(digest, "py", fetch)
    assert first == second == tmp_path / "cache" / digest
    assert (first / "main.py").read_bytes() == data
    assert (first / "main.py").stat().st_mode & 0o777 == 0o644
    assert len(fetches) == 1

    other = hashlib.sha256(b"other").hexdigest()
    with pytest.raises(ArtifactError, match="does not match its sha256"):
        cache.directory(other, "py", lambda: b"print('evil')\n")
    assert not (tmp_path / "cache" / other).exists()
    with pytest.raises(ArtifactError, match="not a sha256"):
        cache.directory("../../etc", "py", fetch)


def test_the_fleet_is_shown_to_staff_only(db, settings):
    settings.MONSOON_WORKER_HEARTBEAT_SECONDS = 10
    fleet_services.worker_started(
        "w1@alpha",
        hostname="alpha",
        pid=10,
        slots=4,
        queues=["matches", "validation"],
        sandbox="bwrap",
    )
    fleet_services.worker_started(
        "w2@beta", hostname="beta", pid=11, slots=2, queues=["matches"], sandbox="bwrap"
    )
    from ladder.fleet.models import WorkerNode

    WorkerNode.objects.filter(name="w2@beta").update(
        last_seen=timezone.now() - timedelta(seconds=60)
    )
    staff = create_user("sam", password="sam-password-1")
    staff.is_staff = True
    staff.save()
    author = create_user("bob", password="bob-password-1")

    assert client_for(None).get("/api/v1/workers/").status_code in (401, 403)
    assert client_for(author).get("/api/v1/workers/").status_code == 403
    rows = {row["name"]: row for row in client_for(staff).get("/api/v1/workers/").json()}
    assert rows["w1@alpha"]["alive"] and rows["w1@alpha"]["slots"] == 4
    assert not rows["w2@beta"]["alive"]

    fleet_services.worker_stopped("w1@alpha")
    rows = {row["name"]: row for row in client_for(staff).get("/api/v1/workers/").json()}
    assert not rows["w1@alpha"]["alive"]


def test_a_worker_without_the_artifact_store_reports_it_on_the_fleet(
    db, settings, tmp_path, monkeypatch
):
    """The version stays pending for a worker that has the store; staff see why this one fails."""
    # A real worker drops its connections after a failure; here they are the test's own.
    monkeypatch.setattr(match_tasks.connections, "close_all", lambda: None)
    from celery.utils.nodenames import gethostname

    alice = create_user("alice", password="alice-password-1")
    version = bot_services.upload_version(
        make_bot(alice, "storeless"), user=alice, filename="main.py", data=b"print('hi')\n"
    )
    name = gethostname()  # the name an eagerly applied task gives as its worker
    fleet_services.worker_started(
        name, hostname="alpha", pid=10, slots=1, queues=["validation"], sandbox="bwrap"
    )
    settings.MEDIA_ROOT = str(tmp_path / "not-mounted")
    result = match_tasks.validate_bot_version.apply(args=(version.pk,))
    assert result.state in ("RETRY", "FAILURE")  # applied eagerly, its retries run here too
    version.refresh_from_db()
    assert version.status == BotVersion.Status.PENDING
    staff = create_user("sam", password="sam-password-1")
    staff.is_staff = True
    staff.save()
    rows = {row["name"]: row for row in client_for(staff).get("/api/v1/workers/").json()}
    assert "does not exist on this host" in rows[name]["storage_problem"]


# ---------------------------------------------------------------- hostile uploads, on the worker
SHEBANG_BOT = b"#!/usr/bin/python3\n" + (REFERENCE / "random" / "main.py").read_bytes()


def executable_zip(mode: int) -> bytes:
    import io
    import json
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("monsoon.json", json.dumps({"command": ["./mybot"]}))
        info = zipfile.ZipInfo("mybot")
        info.external_attr = (0o100000 | mode) << 16
        archive.writestr(info, SHEBANG_BOT)
    return buffer.getvalue()


@needs_sandbox
def test_a_program_run_as_dot_slash_keeps_its_executable_bit_and_plays(alice):
    """The documented manifest ``{"command": ["./mybot"]}`` failed with Permission denied:
    the cache wrote every file 0644."""
    bot = make_bot(alice, "compiled", "borneo")
    version = bot_services.upload_version(
        bot, user=alice, filename="bot.zip", data=executable_zip(0o6755)
    )
    version = validated(version)
    assert version.status == BotVersion.Status.ACTIVE, version.failure_reason
    unpacked = Path(match_tasks.settings.MONSOON_ARTIFACT_CACHE) / version.sha256 / "mybot"
    assert unpacked.stat().st_mode & 0o7777 == 0o755  # executable, never setuid or setgid


def test_a_command_holding_a_nul_byte_forfeits_its_seat_and_the_match_ends():
    """``monsoon play`` crashed with a traceback and no result on such a command; a program
    built by any path now forfeits as "could not be started" and the others play on."""
    from workers.launch import BotProgram, LocalLauncher
    from workers.matches.reference import reference_bot
    from workers.matches.runner import run_match

    bad = BotProgram(REFERENCE / "random", ("python3", "main.py\x00x"), "nul")
    outcome = run_match(
        "borneo",
        3,
        [bad, reference_bot("random"), reference_bot("random")],
        launcher=LocalLauncher(),
    )
    assert outcome.forfeits[0] is not None and "NUL byte" in outcome.forfeits[0]
    assert outcome.forfeits[1] is None and outcome.forfeits[2] is None


def test_an_artifact_the_file_system_refuses_is_the_artifact_fault(tmp_path, monkeypatch):
    """A name the disk refuses (here a 300-byte name passed by a stored artifact that predates
    the upload checks) is an ArtifactError, which rejects the version, not an OSError, which
    was retried as a host failure 28 times in 7 minutes."""
    import io
    import zipfile

    from ladder.bots import artifacts

    monkeypatch.setattr(artifacts, "MAX_NAME_BYTES", 10_000)  # as before the checks existed
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("main.py", b"x = 1\n")
        archive.writestr("a" * 300, b"x")
    data = buffer.getvalue()
    cache = ArtifactCache(tmp_path / "cache")
    with pytest.raises(ArtifactError, match="File name too long"):
        cache.directory(hashlib.sha256(data).hexdigest(), "zip", lambda: data)


def test_the_ladder_sends_ids_by_the_names_the_workers_tasks_answer_to(broker, monkeypatch):
    import workers
    from workers.apps import WorkersConfig
    from workers.celery_app import app

    WorkersConfig("workers", workers).ready()  # what django.setup() does with a broker set
    assert current_app.main == app.main == "monsoon"  # what the ladder sends with
    # The names the ladder sends are the tasks' own, and the workers' app knows them.
    assert (
        match_tasks.run_match.name,
        match_tasks.validate_bot_version.name,
    ) == (queue.RUN_MATCH, queue.VALIDATE_VERSION)
    assert {queue.RUN_MATCH, queue.VALIDATE_VERSION} <= set(app.tasks)
    calls: list[tuple[str, tuple[int, ...]]] = []
    monkeypatch.setattr(app, "send_task", lambda name, args, retry: calls.append((name, args)))
    queue.send(queue.RUN_MATCH, 7)
    assert calls == [(queue.RUN_MATCH, (7,))]


def test_an_unreachable_broker_leaves_the_id_waiting_for_the_reaper(broker, monkeypatch, caplog):
    from workers.celery_app import app

    def down(*args: object, **kwargs: object) -> None:
        raise BrokerError("connection refused")

    monkeypatch.setattr(app, "send_task", down)
    queue.send(queue.VALIDATE_VERSION, 7)  # no exception: the row is the queue
    assert "the reaper sends it later" in caplog.text


SPINNER_BOT = (Path(__file__).parent / "bots" / "cpu_spinner.py").read_bytes()


@needs_sandbox
def test_a_seat_out_of_thinking_budget_forfeits_and_the_match_is_recorded_once(
    alice, settings, accept_every_version
):
    """A bot answering legally but slowly used to hold a worker until the task's time limit,
    and the match was retried, then failed. Its whole-match budget (0.5 s here; it spins 0.3 s
    of CPU per decision) runs out: its seat forfeits, the match finishes at the first attempt."""
    settings.MONSOON_MATCH_THINKING_BUDGET_SECONDS = 0.5
    slow = bot_services.upload_version(
        make_bot(alice, "slowpoke", "packet_row"), user=alice, filename="main.py", data=SPINNER_BOT
    )
    other = upload_reference(alice, "pr-random", "random")
    versions = [validated(slow), validated(other)]
    assert [v.status for v in versions] == ["active", "active"]
    match = match_services.create_match(ladder_for("packet_row", 2), versions, seed=5)

    match_tasks.run_match.apply(args=(match.pk,))
    match.refresh_from_db()
    assert (match.status, match.attempts) == (Match.Status.FINISHED, 0), match.status_reason
    seats = {s.bot_version_id: s for s in match.seats.all()}
    assert seats[slow.pk].forfeit_reason.startswith("thinking_budget:")
    assert seats[other.pk].forfeit_reason == ""
    assert match_selectors.ranking_of(match) is not None
