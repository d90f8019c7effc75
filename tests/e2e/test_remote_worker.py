"""A worker on another host needs nothing shared on disk: only the broker, the database and the
artifact store.

The "other host" is a network namespace this test creates: loopback only, no route out, with
three relays in it (PostgreSQL, the tests' Redis, an S3 server standing in for the bucket), and
a mount namespace in which the ladder host's test folders are empty. alice uploads bots through
the API on the ladder host, which stores them in S3; the remote worker validates them and plays
ranked matches to the end, fetching every artifact from S3 into its own cache and writing every
game log to S3, where the API reads it back.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from engine.log import replay
from ladder.accounts.services import create_user
from ladder.bots.models import BotVersion
from ladder.fleet.models import WorkerNode
from ladder.matches import logstore
from ladder.matches import services as match_services
from ladder.matches.models import Match
from ladder.matches.selectors import ranking_of
from tests.e2e.remote_host import RemoteHost, S3Server, namespaces_unavailable
from tests.e2e.stack import (
    REFERENCE,
    Fleet,
    api_create_bot,
    api_upload,
    assert_recorded_exactly_once,
    finished_count,
    wait_for,
)
from tests.factories import api_client as client_for
from tests.factories import ladder_for
from tests.workers.sandbox_helpers import needs_sandbox

pytestmark = [
    needs_sandbox,
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(namespaces_unavailable() is not None, reason=str(namespaces_unavailable())),
]
ARTIFACTS_BUCKET = "monsoon-artifacts"
LOGS_BUCKET = "monsoon-match-logs"
BOTS = {"pr-random": "random", "pr-greedy": "greedy", "pr-random-b": "random"}


@pytest.fixture
def s3_server(tmp_path) -> Iterator[S3Server]:
    server = S3Server(tmp_path / "s3.log")
    server.start()
    for bucket in (ARTIFACTS_BUCKET, LOGS_BUCKET):
        server.client().create_bucket(Bucket=bucket)
    yield server
    server.stop()


@pytest.fixture
def ladder_host_on_s3(worker_env, settings, s3_server, tmp_path) -> Path:
    """This process (the web side) keeps artifacts and game logs in S3, as production does.

    Assigning ``settings.STORAGES`` sends ``setting_changed``, on which Django drops its cached
    storage backends (``storages`` and ``default_storage``), so uploads go to the new bucket.
    The media folder it would otherwise use is returned: it must stay empty.
    """
    settings.STORAGES = {
        **settings.STORAGES,
        "default": s3_server.storage(ARTIFACTS_BUCKET, file_overwrite=False),
        "match_logs": s3_server.storage(LOGS_BUCKET, file_overwrite=True),
    }
    settings.MEDIA_ROOT = tmp_path / "host-media"
    return settings.MEDIA_ROOT


@pytest.fixture
def remote_host(fleet, redis_server, s3_server) -> Iterator[RemoteHost]:
    """The namespace and its three relays; the fleet's workers stop before the relays do."""
    db = connection.settings_dict
    host = RemoteHost(f"monsoon-remote-{os.getpid()}")
    try:
        host.open(
            {
                "postgres": int(db["PORT"] or 5432),
                "redis": redis_server.port,
                "s3": s3_server.port,
            }
        )
        yield host
    finally:
        fleet.stop_all()  # a worker cut off from its broker and database stops slowly
        host.close()


@pytest.fixture
def remote_disk() -> Iterator[Path]:
    """The remote worker's own folder, outside everything the test's ladder host keeps."""
    folder = Path(tempfile.mkdtemp(prefix="monsoon-remote-worker-"))
    folder.chmod(0o755)  # the seats' uids read the artifact cache below it
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def remote_env(host: RemoteHost, disk: Path) -> dict[str, str]:
    """Everything the remote worker is told: three addresses, credentials and its own folders."""
    db = connection.settings_dict
    return {
        "DATABASE_URL": (f"postgres://{db['USER']}@127.0.0.1:{host.port('postgres')}/{db['NAME']}"),
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{host.port('redis')}/0",
        "AWS_S3_ENDPOINT_URL": f"http://127.0.0.1:{host.port('s3')}",
        "AWS_STORAGE_BUCKET_NAME": ARTIFACTS_BUCKET,
        "MATCH_LOG_BUCKET": LOGS_BUCKET,
        "AWS_ACCESS_KEY_ID": S3Server.ACCESS_KEY,
        "AWS_SECRET_ACCESS_KEY": S3Server.SECRET_KEY,
        "AWS_DEFAULT_REGION": S3Server.REGION,
        "MEDIA_ROOT": str(disk / "media"),
        "MONSOON_ARTIFACT_CACHE": str(disk / "artifact-cache"),
    }


def assert_only_relayed_services_reachable(
    host: RemoteHost, host_ports: dict[str, int], stray_port: int
) -> None:
    """Inside the namespace: loopback only, no route, and only the relays answer."""
    namespace = host.namespace
    assert namespace.interfaces() == ["lo"]
    assert namespace.routes() == ""
    for service in ("postgres", "redis", "s3"):
        assert namespace.probe(host.port(service)) == "connected", service
    for service, port in {**host_ports, "stray": stray_port}.items():
        assert namespace.probe(port) == "ConnectionRefusedError", service


def same_namespace(one: str, other: str) -> bool:
    """Whether two namespace files (``/proc/<pid>/ns/...``, ``/run/netns/...``) are one."""
    a, b = os.stat(one), os.stat(other)
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def upload_reference_bots(api) -> list[int]:
    """alice's uploads through the API: the ladder host stores each artifact in S3."""
    ids = []
    for name, reference in BOTS.items():
        ids.append(api_create_bot(api, name, "packet_row"))
        api_upload(api, ids[-1], (REFERENCE / reference / "main.py").read_bytes(), "main.py")
    return ids


def all_validated() -> bool:
    statuses = list(BotVersion.objects.values_list("status", flat=True))
    return len(statuses) == len(BOTS) and set(statuses) <= {"active", "rejected"}


def queue_round_robin(versions: list[BotVersion]) -> list[Match]:
    """Every pairing of the versions in both seat orders: six ranked packet_row matches."""
    ladder = ladder_for("packet_row", 2)
    pairs = [(a, b) for a in versions for b in versions if a != b]
    return [match_services.create_match(ladder, pair, seed=300 + i) for i, pair in enumerate(pairs)]


def test_a_worker_on_another_host_plays_ranked_matches_with_nothing_shared_on_disk(
    fleet: Fleet,
    ladder_host_on_s3,
    s3_server,
    remote_host,
    remote_disk,
    redis_server,
    tmp_path_factory,
):
    db = connection.settings_dict
    stray = socket.create_server(("127.0.0.1", 0))  # a host port no relay reaches
    with stray:
        assert_only_relayed_services_reachable(
            remote_host,
            {
                "postgres": int(db["PORT"] or 5432),
                "redis": redis_server.port,
                "s3": s3_server.port,
            },
            stray.getsockname()[1],
        )

    alice = create_user("alice", password="alice-password-1")
    api = client_for(alice)
    upload_reference_bots(api)
    stored = [key for key in s3_server.keys(ARTIFACTS_BUCKET) if key.startswith("bots/")]
    # Stored once per content: the two bots playing the same reference code share one object.
    assert len(stored) == len(set(BOTS.values())), stored

    hidden = tmp_path_factory.getbasetemp()  # the ladder host's media, logs, Redis folder
    assert not remote_disk.is_relative_to(hidden)
    fleet.worker(
        "remote",
        launcher=remote_host.namespace.launcher([hidden]),
        env=remote_env(remote_host, remote_disk),
    )
    worker_pid = fleet.procs["remote"].pid
    assert same_namespace(f"/proc/{worker_pid}/ns/net", remote_host.namespace.path)
    assert not same_namespace(f"/proc/{worker_pid}/ns/mnt", "/proc/self/ns/mnt")
    assert os.listdir(f"/proc/{worker_pid}/root{hidden}") == []  # the worker's view of it
    assert os.listdir(hidden)  # while the ladder host has its files there

    wait_for(all_validated, 120, "the remote worker to validate the three uploads")
    versions = list(BotVersion.objects.order_by("pk"))
    assert [v.status for v in versions] == ["active"] * len(BOTS), [
        (v.status, v.failure_reason) for v in versions
    ]
    matches = queue_round_robin(versions)
    wait_for(lambda: finished_count() == len(matches), 180, "the remote worker to play them all")

    assert_recorded_exactly_once(matches)
    assert {m.worker.split("@")[0] for m in matches} == {"remote"}
    assert [w.name.split("@")[0] for w in WorkerNode.objects.all()] == ["remote"]
    log_keys = set(s3_server.keys(LOGS_BUCKET))
    assert {logstore.smoke_object_name(v.pk) for v in versions} <= log_keys  # validation's
    for match in matches:
        assert logstore.object_name(match.pk) in log_keys
        response = api.get(f"/api/v1/matches/{match.pk}/log/")
        assert response.status_code == 200, response.content
        log = response.json()
        assert replay(log).ranking() == log["result"]["ranking"] == ranking_of(match)

    cache = remote_disk / "artifact-cache"
    # Both random bots are the same file, so one artifact: fetched once, from S3, into the cache.
    assert sorted(p.name for p in cache.iterdir()) == sorted({v.sha256 for v in versions})
    assert not (remote_disk / "media").exists()
    assert not ladder_host_on_s3.exists()
