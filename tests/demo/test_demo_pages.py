"""The demo serves the site's own error pages, never Django's debug pages, and its static files.

Run in a fresh interpreter with the environment ``scripts/demo.py`` gives its processes, so the
settings are loaded as the demo's web server loads them.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
import django
django.setup()
from django.conf import settings
from django.core.management import call_command
from django.test import Client
call_command("migrate", verbosity=0)
client = Client(raise_request_exception=False, SERVER_NAME="localhost")
missing = client.get("/no-such-page/")
css = client.get("/static/web/site.css")
from django.test import RequestFactory
from django.views.defaults import server_error
failed = server_error(RequestFactory().get("/", SERVER_NAME="localhost"))
print(json.dumps({
    "debug": settings.DEBUG,
    "missing_status": missing.status_code,
    "missing": missing.content.decode(),
    "css_status": css.status_code,
    "failed_status": failed.status_code,
    "failed": failed.content.decode(),
}))
"""


def demo_module():
    spec = importlib.util.spec_from_file_location("demo_script", ROOT / "scripts" / "demo.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("demo_script", module)  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module


def test_the_demo_serves_the_sites_own_404_and_500_pages_not_the_debug_pages(tmp_path):
    demo = demo_module()
    data = tmp_path / "demo-data"
    demo.prepare_data(data, reset=False)
    env = demo.demo_environment(data, "127.0.0.1", no_sandbox=True)
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**env, "PATH": os.environ.get("PATH", "")},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["debug"] is False
    assert seen["missing_status"] == 404
    page = seen["missing"]
    assert "URLconf" not in page and "DEBUG = True" not in page  # Django's debug 404
    assert "Page not found" in page and "Monsoon" in page  # the site's own page
    assert seen["css_status"] == 200  # static files are still served
    assert seen["failed_status"] == 500
    assert "Something went wrong" in seen["failed"] and "/static/web/site.css" in seen["failed"]
