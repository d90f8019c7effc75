"""deploy/prometheus and deploy/grafana: checked by Prometheus' own promtool, and every metric
they name is one the code exports (a renamed metric would silence an alert without a word)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PROMETHEUS = ROOT / "deploy" / "prometheus"
GRAFANA = ROOT / "deploy" / "grafana"
DASHBOARD = GRAFANA / "dashboards" / "monsoon.json"


def promtool(*args: str, cwd: Path = PROMETHEUS) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("promtool")
    if binary is None:
        pytest.fail("promtool is not installed (scripts/ensure-services.sh installs prometheus)")
    return subprocess.run(
        [binary, *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False
    )


def test_alert_rules_pass_promtool_check_and_their_unit_tests():
    checked = promtool("check", "rules", "alerts.yml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    tested = promtool("test", "rules", "alerts.test.yml")
    assert tested.returncode == 0, tested.stdout + tested.stderr


def test_scrape_config_passes_promtool_check(tmp_path):
    # The token file is the operator's (not in git); promtool wants every file it names.
    for name in ("prometheus.yml", "alerts.yml"):
        shutil.copy(PROMETHEUS / name, tmp_path / name)
    (tmp_path / "metrics-token").write_text("a-token\n")
    checked = promtool("check", "config", "prometheus.yml", cwd=tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    config = yaml.safe_load((PROMETHEUS / "prometheus.yml").read_text())
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    assert jobs["monsoon-web"]["metrics_path"] == "/metrics/"
    assert jobs["monsoon-web"]["authorization"]["credentials_file"] == "metrics-token"
    assert "metrics-token" in (ROOT / ".gitignore").read_text()


def exported_names() -> set[str]:
    """Every metric family the code defines: the ladder's collector, the web's readiness and
    up gauges, the workers' metrics, and the django-prometheus families the dashboard reads."""
    sources = [
        *(ROOT / "ladder" / "operations").glob("*.py"),
        ROOT / "workers" / "metrics.py",
    ]
    names = set()
    for source in sources:
        names.update(re.findall(r'"(monsoon_[a-z_]+)"', source.read_text()))
        names.update(re.findall(r"b\"# TYPE (monsoon_[a-z_]+) ", source.read_text()))
    return names


def named_metrics(text: str) -> set[str]:
    return set(re.findall(r"\b(monsoon_[a-z_]+)", text))


def family(name: str) -> str:
    for suffix in ("_total", "_bucket", "_count", "_sum"):
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    return name


def test_alerts_and_dashboard_name_only_metrics_the_code_exports():
    exported = exported_names()
    assert {"monsoon_matches", "monsoon_queue_depth", "monsoon_worker_match_duration_seconds"} <= (
        exported
    )
    alerts = (PROMETHEUS / "alerts.yml").read_text()
    dashboard = DASHBOARD.read_text()
    unknown = {
        name
        for name in named_metrics(alerts) | named_metrics(dashboard)
        if family(name) not in exported and name not in exported
    }
    assert unknown == set()


def test_dashboard_is_grafana_json_with_a_query_in_every_panel():
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["uid"] and dashboard["title"]
    graphs = [panel for panel in dashboard["panels"] if panel["type"] != "row"]
    assert len(graphs) >= 10
    assert all(panel["targets"] and panel["targets"][0]["expr"] for panel in graphs)
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    provisioning = yaml.safe_load(
        (GRAFANA / "provisioning" / "dashboards" / "monsoon.yml").read_text()
    )
    assert provisioning["providers"][0]["options"]["path"] == "/var/lib/grafana/dashboards"


def test_compose_and_systemd_run_the_health_checks_that_exist():
    """The health checks the supervisors run name modules, endpoints and units that exist."""
    import importlib.util

    from ladder.operations.middleware import ENDPOINTS

    services = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())["services"]
    web = services["web"]["healthcheck"]["test"]
    assert web[:4] == ["CMD", "python", "-m", "ladder.operations.probe"]
    assert web[4].removeprefix("http://127.0.0.1:8000") in ENDPOINTS
    assert (
        "python -m workers.check --worker worker@" in services["worker"]["healthcheck"]["test"][1]
    )
    worker_name = services["worker"]["command"][services["worker"]["command"].index("-n") + 1]
    assert worker_name == "worker@%h"  # what the health check names: worker@$(hostname)
    for module in ("ladder.operations.probe", "workers.check"):
        assert importlib.util.find_spec(module) is not None
    units = ROOT / "deploy" / "systemd"
    for timer in units.glob("*.timer"):
        service = units / timer.name.replace(".timer", ".service")
        text = service.read_text()
        assert "Type=oneshot" in text and "/srv/monsoon/.venv/bin/python -m " in text
        assert any(
            f"-m {module}" in text for module in ("ladder.operations.probe", "workers.check")
        )
    assert {t.stem for t in units.glob("*.timer")} == {
        "monsoon-web-health",
        "monsoon-worker-health",
    }
    worker_unit = (units / "monsoon-worker.service").read_text()
    assert "ExecStartPre=/srv/monsoon/.venv/bin/python -m workers.check" in worker_unit
    for unit in ("monsoon-web.service", "monsoon-worker.service"):
        assert "Environment=PROMETHEUS_MULTIPROC_DIR=/run/" in (units / unit).read_text()
