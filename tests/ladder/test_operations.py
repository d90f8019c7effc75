"""The operations endpoints and the ladder's metrics, in process (the e2e test scrapes them for
real: tests/e2e/test_operations.py).

An operator's probes and Prometheus reach the web process by its own address, whatever the
site's host name; the metrics are for them only; and what fails is said, never hidden.
"""

from __future__ import annotations

import json
import logging
import socket
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from ladder.matches.models import Match, MatchSeat
from ladder.operations.logcontext import MatchContextFilter, bind_match, json_formatter
from tests.factories import make_bot, make_match, make_user, make_version, play_and_record

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def samples(body: bytes) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(body.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def test_probes_answer_on_any_host_name_and_readiness_names_the_failing_check(settings):
    """A probe's Host (the container's address) is not an allowed host; it still gets its
    answer, and a broker that does not answer is named in the JSON, with a 500."""
    probe = Client(HTTP_HOST="10.0.0.7:8000")
    live = probe.get("/health/live/")
    assert live.status_code == 200 and live.json()["status"] == "ok"
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/0"
    ready = probe.get("/health/ready/")
    assert ready.status_code == 500
    body = ready.json()
    assert body["status"] == "fail"
    failed = {name: verdict for name, verdict in body["checks"].items() if verdict != "OK"}
    assert list(failed) == ["broker"], body
    assert set(body["checks"]) == {"database", "cache", "broker"}
    assert "Redis did not answer" in failed["broker"]
    assert "127.0.0.1" not in json.dumps(body)  # the broker URL (and its password) stays hidden
    assert probe.post("/health/ready/").status_code == 405
    # The site itself still refuses a host it does not serve.
    assert probe.get("/api/v1/matches/").status_code == 400


def test_metrics_are_for_allowed_networks_or_the_bearer_token(settings):
    settings.MONSOON_METRICS_ALLOWED_NETWORKS = ["10.1.0.0/16"]
    settings.MONSOON_METRICS_TOKEN = "s3cret-metrics-token"
    assert Client(REMOTE_ADDR="10.1.2.3").get("/metrics/").status_code == 200
    assert Client(REMOTE_ADDR="10.2.0.1").get("/metrics/").status_code == 403
    # Through a proxy the peer address says nothing about the client: never admitted by it.
    proxied = Client(REMOTE_ADDR="10.1.2.3", HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert proxied.get("/metrics/").status_code == 403
    outsider = Client(REMOTE_ADDR="203.0.113.9")
    assert outsider.get("/metrics/", HTTP_AUTHORIZATION="Bearer wrong").status_code == 403
    token = outsider.get("/metrics/", HTTP_AUTHORIZATION="Bearer s3cret-metrics-token")
    assert token.status_code == 200


def test_ladder_metrics_count_matches_forfeits_by_reason_and_queues():
    alice = make_user("alice")
    versions = [make_version(make_bot(alice, f"b{i}", "packet_row")) for i in range(2)]
    played = make_match("packet_row", versions, seed=1)
    play_and_record(played)
    MatchSeat.objects.filter(match=played, seat=1).update(
        forfeit_code="timeout", forfeit_reason="timeout: decision 3: took 2100 ms"
    )
    make_match("packet_row", versions, seed=2)  # waits in the queue
    queued_at = timezone.now() - timedelta(seconds=90)
    Match.objects.filter(seed=2).update(status=Match.Status.QUEUED, queued_at=queued_at)
    body = Client(REMOTE_ADDR="127.0.0.1").get("/metrics/").content
    found = samples(body)
    finished = ("monsoon_matches_total", (("game", "packet_row"), ("status", "finished")))
    assert found[finished] == 1
    reason = (("game", "packet_row"), ("reason", "timeout"))
    assert found[("monsoon_forfeits_total", reason)] == 1
    assert found[("monsoon_queue_depth", (("queue", "ladder"),))] == 1
    assert found[("monsoon_queue_depth", (("queue", "validation"),))] == 0
    # Queued 90 s ago; the scrape comes a moment later (a busy host: a minute at most).
    assert 90 <= found[("monsoon_queue_oldest_age_seconds", (("queue", "ladder"),))] < 150
    assert found[("monsoon_queue_oldest_age_seconds", (("queue", "validation"),))] == 0
    assert found[("monsoon_ladder_metrics_up", ())] == 1
    assert found[("monsoon_readiness_check_ok", (("check", "database"),))] == 1


def test_json_log_lines_carry_the_match_the_worker_plays():
    record = logging.LogRecord("workers.x", logging.INFO, __file__, 1, "lease renewed", (), None)
    context_filter = MatchContextFilter()
    with bind_match(41, (7, 9), "worker@host/123"):
        assert context_filter.filter(record)
    line = json.loads(json_formatter().format(record))
    assert (line["match_id"], line["version_ids"], line["worker"]) == (
        41,
        [7, 9],
        "worker@host/123",
    )
    assert line["message"] == "lease renewed" and line["level"] == "INFO"
    outside = logging.LogRecord("workers.x", logging.INFO, __file__, 1, "idle", (), None)
    context_filter.filter(outside)
    assert json.loads(json_formatter().format(outside))["match_id"] is None


def test_console_lines_follow_sys_stderr_when_it_is_replaced(capsys):
    """The console handler once kept the stderr of its configuration time: after that stream
    was replaced and closed, every log line became "--- Logging error ---" in a user's
    terminal (seen in ``monsoon login`` run beside the server)."""
    import io
    import logging
    import sys

    root_console = [h for h in logging.getLogger().handlers if h.get_name() == "console"]
    assert root_console, "the settings' console handler is installed"
    handler = root_console[0]
    first = io.StringIO()
    saved = sys.stderr
    try:
        sys.stderr = first
        handler.handle(logging.makeLogRecord({"msg": "to the first", "levelno": logging.INFO}))
        first.close()
        sys.stderr = io.StringIO()
        handler.handle(logging.makeLogRecord({"msg": "to the second", "levelno": logging.INFO}))
        second = sys.stderr.getvalue()
    finally:
        sys.stderr = saved
    assert "to the second" in second and "Logging error" not in second
