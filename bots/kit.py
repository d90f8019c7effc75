"""The bot authors' kit: a wheel of the engine, the SDK, the runner and the ``monsoon`` command.

A bot author installs it with ``pip install monsoon_kit-<version>-py3-none-any.whl`` (served by
the site at ``/start/``) and plays, tests and submits bots without a checkout, Django, Celery or
a database. The wheel is built here from an explicit list of modules (:data:`KIT_MODULES`, kept
free of Django and Celery by an import-linter contract in ``pyproject.toml``) with the standard
library's ``zipfile``: sorted entries and fixed timestamps, so every web process builds the same
bytes. The kit's version is the engine's version plus a hash of the engine's sources
(:func:`kit_version`), computed alike from a checkout and from an installed kit, so the server
can tell a client whose rules differ from its own (:func:`kit_mismatch`).

Only the standard library is imported: this module ships in the kit.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import io
import re
import zipfile
from pathlib import Path

from engine import ENGINE_VERSION

SOURCE_ROOT = Path(__file__).resolve().parents[1]
"""The folder holding the ``engine``, ``bots`` and ``workers`` packages (a checkout or a
site-packages directory)."""
DIST_NAME = "monsoon_kit"
KIT_HEADER = "X-Monsoon-Kit"
"""The request header in which ``monsoon`` sends its kit version to the API."""
KIT_WARNING_HEADER = "X-Monsoon-Kit-Warning"
"""The response header in which the API says the client's kit differs from the server's."""

KIT_PACKAGES = ("engine",)
"""Packages shipped whole (every module and ``schema.json``): the rules."""
KIT_MODULES = (
    "bots",
    "bots.builtin",
    "bots.greedy",
    "bots.greedy.batavia",
    "bots.greedy.borneo",
    "bots.greedy.east_indiaman",
    "bots.greedy.packet_row",
    "bots.kit",
    "bots.manifest",
    "bots.mcts",
    "bots.sdk",
    "bots.starters",
    "bots.state_codec",
    "workers",
    "workers.bench",
    "workers.cgroups",
    "workers.cli",
    "workers.cli.bots",
    "workers.cli.commands",
    "workers.cli.origin",
    "workers.cli.remote",
    "workers.cputime",
    "workers.launch",
    "workers.matches",
    "workers.matches.protocol",
    "workers.matches.records",
    "workers.matches.reference",
    "workers.matches.runner",
    "workers.sandbox",
    "workers.seccomp",
    "workers.staging",
)
"""Every other module of the kit, by name: the server's (Django, Celery) are left out."""
KIT_DATA = ("bots/reference", "bots/starters")
"""Folders of non-module files: the reference bots' programs and the starter kits."""
DATA_SKIPPED = re.compile(
    r"(^|/)(__pycache__|target|classes|mybot|mybot\.jar|Cargo\.lock|\.[^/]*)(/|$)|\.(pyc|tar\.gz)$"
)
"""Build output and hidden files of the data folders (as ``copy_kit`` skips them)."""
ENTRY_POINTS = "[console_scripts]\nmonsoon = workers.cli:main\n"
FIXED_TIME = (2000, 1, 1, 0, 0, 0)


def module_path(name: str, root: Path = SOURCE_ROOT) -> Path:
    """The source file of a module of the kit (a package's ``__init__.py``)."""
    base = root.joinpath(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _package_files(package: str, root: Path) -> list[Path]:
    folder = root / package
    return sorted(
        path
        for path in folder.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and (path.suffix == ".py" or path.name == "schema.json")
    )


def kit_files(root: Path = SOURCE_ROOT) -> dict[str, Path]:
    """Every file of the kit: its name inside the wheel -> the file on disk."""
    files: list[Path] = []
    for package in KIT_PACKAGES:
        files += _package_files(package, root)
    files += [module_path(name, root) for name in KIT_MODULES]
    for folder in KIT_DATA:
        for path in (root / folder).rglob("*"):
            relative = path.relative_to(root).as_posix()
            if path.is_file() and not DATA_SKIPPED.search(relative):
                files.append(path)
    return {path.relative_to(root).as_posix(): path for path in sorted(set(files))}


@functools.cache
def _engine_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in _package_files("engine", root):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:10]


def kit_version(root: Path = SOURCE_ROOT) -> str:
    """``<engine version>+g<hash of the engine's sources>``: equal kits play equal rules."""
    return f"{ENGINE_VERSION}+g{_engine_digest(root)}"


def wheel_name(version: str | None = None) -> str:
    return f"{DIST_NAME}-{version or kit_version()}-py3-none-any.whl"


def _release(version: str) -> tuple[int, ...]:
    head = version.partition("+")[0]
    return tuple(int(part) for part in head.split(".") if part.isdigit())


def kit_mismatch(client: str, server: str | None = None) -> str | None:
    """None when the client's kit plays the server's rules, else what to tell its user."""
    server = server or kit_version()
    if client == server:
        return None
    where = "download the current kit from the site's /start/ page"
    if not re.fullmatch(r"\d+(\.\d+)*\+g[0-9a-f]+", client):
        return f"this kit version {client!r} is not one the server knows: {where}"
    if _release(client) < _release(server):
        age = "older than"
    elif _release(client) > _release(server):
        age = "newer than"
    else:
        age = "built from other rules than"
    return (
        f"your monsoon kit {client} is {age} the engine the server runs ({server}): local "
        f"matches may not play as ladder matches do; {where}"
    )


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _metadata(version: str) -> str:
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {DIST_NAME.replace('_', '-')}\n"
        f"Version: {version}\n"
        "Summary: Monsoon bot authors' kit: the game engines, the bot SDK, the match runner "
        "and the monsoon command\n"
        "Requires-Python: >=3.11\n"
        "Provides-Extra: sandbox\n"
        'Requires-Dist: pyseccomp>=0.1.2; extra == "sandbox"\n'
        "\n"
        "Play, test and submit Monsoon bots without the ladder server: "
        "`monsoon new-bot`, `monsoon play`, `monsoon login`, `monsoon submit`.\n"
    )


@functools.cache
def build_wheel(root: Path = SOURCE_ROOT) -> tuple[str, bytes]:
    """The kit's wheel (file name, bytes); the same bytes for the same sources."""
    version = kit_version(root)
    info = f"{DIST_NAME}-{version}.dist-info"
    entries = {name: path.read_bytes() for name, path in kit_files(root).items()}
    entries[f"{info}/METADATA"] = _metadata(version).encode()
    entries[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: monsoon (bots.kit)\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n"
    )
    entries[f"{info}/entry_points.txt"] = ENTRY_POINTS.encode()
    entries[f"{info}/top_level.txt"] = b"bots\nengine\nworkers\n"
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in entries.items())
    entries[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as wheel:
        # dist-info last, as installers expect; everything else in sorted order.
        for name in sorted(entries, key=lambda n: (n.startswith(info), n)):
            entry = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            entry.external_attr = 0o100644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, entries[name])
    return wheel_name(version), buffer.getvalue()
