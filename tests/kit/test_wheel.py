"""The kit's wheel: what it holds, that it installs alone, and how the site serves it."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from bots.kit import (
    KIT_MODULES,
    SOURCE_ROOT,
    build_wheel,
    kit_files,
    kit_mismatch,
    kit_version,
    wheel_name,
)
from tests.factories import web_client


@pytest.fixture(scope="module")
def wheel() -> tuple[str, bytes]:
    return build_wheel()


def entries(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


def modules_of(names: list[str]) -> set[str]:
    """The importable modules among a wheel's file names."""
    found = set()
    for name in names:
        if name.endswith(".py") and "/reference/" not in name:
            parts = name[: -len(".py")].split("/")
            found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def test_every_build_is_the_same_wheel_with_a_correct_record(wheel):
    name, data = wheel
    assert name == wheel_name() == f"monsoon_kit-{kit_version()}-py3-none-any.whl"
    assert build_wheel.__wrapped__() == (name, data)  # a fresh build: same bytes
    files = entries(data)
    info = f"monsoon_kit-{kit_version()}.dist-info"
    assert f"Version: {kit_version()}" in files[f"{info}/METADATA"].decode()
    assert "Tag: py3-none-any" in files[f"{info}/WHEEL"].decode()
    assert "monsoon = workers.cli:main" in files[f"{info}/entry_points.txt"].decode()
    rows = list(csv.reader(io.StringIO(files[f"{info}/RECORD"].decode())))
    assert {row[0] for row in rows} == set(files)
    for path, digest, size in rows:
        if path == f"{info}/RECORD":
            assert digest == size == ""
            continue
        expected = base64.urlsafe_b64encode(hashlib.sha256(files[path]).digest()).rstrip(b"=")
        assert (digest, int(size)) == (f"sha256={expected.decode()}", len(files[path]))


def test_the_wheel_holds_the_kit_and_nothing_of_the_server(wheel):
    files = entries(wheel[1])
    assert set(kit_files()) < set(files)
    assert {"bots/reference/random/main.py", "bots/starters/rust/src/main.rs"} < set(files)
    assert any(name.endswith("/schema.json") for name in files)
    tops = {name.split("/")[0] for name in files if "dist-info" not in name}
    assert tops == {"engine", "bots", "workers"}
    assert not [n for n in files if re.search(r"(__pycache__|\.pyc$|/target/|mybot\.jar)", n)]
    modules = modules_of(list(files))
    assert modules >= set(KIT_MODULES)
    assert not modules & {"workers.tasks", "workers.celery_app", "workers.matches.tasks"}


def test_the_import_contract_covers_every_module_of_the_kit(wheel):
    """pyproject's kit contract keeps Django and Celery out of these; a module added to the kit
    but not to the contract would go unchecked."""
    config = tomllib.loads((SOURCE_ROOT / "pyproject.toml").read_text())
    (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if "kit" in c["name"]]
    sources = contract["source_modules"]
    uncovered = {
        module
        for module in modules_of(list(entries(wheel[1])))
        if not any(module == s or module.startswith(f"{s}.") for s in sources)
    }
    # The package files of these two hold only their docstrings.
    assert uncovered == {"workers", "workers.matches"}
    for package in uncovered:
        source = (SOURCE_ROOT / package.replace(".", "/") / "__init__.py").read_text()
        assert "import" not in source.split('"""')[-1]


def test_every_module_of_the_wheel_imports_without_the_server(wheel, tmp_path):
    """Only the standard library and the unpacked wheel on the path (-I -S: no site-packages)."""
    with zipfile.ZipFile(io.BytesIO(wheel[1])) as archive:
        archive.extractall(tmp_path / "site")
    modules = sorted(modules_of(list(entries(wheel[1]))) - {"workers.seccomp"})
    script = (
        "import importlib, sys\n"
        f"sys.path.insert(0, {str(tmp_path / 'site')!r})\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "import workers.seccomp\n"
        "server = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('django', 'celery', 'ladder', 'rest_framework', 'numpy', 'orjson'))\n"
        "assert not server, server\n"
        "from workers.cli import main\n"
        "main(['--version'])\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"monsoon kit {kit_version()}"


def copy_engine(root: Path) -> Path:
    """The engine's sources as an installed kit holds them, under ``root``."""
    for path in (SOURCE_ROOT / "engine").rglob("*"):
        if path.suffix == ".py" or path.name == "schema.json":
            target = root / path.relative_to(SOURCE_ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    return root / "engine"


def test_the_kit_version_names_the_engine_and_changes_with_its_sources(tmp_path):
    version = kit_version()
    assert re.fullmatch(r"\d+\.\d+\.\d+\+g[0-9a-f]{10}", version)
    copy_engine(tmp_path / "installed")
    assert kit_version(tmp_path / "installed") == version  # an installed kit: the same version
    changed = copy_engine(tmp_path / "changed")
    (changed / "core.py").write_text((changed / "core.py").read_text() + "\n# a rule changed\n")
    assert kit_version(tmp_path / "changed") != version


def test_the_server_tells_an_old_or_different_kit_what_to_do():
    server = "1.2.0+gabcdef0123"
    assert kit_mismatch(server, server) is None
    assert "older than" in (kit_mismatch("1.1.9+gabcdef0123", server) or "")
    assert "newer than" in (kit_mismatch("1.10.0+gabcdef0123", server) or "")
    assert "other rules" in (kit_mismatch("1.2.0+g0000000000", server) or "")
    assert "/start/" in (kit_mismatch("nonsense\\x00", server) or "")


def test_the_start_page_links_the_wheel_and_the_site_serves_it(db, wheel):
    name, data = wheel
    page = web_client().get("/start/").content.decode()
    assert f'href="/start/{name}"' in page and kit_version() in page
    assert "../../../docs" not in page
    response = web_client().get(f"/start/{name}")
    assert response.status_code == 200 and response.content == data
    assert response["Content-Disposition"] == f'attachment; filename="{name}"'
    old = web_client().get("/start/monsoon_kit-0.9.0+g0000000000-py3-none-any.whl")
    assert old.status_code == 404


def test_the_api_warns_a_client_whose_kit_plays_other_rules(db):
    client = web_client()
    assert "X-Monsoon-Kit-Warning" not in client.get("/api/v1/games/")
    current = client.get("/api/v1/games/", HTTP_X_MONSOON_KIT=kit_version())
    assert "X-Monsoon-Kit-Warning" not in current
    old = client.get("/api/v1/games/", HTTP_X_MONSOON_KIT="0.0.1+g0000000000")
    assert "older than the engine" in old["X-Monsoon-Kit-Warning"]
    odd = client.get("/api/v1/games/", HTTP_X_MONSOON_KIT="x\u00ff" * 100)
    assert odd.status_code == 200 and "not one the server knows" in odd["X-Monsoon-Kit-Warning"]
