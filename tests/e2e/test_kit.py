"""Issue 27's kit end to end: from the wheel on ``/start/`` to a ranked match on the workers.

Persona: alice, who has never seen the repository. She downloads the kit the getting-started
page links, installs it into a fresh virtual environment that holds nothing else (no pip, no
Django, no checkout on the path), writes a bot with ``monsoon new-bot``, tests and plays it on
her machine, logs in and submits it with ``monsoon submit --wait``. A real Celery worker
validates it, the beat's matchmaker pairs it with bob's bot on the two-seat Packet Row ladder,
and ``monsoon status`` and ``monsoon logs`` show her the result.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from bots.kit import kit_version
from ladder.accounts.models import User
from ladder.bots.models import BotVersion
from ladder.ladders.models import Ladder
from ladder.matches.models import Match
from tests.e2e.stack import ROOT, Fleet, api_create_bot, api_upload, token_client, wait_for
from tests.factories import password_of
from tests.workers.sandbox_helpers import needs_sandbox

pytestmark = [
    needs_sandbox,
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
]
GAME, TABLE = "packet_row", 2


def install_kit_from_the_site(site: str, home: Path) -> Path:
    """Download the wheel the start page links and install it alone into a fresh venv."""
    page = urllib.request.urlopen(f"{site}/start/", timeout=60).read().decode()  # noqa: S310
    link = re.search(r'href="(/start/monsoon_kit-[^"]+\.whl)"', page)
    assert link is not None, "no kit download on /start/"
    wheel = home / link.group(1).rsplit("/", 1)[1]
    wheel.write_bytes(urllib.request.urlopen(site + link.group(1), timeout=60).read())  # noqa: S310
    venv = home / "monsoon-env"
    # No pip inside (fast): this test's pip installs into it, offline and with no dependency.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    pip = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python")]
    offline = ["--no-deps", "--no-index", "--disable-pip-version-check", "--quiet"]
    subprocess.run([*pip, "install", *offline, str(wheel)], check=True, timeout=300)
    return venv / "bin"


def test_the_kit_from_the_start_page_takes_a_bot_to_a_ranked_match(
    fleet: Fleet, live_server, alice: User, bob: User, tmp_path: Path
) -> None:
    Ladder.objects.exclude(game=GAME, num_players=TABLE).update(schedule_enabled=False)
    fleet.worker("w1", MONSOON_QUEUE_TARGET="2")
    # The beat's matchmaker from the start (it starts while alice installs): the ladder has no
    # table to fill until her bot is active beside bob's, the only other bot of the game.
    fleet.beat()
    # bob's bot, uploaded the plain way: the opponent the matchmaker will find.
    bob_api = token_client(bob.username)
    rival = api_upload(
        bob_api,
        api_create_bot(bob_api, "rival", GAME),
        (ROOT / "bots" / "reference" / "random" / "main.py").read_bytes(),
        "main.py",
    )
    site = str(live_server.url)
    home = tmp_path / "alice"
    home.mkdir()
    bin_dir = install_kit_from_the_site(site, home)
    env = {
        "PATH": f"{bin_dir}:/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "MONSOON_CONFIG": str(home / ".config" / "monsoon" / "config.json"),
        "MONSOON_PASSWORD": password_of(alice.username),
    }

    def kit(*argv: str, timeout: float = 300) -> str:
        done = subprocess.run(
            argv, cwd=home, env=env, capture_output=True, text=True, timeout=timeout, check=False
        )
        assert done.returncode == 0, (argv, done.stdout, done.stderr)
        assert "warning" not in done.stderr, done.stderr  # the kit is the server's own
        return done.stdout

    assert kit("monsoon", "--version").strip() == f"monsoon kit {kit_version()}"
    assert kit("python", "-c", "import engine, sys; print(engine.__file__)").startswith(
        str(bin_dir.parent)
    )
    kit("monsoon", "new-bot", GAME, "mybot")
    assert kit("python", "mybot/test_bot.py").strip().endswith("ok")
    played = kit("monsoon", "play", GAME, "--no-sandbox", "--bot", "mybot", "--bot", "greedy")
    assert "decisions" in played and "forfeit" not in played

    assert "as alice" in kit("monsoon", "login", "--site", site, "--username", alice.username)
    submitted = kit("monsoon", "submit", "mybot", "--bot", "kitbot", "--game", GAME, "--wait")
    assert "created bot kitbot" in submitted and "version 1 active" in submitted, submitted
    version = BotVersion.objects.get(bot__name="kitbot", bot__owner=alice)
    wait_for(
        lambda: BotVersion.objects.get(pk=rival["id"]).status == BotVersion.Status.ACTIVE,
        120,
        "bob's bot to be validated",
    )

    ranked = Match.objects.filter(
        status=Match.Status.FINISHED, ranked=True, seats__bot_version=version
    )
    wait_for(ranked.exists, 150, "a ranked match of kitbot played by the worker")
    fleet.stop_all()
    match = ranked.first()
    assert match is not None and match.worker.startswith("w1@")

    status = kit("monsoon", "status")
    row = next(line.split() for line in status.splitlines() if line.startswith("kitbot"))
    assert row[:4] == ["kitbot", GAME, "1", "active"] and int(row[5]) >= 1, status
    kit("monsoon", "logs", str(match.pk), "-o", "game.json")
    assert "reproduces" in kit("monsoon", "replay", "game.json")
    assert os.stat(env["MONSOON_CONFIG"]).st_mode & 0o077 == 0
