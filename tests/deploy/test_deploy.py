"""deploy/ without Docker or systemd: every file parses and names only what exists.

Docker is not available where the suite runs, so the compose file, the Dockerfile and the
systemd units are checked for what can go stale silently: modules, config files and queues
(the environment variables: test_settings_table.py). The production settings' refusals
are checked in fresh interpreters, as the processes would load them.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import re
import runpy
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
ENV_EXAMPLE = DEPLOY / "monsoon.env.example"
GOOD_KEY = "k7Qz-" * 10  # 50 characters, five distinct: the least Django accepts
APP_SERVICES = {"migrate", "web", "worker", "beat", "flower"}
MONITORING = {"prometheus", "grafana"}  # the compose file's `monitoring` profile


def example_names() -> dict[str, str]:
    """NAME -> value, commented-out examples included (they document optional settings)."""
    found = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        match = re.match(r"#?\s*([A-Z][A-Z0-9_]+)=(.*)$", line.strip())
        if match:
            found[match.group(1)] = match.group(2)
    return found


class _UniqueKeyLoader(yaml.SafeLoader):
    """YAML keeps the last of two equal keys silently (a service's second ``environment:``
    block dropped its first); this loader refuses them."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        keys = [key.value for key, _ in node.value if key.tag != "tag:yaml.org,2002:merge"]
        twice = {key for key in keys if keys.count(key) > 1}
        if twice:
            raise yaml.constructor.ConstructorError(
                None, None, f"keys given twice: {sorted(twice)}", node.start_mark
            )
        return super().construct_mapping(node, deep=deep)


def compose() -> dict:
    return yaml.load((DEPLOY / "docker-compose.yml").read_text(), Loader=_UniqueKeyLoader)  # noqa: S506 (a SafeLoader)


def test_compose_services_commands_and_sandbox_privileges():
    spec = compose()
    services = spec["services"]
    assert set(services) == {"db", "redis", "nginx", *APP_SERVICES, *MONITORING}
    for name in MONITORING:
        assert services[name]["profiles"] == ["monitoring"]
        for volume in services[name]["volumes"]:
            source = volume.split(":")[0]
            assert not source.startswith(".") or (DEPLOY / source).is_dir(), volume
    for name in APP_SERVICES:
        service = services[name]
        assert service["env_file"] == "monsoon.env"
        build = service["build"]
        assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
        command = service["command"]
        if command[0] == "celery":
            assert command[1:3] == ["-A", "workers.celery_app"]
            assert importlib.util.find_spec("workers.celery_app") is not None
        elif command[0] == "gunicorn":
            assert (ROOT / command[command.index("-c") + 1]).is_file()
        else:
            assert command[:2] == ["python", "manage.py"]
    worker = services["worker"]["command"]
    queues = set(worker[worker.index("-Q") + 1].split(","))
    # The routers: workers.routing's (a worker's own direct queue, consumed without -Q), then
    # the table of shared queues.
    table = next(r for r in settings.CELERY_TASK_ROUTES if isinstance(r, dict))
    routed = {route["queue"] for route in table.values()}
    assert queues == routed | {settings.CELERY_TASK_DEFAULT_QUEUE}
    assert set(services["worker"]["security_opt"]) == {
        "seccomp=unconfined",
        "apparmor=unconfined",
        "systempaths=unconfined",
    }
    assert services["worker"]["user"] == "root"
    assert services["web"]["user"] == services["beat"]["user"] == "monsoon"
    # Uploads written by the web process are what the worker reads.
    assert "media:/data/media" in services["web"]["volumes"]
    assert "media:/data/media" in services["worker"]["volumes"]
    assert services["flower"]["ports"] == ["127.0.0.1:5555:5555"]
    # Slow clients meet nginx only (issue 25): the one port open to the world is nginx's.
    public = {
        name: port
        for name, service in services.items()
        for port in service.get("ports", [])
        if not str(port).startswith("127.0.0.1:")
    }
    assert public == {"nginx": "80:80"}
    assert services["nginx"]["depends_on"]["web"]["condition"] == "service_started"
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["web"]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_flower_is_an_optional_extra():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert any(dep.startswith("flower") for dep in project["optional-dependencies"]["ops"])
    assert not any(dep.startswith("flower") for dep in project["dependencies"])
    assert "'.[ops]'" in (DEPLOY / "Dockerfile").read_text()


def test_dockerfile_copies_what_exists_and_installs_the_sandbox():
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim-bookworm AS app$", text, re.M)
    for line in re.findall(r"^COPY (?!--from=)(.+)$", text, re.M):
        *sources, _target = line.split()
        for source in sources:
            assert (ROOT / source).exists(), source
    for package in (
        "bubblewrap",
        "libseccomp2",
        "python3-minimal",
        "python3.11",
        "nodejs",
        "default-jre-headless",
        "libstdc++6",
    ):
        assert package in text
    services = compose()["services"].values()
    volumes = {v.split(":")[1] for service in services for v in service.get("volumes", [])}
    assert "/data/media" in volumes and "MEDIA_ROOT=/data/media" in text


def test_gunicorn_config_reads_its_environment(monkeypatch):
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    monkeypatch.setenv("GUNICORN_BIND", "127.0.0.1:9000")
    config = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert (config["workers"], config["bind"], config["worker_class"]) == (
        3,
        "127.0.0.1:9000",
        "gthread",
    )
    module = config["wsgi_app"].split(":")[0]
    assert importlib.util.find_spec(module) is not None
    monkeypatch.delenv("WEB_CONCURRENCY")
    assert runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["workers"] >= 1


@pytest.mark.parametrize("unit", ["monsoon-web", "monsoon-worker", "monsoon-beat"])
def test_systemd_units_run_what_the_checkout_installs(unit):
    text = (DEPLOY / "systemd" / f"{unit}.service").read_text().replace("\\\n", " ")
    lines = dict(
        line.split("=", 1) for line in text.splitlines() if "=" in line and not line.startswith("#")
    )
    assert lines["EnvironmentFile"] == "/etc/monsoon/monsoon.env"
    assert lines["WorkingDirectory"] == "/srv/monsoon"
    argv = shlex.split(lines["ExecStart"])
    program = Path(argv[0])
    assert program.parent == Path("/srv/monsoon/.venv/bin")
    assert (Path(sys.executable).parent / program.name).exists(), program.name
    if program.name == "celery":
        assert argv[1:3] == ["-A", "workers.celery_app"]
        if "-n" in argv:  # a lone %h would be systemd's home directory, not the host name
            assert "%%h" in argv[argv.index("-n") + 1]
    else:
        assert (ROOT / argv[argv.index("-c") + 1]).is_file()
    assert lines["User"] == ("root" if unit == "monsoon-worker" else "monsoon")


def run_settings(code: str, **env: str) -> subprocess.CompletedProcess:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(
            ("MONSOON_", "CELERY_", "DATABASE", "SECRET", "ALLOWED", "DEBUG", "DJANGO_")
        )
    }
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        timeout=60,
    )


PRODUCTION = {
    "SECRET_KEY": GOOD_KEY,
    "ALLOWED_HOSTS": "monsoon.example",
    "DATABASE_URL": "postgres://u@db:5432/monsoon",
    "CACHE_URL": "redis://cache:6379/1",
}


@pytest.mark.parametrize(
    "env, complaint",
    [
        ({**PRODUCTION, "MONSOON_SANDBOX": "none"}, "MONSOON_SANDBOX=none"),
        ({**PRODUCTION, "MONSOON_ALLOW_UNBOUNDED_SEATS": "1"}, "MONSOON_ALLOW_UNBOUNDED_SEATS=1"),
        ({**PRODUCTION, "DATABASE_URL": "sqlite:////tmp/x.sqlite3"}, "must name a PostgreSQL"),
        ({**PRODUCTION, "CELERY_BROKER_URL": "filesystem://"}, "needs MONSOON_BROKER_FOLDER"),
        ({**PRODUCTION, "CACHE_URL": ""}, "CACHE_URL must name a shared"),
    ],
)
def test_production_refuses_unsafe_settings(env, complaint):
    result = run_settings("import ladder.settings", **env)
    assert result.returncode != 0
    assert complaint in result.stderr


def test_the_address_login_limit_is_five_pair_limits_unless_set():
    code = (
        "import ladder.settings as s; "
        "print(s.MONSOON_LOGIN_FAILURE_LIMIT, s.MONSOON_LOGIN_ADDRESS_FAILURE_LIMIT)"
    )
    derived = run_settings(code, **PRODUCTION, MONSOON_LOGIN_FAILURE_LIMIT="4")
    assert derived.returncode == 0, derived.stderr
    assert derived.stdout.split() == ["4", "20"]
    chosen = run_settings(code, **PRODUCTION, MONSOON_LOGIN_ADDRESS_FAILURE_LIMIT="7")
    assert chosen.returncode == 0, chosen.stderr
    assert chosen.stdout.split() == ["10", "7"]


def test_sqlite_in_production_only_when_allowed_and_tuned_for_concurrent_writers(tmp_path):
    code = "import ladder.settings as s; print(s.DATABASES['default'].get('OPTIONS'))"
    sqlite = {**PRODUCTION, "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3"}
    allowed = run_settings(code, **sqlite, MONSOON_ALLOW_SQLITE="1")
    assert allowed.returncode == 0, allowed.stderr
    assert "journal_mode=WAL" in allowed.stdout and "'IMMEDIATE'" in allowed.stdout
    postgres = run_settings(code, **PRODUCTION)
    assert postgres.returncode == 0, postgres.stderr
    assert "WAL" not in postgres.stdout


def test_filesystem_broker_uses_one_absolute_folder(tmp_path):
    code = "import ladder.settings as s; print(repr(s.CELERY_BROKER_TRANSPORT_OPTIONS))"
    result = run_settings(
        code,
        DEBUG="1",
        CELERY_BROKER_URL="filesystem://localhost/",
        MONSOON_BROKER_FOLDER=str(tmp_path / "broker"),
    )
    assert result.returncode == 0, result.stderr
    options = ast.literal_eval(result.stdout)  # a dict literal we printed ourselves
    assert (
        options["data_folder_in"]
        == options["data_folder_out"]
        == str(tmp_path / "broker" / "queue")
    )
    for key in ("data_folder_in", "processed_folder", "control_folder"):
        assert Path(options[key]).is_dir()
    assert options["visibility_timeout"] > 0


def test_the_example_secret_key_is_refused_with_the_command_for_a_good_one():
    env = {**PRODUCTION, "SECRET_KEY": example_names()["SECRET_KEY"]}
    result = run_settings("import ladder.settings", **env)
    assert result.returncode != 0
    assert "placeholder" in result.stderr
    assert "secrets.token_urlsafe(50)" in result.stderr


def test_example_environment_passes_django_deploy_checks():
    # The example's SECRET_KEY is a placeholder the settings refuse (tested below).
    env = {
        **example_names(),
        "DATABASE_URL": "postgres://u@127.0.0.1:1/unused",
        "SECRET_KEY": GOOD_KEY,
    }
    env = {k: v for k, v in env.items() if v and not k.startswith("AWS_")}
    result = run_settings(
        "import sys; from django.core.management import execute_from_command_"
        "line as run; run(['manage.py', 'check', '--deploy'])",
        DJANGO_SETTINGS_MODULE="ladder.settings",
        **env,
    )
    assert result.returncode == 0, result.stderr
    # HSTS for subdomains and preloading are each site's own decision (off in the example).
    warnings = set(re.findall(r"\((security\.W\d+)\)", result.stderr + result.stdout))
    assert warnings <= {"security.W005", "security.W021"}, result.stderr


def _directives(text: str, name: str) -> list[str]:
    return re.findall(rf"^\s*{name}\s+([^;]+);", text, re.M)


def test_nginx_site_limits_match_django_and_gunicorn():
    """deploy/nginx/monsoon.conf repeats limits the code sets; they must not drift apart."""
    from ladder.core.body_limits import MULTIPART_OVERHEAD_BYTES, UPLOAD_PATHS

    site = (DEPLOY / "nginx" / "monsoon.conf").read_text()
    gunicorn = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    sizes = [int(v.removesuffix("k")) * 1024 for v in _directives(site, "client_max_body_size")]
    upload = settings.MONSOON_UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD_BYTES
    assert sizes == [settings.DATA_UPLOAD_MAX_MEMORY_SIZE, upload, upload]
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == settings.MONSOON_REQUEST_MAX_BYTES
    # The upload locations are body_limits' UPLOAD_PATHS, written in nginx's regex dialect.
    locations = re.findall(r"^\s*location ~ (\S+) \{", site, re.M)
    assert [loc.replace("[0-9]+", "\\d+") for loc in locations] == [
        pattern.pattern for pattern in UPLOAD_PATHS
    ]
    assert _directives(site, "proxy_read_timeout") == [f"{gunicorn['timeout']}s"]
    assert _directives(site, "proxy_request_buffering") == ["on"]
    for timeout in ("client_body_timeout", "client_header_timeout", "send_timeout"):
        (value,) = _directives(site, timeout)
        assert int(value.removesuffix("s")) <= 10, timeout
    (buffers,) = _directives(site, "large_client_header_buffers")
    size = int(buffers.split()[1].removesuffix("k")) * 1024
    assert gunicorn["limit_request_line"] < size and gunicorn["limit_request_field_size"] < size
    # Static files: where the systemd set-up's STATIC_ROOT is and the proxy image copies them.
    assert _directives(site, "alias") == ["/srv/monsoon/staticfiles/"]
    assert "/srv/monsoon/staticfiles" in (DEPLOY / "Dockerfile").read_text()
    assert "STATIC_ROOT=/srv/monsoon/staticfiles" in (ROOT / "docs" / "deploy.md").read_text()


def test_proxy_image_points_the_site_at_the_web_service():
    """The Dockerfile's proxy stage rewrites the site's upstream line for the compose network;
    that line must be there to rewrite, and the compose file must build that stage."""
    text = (DEPLOY / "Dockerfile").read_text()
    stages = re.findall(r"^FROM \S+(?: AS (\S+))?$", text, re.M)
    assert stages[:2] == ["app", "proxy"]
    services = compose()["services"]
    assert services["nginx"]["build"]["target"] == "proxy"
    assert services["web"]["build"]["target"] == "app"
    site = (DEPLOY / "nginx" / "monsoon.conf").read_text()
    assert re.findall(r"^\s*server (\S+);", site, re.M) == ["127.0.0.1:8000"]
    assert "server web:8000;" in text
    assert services["web"]["environment"]["GUNICORN_BIND"] == "0.0.0.0:8000"
