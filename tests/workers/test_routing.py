"""Routing a match to a free worker that holds warm seats for its versions (``workers/routing.py``).

The advertisements and the router meet in a real Redis (a server of this module's own, on a
Unix socket); the worker processes are :class:`~workers.routing.Advertiser` objects with fake
warm seats. The real worker consuming its direct queue is in ``tests/e2e/test_routing.py``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Collection, Iterator
from pathlib import Path

import pytest
import redis
from celery.signals import task_postrun, task_prerun

from ladder.accounts.services import create_user
from tests.factories import make_active_version, make_bot, make_match
from workers import routing
from workers.celery_app import app
from workers.routing import REGISTRY, Advertiser, WarmRouter
from workers.tasks import reap


@pytest.fixture(scope="module")
def redis_socket(tmp_path_factory) -> Iterator[Path]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed (scripts/ensure-services.sh installs it)")
    folder = tmp_path_factory.mktemp("routing-redis")
    socket = folder / "redis.sock"
    proc = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", str(socket), "--save", "", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 10
    while not socket.exists():
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("redis-server did not start")
        time.sleep(0.01)
    yield socket
    proc.kill()
    proc.wait()


@pytest.fixture
def client(redis_socket) -> redis.Redis:
    client = redis.Redis(unix_socket_path=str(redis_socket))
    client.flushall()
    return client


class Seats:
    """A worker process's warm seats, as ``workers.seats.warm_versions`` reports them."""

    def __init__(self, *versions: int) -> None:
        self.versions = set(versions)

    def __call__(self) -> Collection[int]:
        return set(self.versions)


def idle_worker(
    client: redis.Redis, node: str, seats: Seats, *, ttl_seconds: float = 15, slots: int = 1
) -> Advertiser:
    """A worker process of ``node`` that has just finished a task, holding ``seats`` warm."""
    advertiser = Advertiser(
        warm_versions=seats, client=lambda: client, ttl_seconds=ttl_seconds, slots=slots
    )
    advertiser.task_started()
    advertiser.task_finished(node)
    return advertiser


def router(client: redis.Redis, seated: dict[int, list[int]]) -> WarmRouter:
    return WarmRouter(client=lambda: client, versions_of=seated.__getitem__)


def destination(route: dict | None) -> str | None:
    return None if route is None else route["queue"].name


def test_a_match_goes_to_the_free_worker_holding_its_versions_warm(client):
    idle_worker(client, "w1@host", Seats(1, 2))
    idle_worker(client, "w2@host", Seats(3, 4))
    route = router(client, {7: [3, 4]})
    assert destination(route("monsoon.run_match", (7,), {}, {})) == "w2@host.dq2"


def test_the_worker_holding_more_of_the_match_warm_is_preferred(client):
    idle_worker(client, "w1@host", Seats(1))
    idle_worker(client, "w2@host", Seats(1, 2))
    route = router(client, {7: [1, 2, 3]})
    assert destination(route("monsoon.run_match", (7,), {}, {})) == "w2@host.dq2"


def test_a_match_none_of_whose_versions_is_warm_goes_to_the_shared_queue(client):
    idle_worker(client, "w1@host", Seats(1, 2))
    assert router(client, {7: [5, 6]})("monsoon.run_match", (7,), {}, {}) is None


def test_a_busy_worker_is_not_routed_to(client):
    worker = idle_worker(client, "w1@host", Seats(1, 2))
    worker.task_started()
    assert router(client, {7: [1, 2]})("monsoon.run_match", (7,), {}, {}) is None
    worker.task_finished("w1@host")
    assert destination(router(client, {7: [1, 2]})("monsoon.run_match", (7,), {}, {}))


def test_no_more_matches_than_the_advertised_free_slots(client):
    idle_worker(client, "w1@host", Seats(1, 2), slots=2)
    route = router(client, {7: [1, 2], 8: [1, 2], 9: [1, 2]})
    routes = [destination(route("monsoon.run_match", (m,), {}, {})) for m in (7, 8, 9)]
    assert routes == ["w1@host.dq2", "w1@host.dq2", None]


def test_renewing_does_not_give_back_a_taken_slot(client):
    worker = idle_worker(client, "w1@host", Seats(1, 2))
    route = router(client, {7: [1, 2], 8: [1, 2]})
    assert destination(route("monsoon.run_match", (7,), {}, {})) == "w1@host.dq2"
    worker.renew()  # the timer, before the routed match has reached the process
    assert route("monsoon.run_match", (8,), {}, {}) is None


def test_an_advertisement_that_is_not_renewed_lapses(client):
    idle_worker(client, "w1@host", Seats(1, 2), ttl_seconds=0.05)  # a worker that died
    time.sleep(0.1)
    assert router(client, {7: [1, 2]})("monsoon.run_match", (7,), {}, {}) is None
    assert client.smembers(REGISTRY) == set()  # and its name is dropped


def test_a_renewed_advertisement_outlives_its_time_to_live(client):
    worker = idle_worker(client, "w1@host", Seats(1, 2), ttl_seconds=0.2)
    for _ in range(4):
        time.sleep(0.1)
        worker.renew()
    assert destination(router(client, {7: [1, 2]})("monsoon.run_match", (7,), {}, {}))


def test_a_lapsed_advertisement_of_an_idle_worker_is_written_again_on_renewal(client):
    worker = idle_worker(client, "w1@host", Seats(1, 2), ttl_seconds=0.05)
    client.flushall()  # Redis restarted without persistence
    worker.renew()
    assert destination(router(client, {7: [1, 2]})("monsoon.run_match", (7,), {}, {}))


def test_a_worker_with_nothing_warm_does_not_advertise_and_costs_the_sender_no_query(client):
    idle_worker(client, "w1@host", Seats())
    asked: list[int] = []

    def seated(match_id: int) -> list[int]:
        asked.append(match_id)
        return [1]

    route = WarmRouter(client=lambda: client, versions_of=seated)
    assert route("monsoon.run_match", (7,), {}, {}) is None
    assert asked == []
    assert client.keys("monsoon:*") == []


def test_a_worker_whose_seats_went_cold_withdraws(client):
    seats = Seats(1, 2)
    worker = idle_worker(client, "w1@host", seats)
    worker.task_started()
    seats.versions.clear()
    worker.task_finished("w1@host")
    assert router(client, {7: [1, 2]})("monsoon.run_match", (7,), {}, {}) is None


def test_other_tasks_and_senders_that_name_a_queue_are_left_alone(client):
    idle_worker(client, "w1@host", Seats(1, 2))
    route = router(client, {7: [1, 2]})
    assert route("monsoon.validate_bot_version", (7,), {}, {}) is None
    assert route("monsoon.run_match", (7,), {}, {"queue": "matches"}) is None
    assert destination(route("monsoon.run_match", (), {"match_id": 7}, {})) == "w1@host.dq2"


def test_a_redis_error_sends_to_the_shared_queue_and_pauses_routing(tmp_path):
    calls = []

    def unreachable() -> redis.Redis:
        calls.append(1)
        return routing.client_for(f"unix://{tmp_path}/nothing.sock")

    route = WarmRouter(client=unreachable, versions_of=lambda _m: [1, 2])
    assert route("monsoon.run_match", (7,), {}, {}) is None
    assert route("monsoon.run_match", (8,), {}, {}) is None
    assert calls == [1]  # the second send did not wait on Redis again


def test_a_database_error_sends_to_the_shared_queue(client):
    idle_worker(client, "w1@host", Seats(1, 2))

    def broken(_match_id: int) -> list[int]:
        raise RuntimeError("the database is away")

    assert (
        WarmRouter(client=lambda: client, versions_of=broken)("monsoon.run_match", (7,), {}, {})
        is None
    )


def test_an_advertiser_whose_redis_fails_keeps_its_process_working(tmp_path):
    down = routing.client_for(f"unix://{tmp_path}/nothing.sock")
    worker = Advertiser(warm_versions=Seats(1), client=lambda: down)
    worker.task_started()
    worker.task_finished("w1@host")
    worker.renew()
    worker.withdraw()


def test_a_pool_process_advertises_while_idle_between_tasks(client, monkeypatch):
    """The worker's signals: idle after a task (advertised), busy during one (withdrawn)."""
    monkeypatch.setattr(routing, "broker_redis", lambda: client)
    monkeypatch.setattr(routing, "seats_warm_versions", Seats(1, 2))
    routing.start_advertising()  # worker_process_init
    reap.push_request(hostname="w1@host")
    try:
        task_prerun.send(sender=reap, task_id="t1", task=reap, args=(), kwargs={})
        assert client.smembers(REGISTRY) == set()
        task_postrun.send(sender=reap, task_id="t1", task=reap, args=(), kwargs={}, retval=0)
        assert client.smembers(REGISTRY) == {f"w1@host/{os.getpid()}".encode()}
        task_prerun.send(sender=reap, task_id="t2", task=reap, args=(), kwargs={})
        assert client.smembers(REGISTRY) == set()
        task_postrun.send(sender=reap, task_id="t2", task=reap, args=(), kwargs={}, retval=0)
    finally:
        reap.pop_request()
        routing.stop_advertising()  # worker_process_shutdown
    assert client.smembers(REGISTRY) == set()


def test_a_broker_that_is_not_redis_turns_routing_off(monkeypatch):
    monkeypatch.setattr(app.conf, "broker_url", "filesystem://")
    assert routing.broker_redis() is None


def test_warm_versions_are_what_the_seat_pools_hold(monkeypatch):
    from workers import seats

    monkeypatch.setattr(seats, "warm_versions", lambda: {4, 5})
    assert routing.seats_warm_versions() == {4, 5}


@pytest.mark.django_db
def test_the_configured_routes_send_a_match_by_name_to_the_warm_worker(client, monkeypatch):
    """What ``send_task("monsoon.run_match", ...)`` and ``run_match.delay`` route through."""
    owner = create_user("alice")
    versions = [make_active_version(make_bot(owner, f"b{i}", "packet_row")) for i in range(2)]
    match = make_match("packet_row", versions, seed=1)
    monkeypatch.setattr(routing.route_task, "client", lambda: client)
    monkeypatch.setattr(routing.route_task, "_paused_until", 0.0)
    route = app.amqp.router.route
    assert route({}, "monsoon.run_match", (match.pk,), {})["queue"].name == "matches"
    idle_worker(client, "w1@host", Seats(versions[1].pk))
    assert route({}, "monsoon.run_match", (match.pk,), {})["queue"].name == "w1@host.dq2"
    assert route({}, "monsoon.run_match", (match.pk,), {})["queue"].name == "matches"
    assert route({}, "monsoon.validate_bot_version", (1,), {})["queue"].name == "validation"
