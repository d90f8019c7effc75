"""Operating the ladder with the real thing: Prometheus (Debian's package) scrapes the web
process and a worker while matches are played, one of them forfeited on purpose; the worker
writes JSON logs whose lines about a match name it.

The web process is this test's live server (its ``/metrics/`` holds the request metrics and the
ladder's figures from the database); the worker serves its pool's metrics from its main process
(multiprocess mode, ``MONSOON_WORKER_METRICS_PORT``). The test asks Prometheus' HTTP API, as an
operator's dashboard or alert would, until it has seen the matches and the forfeit.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from ladder.fleet.models import WorkerNode
from ladder.lifecycle.types import forfeit_code
from ladder.matches.models import Match, MatchSeat
from tests.e2e.stack import ROOT, queue_matches, steady_versions, wait_for
from tests.factories import make_bot, make_user, make_version
from tests.workers.sandbox_helpers import needs_sandbox

pytestmark = [
    needs_sandbox,
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
]

CRASHER = b"import sys\nsys.exit('this bot crashes before its first move')\n"


def free_port() -> int:
    """A port nobody listens on now, for a server that cannot be told to bind port 0 and say."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Prometheus:
    """A prometheus server of the test's own: its config, its data folder, its port."""

    def __init__(self, workdir: Path, targets: dict[str, str]) -> None:
        binary = shutil.which("prometheus")
        if binary is None:
            pytest.fail("prometheus is not installed (scripts/ensure-services.sh installs it)")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        jobs = [
            {
                "job_name": job,
                "metrics_path": urllib.parse.urlsplit(url).path or "/metrics",
                "scrape_interval": "1s",
                "static_configs": [{"targets": [urllib.parse.urlsplit(url).netloc]}],
            }
            for job, url in targets.items()
        ]
        config = workdir / "prometheus.yml"
        config.write_text(json.dumps({"global": {"scrape_interval": "1s"}, "scrape_configs": jobs}))
        self.log = open(workdir / "prometheus.log", "wb")  # noqa: SIM115 (the process owns it)
        self.proc = subprocess.Popen(
            [
                binary,
                f"--config.file={config}",
                f"--storage.tsdb.path={workdir / 'data'}",
                f"--web.listen-address=127.0.0.1:{self.port}",
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_for(self._ready, 60, "prometheus to start")

    def _get(self, path: str) -> bytes | None:
        try:
            with urllib.request.urlopen(self.url + path, timeout=5) as answer:  # noqa: S310
                return bytes(answer.read())
        except OSError:
            return None

    def _ready(self) -> bool:
        return self._get("/-/ready") is not None

    def query(self, expr: str) -> dict[tuple[tuple[str, str], ...], float]:
        """An instant query's samples: labels (sorted, without __name__) to value."""
        body = self._get("/api/v1/query?" + urllib.parse.urlencode({"query": expr}))
        if body is None:
            return {}
        answer = json.loads(body)
        assert answer["status"] == "success", answer
        return {
            tuple(sorted((k, v) for k, v in s["metric"].items() if k != "__name__")): float(
                s["value"][1]
            )
            for s in answer["data"]["result"]
        }

    def value(self, expr: str) -> float:
        samples = self.query(expr)
        return sum(samples.values())

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


@pytest.fixture
def prometheus_for(tmp_path) -> Iterator[type[Prometheus]]:
    started: list[Prometheus] = []

    def start(targets: dict[str, str]) -> Prometheus:
        server = Prometheus(tmp_path, targets)
        started.append(server)
        return server

    yield start  # type: ignore[misc]
    for server in started:
        server.stop()


def test_prometheus_sees_matches_played_and_a_forfeit(fleet, live_server, prometheus_for, tmp_path):
    worker_port = free_port()
    fleet.worker(
        "ops",
        PROMETHEUS_MULTIPROC_DIR=str(tmp_path / "worker-metrics"),
        MONSOON_WORKER_METRICS_PORT=str(worker_port),
        MONSOON_WORKER_METRICS_ADDRESS="127.0.0.1",
        MONSOON_LOG_FORMAT="json",
    )
    prometheus = prometheus_for(
        {
            "monsoon-web": f"{live_server.url}/metrics/",
            "monsoon-worker": f"http://127.0.0.1:{worker_port}/metrics",
        }
    )
    wait_for(
        lambda: (
            prometheus.value('up{job="monsoon-web"}') == 1
            and prometheus.value('up{job="monsoon-worker"}') == 1
        ),
        60,
        "prometheus to scrape the web process and the worker",
    )

    alice = make_user("alice")
    steady = steady_versions(alice, 2)
    crasher = make_version(make_bot(alice, "crasher", "packet_row"), CRASHER)
    played = queue_matches(steady, 2) + queue_matches([steady[0], crasher], 1)

    def all_over() -> bool:
        return (
            not Match.objects.filter(pk__in=[m.pk for m in played])
            .exclude(status=Match.Status.FINISHED)
            .exists()
        )

    wait_for(all_over, 180, "the worker to play the three matches")
    forfeits = list(
        MatchSeat.objects.exclude(forfeit_reason="").values_list("forfeit_reason", flat=True)
    )
    assert len(forfeits) == 1 and "crashes before its first move" in str(
        MatchSeat.objects.get(bot_version=crasher).stderr + forfeits[0]
    ), forfeits
    reason = forfeit_code(forfeits[0])

    # JSON logs: the worker's lines about the forfeited match name it, its versions and worker.
    lines = [json.loads(line) for line in fleet.log("ops").splitlines() if line.startswith("{")]
    about = [line for line in lines if line.get("match_id") == played[-1].pk]
    assert about, fleet.log("ops")[-3000:]
    assert all(line["version_ids"] == [steady[0].pk, crasher.pk] for line in about)
    assert all(line["worker"].startswith("ops@") for line in about)

    # The ladder's figures (web, from the database) and the worker's own, through Prometheus.
    expected = {
        'monsoon_matches_total{game="packet_row", status="finished"}': 3,
        f'monsoon_forfeits_total{{game="packet_row", reason="{reason}"}}': 1,
        'monsoon_worker_matches_total{job="monsoon-worker", outcome="finished"}': 3,
        f'monsoon_worker_forfeits_total{{job="monsoon-worker", reason="{reason}"}}': 1,
        'monsoon_worker_match_decisions_count{job="monsoon-worker", game="packet_row"}': 3,
        # Every seat's peak memory, from its cgroup (the sandbox bounds seats with one).
        'monsoon_worker_seat_peak_memory_bytes_count{job="monsoon-worker"}': 6,
    }
    seen: dict[str, float] = {}

    def prometheus_saw_them() -> bool:
        seen.update({expr: prometheus.value(expr) for expr in expected})
        return seen == expected

    try:
        wait_for(prometheus_saw_them, 120, "prometheus to see three matches and one forfeit")
    except pytest.fail.Exception:
        pytest.fail(f"prometheus saw {seen}, not {expected}")
    assert prometheus.value('monsoon_queue_depth{queue="ladder"}') == 0
    assert prometheus.value('monsoon_worker_slots{worker=~"ops@.*"}') == 2
    assert prometheus.value('monsoon_readiness_check_ok{check="database"}') == 1
    # Requests by view and status (django-prometheus): a visitor reads the match list.
    with urllib.request.urlopen(f"{live_server.url}/api/v1/matches/", timeout=10) as answer:  # noqa: S310
        assert answer.status == 200
    wait_for(
        lambda: (
            prometheus.value(
                "django_http_responses_total_by_status_view_method_total"
                '{status="200", method="GET"}'
            )
            >= 1
        ),
        60,
        "prometheus to count the request by view and status",
    )

    # The web's health endpoints, and the worker's own check, as compose and systemd run them.
    with urllib.request.urlopen(f"{live_server.url}/health/ready/", timeout=10) as answer:  # noqa: S310
        ready = json.loads(answer.read())
    assert ready["status"] == "ok" and set(ready["checks"].values()) == {"OK"}, ready
    assert len(ready["checks"]) == 3  # database, cache, broker
    node = WorkerNode.objects.get(name__startswith="ops@")
    check = subprocess.run(
        [sys.executable, "-m", "workers.check", "--worker", node.name],
        cwd=ROOT,
        env=fleet.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert json.loads(check.stdout)["status"] == "ok"
