"""Starter kits in five languages: one folder each, copied by ``monsoon new-bot --lang``.

Each kit speaks the JSON-lines protocol (``docs/bot-protocol.md``) with its language's standard
library only and plays a uniformly random legal action in any game. This module says how to
build each one and what to upload (``docs/languages.md``); the tests in ``tests/starters/`` and
``benchmarks/starter_startup.py`` use it, so the commands documented are the commands tested.
It imports only the standard library.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path

KITS_DIR = Path(__file__).resolve().parent
MANIFEST = "monsoon.json"


@dataclass(frozen=True)
class Kit:
    """One language's starter: how to build it and which files make the upload."""

    language: str
    toolchain: tuple[str, ...]
    """Programs the build needs on the developer's machine (none for scripted languages)."""
    build: tuple[tuple[str, ...], ...]
    """Commands run in the kit's directory, in order, to produce :attr:`upload`."""
    upload: tuple[str, ...]
    """The files of the upload besides ``monsoon.json`` (the prebuilt program for compiled
    languages: the worker never compiles)."""

    @property
    def source(self) -> Path:
        return KITS_DIR / self.language

    def command(self) -> list[str]:
        """The command the kit's manifest runs."""
        manifest = json.loads((self.source / MANIFEST).read_text())
        return list(manifest["command"])


KITS = {
    kit.language: kit
    for kit in (
        Kit("python", (), (), ("main.py",)),
        Kit("javascript", (), (), ("main.js",)),
        Kit(
            "cpp",
            ("g++",),
            (("g++", "-std=c++17", "-O2", "-static", "-s", "-o", "mybot", "main.cpp"),),
            ("mybot",),
        ),
        Kit(
            "rust",
            ("cargo",),
            (("cargo", "build", "--release", "--offline"), ("cp", "target/release/mybot", "mybot")),
            ("mybot",),
        ),
        Kit(
            "java",
            ("javac", "jar"),
            (
                ("javac", "--release", "17", "-d", "classes", "Main.java"),
                (
                    "jar",
                    "--create",
                    "--file",
                    "mybot.jar",
                    "--main-class",
                    "Main",
                    "-C",
                    "classes",
                    ".",
                ),
            ),
            ("mybot.jar",),
        ),
    )
}
LANGUAGES = tuple(KITS)


class BuildFailed(RuntimeError):
    """A kit's documented build command failed (its output is in the message)."""


def missing_toolchain(language: str) -> list[str]:
    """The build programs of ``language`` that are not on PATH (empty: it can be built)."""
    return [tool for tool in KITS[language].toolchain if shutil.which(tool) is None]


def copy_kit(language: str, destination: Path) -> Path:
    """Copy the kit's sources (not build output) into ``destination`` (absent or empty)."""
    shutil.copytree(
        KITS[language].source,
        destination,
        dirs_exist_ok=True,
        ignore=shutil.ignore_patterns(
            "target", "Cargo.lock", "classes", "mybot", "mybot.jar", "*.tar.gz"
        ),
    )
    return destination


def build(directory: Path, language: str, *, timeout_s: float = 600) -> None:
    """Run the kit's documented build commands in ``directory`` (a copy made by copy_kit)."""
    for command in KITS[language].build:
        done = subprocess.run(
            command, cwd=directory, capture_output=True, text=True, timeout=timeout_s, check=False
        )
        if done.returncode != 0:
            raise BuildFailed(
                f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}{done.stderr}"
            )


def upload_archive(directory: Path, language: str) -> bytes:
    """The .tar.gz to upload: the manifest and the kit's program, modes kept (as ``tar czf``)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name in (MANIFEST, *KITS[language].upload):
            archive.add(directory / name, arcname=name)
    return buffer.getvalue()
