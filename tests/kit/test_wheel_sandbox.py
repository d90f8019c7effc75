"""The kit as a bot author installs it: the wheel in a venv of its own plays sandboxed matches.

The other kit tests import the wheel's modules; this one installs the wheel with pip into a
fresh virtual environment (no access to the checkout), adds its ``sandbox`` extra's one
dependency, and runs the installed ``monsoon`` command, which must start every bot in the
bubblewrap sandbox exactly as a worker does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from bots.kit import build_wheel

pytestmark = pytest.mark.e2e


def sandbox_missing() -> str | None:
    from workers.sandbox import sandbox_problem

    return sandbox_problem()


@pytest.fixture(scope="module")
def installed_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A venv holding the kit wheel and pyseccomp (the ``sandbox`` extra), nothing else."""
    problem = sandbox_missing()
    if problem:
        pytest.skip(f"no sandbox on this host: {problem}")
    root = tmp_path_factory.mktemp("kit-venv")
    name, data = build_wheel()
    wheel = root / name
    wheel.write_bytes(data)
    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=True, clear=True).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    # The extra's dependency as pip would have fetched it: one pure-Python module (ctypes).
    import pyseccomp

    site = next((env_dir / "lib").glob("python3*/site-packages"))
    shutil.copy(pyseccomp.__file__, site / "pyseccomp.py")
    return env_dir


def monsoon(env_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed command, with nothing of the checkout on its path."""
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return subprocess.run(
        [str(env_dir / "bin" / "monsoon"), *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_the_installed_kit_is_not_the_checkout(installed_kit, tmp_path):
    python = installed_kit / "bin" / "python"
    where = subprocess.run(
        [str(python), "-c", "import workers.sandbox, engine; print(engine.__file__)"],
        cwd=tmp_path,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(installed_kit) in where and sys.prefix not in where


PROBE = """import os, sys
print("probe", len([p for p in os.listdir("/proc") if p.isdigit()]), os.getuid(), os.getppid(),
      file=sys.stderr, flush=True)
"""
"""Prepended to a scaffolded bot: what the bot sees of the processes around it and who it is."""


def test_the_installed_kit_plays_a_sandboxed_match_with_reference_bots(installed_kit, tmp_path):
    made = monsoon(
        installed_kit, "new-bot", "packet_row", "probe", "--lang", "python", cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    main = tmp_path / "probe" / "main.py"
    main.write_text(PROBE + main.read_text())
    log = tmp_path / "game.json"
    done = monsoon(
        installed_kit,
        "play",
        "packet_row",
        "--seed",
        "7",
        "--bot",
        str(tmp_path / "probe"),
        "--bot",
        "greedy",
        "--log",
        str(log),
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "forfeited" not in done.stdout
    assert "decisions" in done.stdout
    # Sandboxed, seen from inside: a PID namespace of its own (no process of the host: at most
    # bubblewrap and the bot), a uid that is not the user's, and a parent inside the namespace.
    probe_line = next(
        line
        for line in json.loads(log.read_text())["result"]["stderr"][0].splitlines()
        if "probe" in line
    )
    _, processes, uid, parent = probe_line.split()
    assert int(processes) <= 2, probe_line
    assert int(uid) != os.getuid(), probe_line
    assert int(parent) <= 2, probe_line


@pytest.mark.parametrize("language", ["python", "javascript"])
def test_the_installed_kit_plays_a_new_bot_it_scaffolded(installed_kit, tmp_path, language):
    """The SDK starter imports ``bots.sdk`` from the installed kit inside the sandbox; the
    JavaScript starter needs nothing of it."""
    made = monsoon(installed_kit, "new-bot", "borneo", "mybot", "--lang", language, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    bot = tmp_path / "mybot"
    assert (bot / "monsoon.json").exists() or any(bot.iterdir())
    done = monsoon(
        installed_kit,
        "play",
        "borneo",
        "--seed",
        "3",
        "--bot",
        str(bot),
        "--bot",
        "random",
        "--bot",
        "greedy",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert "forfeited" not in done.stdout, done.stdout + done.stderr
