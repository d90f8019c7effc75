"""``monsoon login``, ``submit``, ``status`` and ``logs`` against the Django test server."""

from __future__ import annotations

import io
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ladder.bots import services as bot_services
from ladder.bots.models import BotVersion
from ladder.ladders.services import sync_ladders
from ladder.lifecycle import queue
from tests.factories import (
    GOOD_BOT,
    accept,
    make_bot,
    make_match,
    password_of,
    play_and_record,
)
from tests.helpers import use_match_log_folder
from workers.cli import main

pytestmark = pytest.mark.django_db(transaction=True)


def validate_now(task: str, version_id: int) -> None:
    """The workers of these tests: every upload passes at once (after its commit)."""
    if task == queue.VALIDATE_VERSION:
        bot_services.validate_version(version_id, validator=accept)


def reject_now(task: str, version_id: int) -> None:
    """Workers that reject every upload, as a forfeited smoke match would."""
    if task == queue.VALIDATE_VERSION:
        bot_services.validate_version(
            version_id,
            validator=lambda artifact: bot_services.ValidationOutcome(
                ok=False, reason="crash: closed its output: exited with status 1"
            ),
        )


@pytest.fixture
def site(live_server, settings, tmp_path, monkeypatch) -> str:
    sync_ladders()  # a transactional test's flush removed the rows the migrations made
    settings.MEDIA_ROOT = tmp_path / "media"
    use_match_log_folder(settings, tmp_path / "match-logs")
    monkeypatch.setattr(queue, "send", validate_now)
    monkeypatch.setenv("MONSOON_CONFIG", str(tmp_path / "config" / "monsoon.json"))
    monkeypatch.delenv("MONSOON_SITE", raising=False)
    return str(live_server.url)


def monsoon(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_login_stores_the_token_for_its_owner_alone(site, alice, capsys, monkeypatch, tmp_path):
    config = tmp_path / "config" / "monsoon.json"
    config.parent.mkdir()
    config.write_text("{}")
    config.chmod(0o644)  # a file left readable by others is made private again
    monkeypatch.setenv("MONSOON_PASSWORD", "wrong")
    code, _, err = monsoon(capsys, "login", "--site", site, "--username", "alice")
    assert code == 2 and "auth/token/: 400" in err and "Traceback" not in err
    monkeypatch.setenv("MONSOON_PASSWORD", password_of("alice"))
    code, out, _ = monsoon(capsys, "login", "--site", site, "--username", "alice")
    assert code == 0 and "as alice" in out
    stored = json.loads(config.read_text())
    assert stored["site"] == site and stored["token"] == alice.auth_token.key
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    code, out, _ = monsoon(capsys, "login", "--token", stored["token"])  # the stored site
    assert code == 0 and "as alice" in out


def test_a_bot_goes_from_folder_to_ranked_result_without_a_browser(
    site, alice, bob, capsys, monkeypatch, tmp_path
):
    code, _, err = monsoon(capsys, "status")
    assert code == 2 and "monsoon login" in err
    monsoon(capsys, "login", "--site", site, "--token", alice.auth_token.key)
    folder = tmp_path / "mybot"
    assert monsoon(capsys, "new-bot", "packet_row", str(folder))[0] == 0
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "main.cpython-311.pyc").write_bytes(b"\0")

    code, _, err = monsoon(capsys, "submit", str(folder), "--bot", "kitbot")
    assert code == 2 and "--game" in err  # a new bot needs its game
    code, out, _ = monsoon(
        capsys, "submit", str(folder), "--bot", "kitbot", "--game", "packet_row", "--wait"
    )
    assert code == 0, out
    assert "created bot kitbot" in out and "version 1 active" in out
    version = BotVersion.objects.get(bot__name="kitbot")
    assert version.bot.owner == alice and version.bot.is_public
    assert set(version.command) == {"python3", "main.py"}
    code, out, _ = monsoon(capsys, "submit", str(folder), "--bot", "kitbot")  # found, not made
    assert code == 0 and "created" not in out and "version 2" in out

    rival_bot = make_bot(bob, "rival", "packet_row")  # validated by the hook, as kitbot was
    rival = bot_services.upload_version(rival_bot, user=bob, filename="main.py", data=GOOD_BOT)
    current = BotVersion.objects.get(bot__name="kitbot", number=2)
    match = make_match("packet_row", [current, rival], seed=5)
    play_and_record(match)
    code, out, _ = monsoon(capsys, "status")
    assert code == 0
    row = next(
        line.split() for line in out.splitlines() if line.startswith("kitbot") and " 2 " in line
    )
    assert row[:4] == ["kitbot", "packet_row", "2", "active"]
    assert row[5] == "1" and row[6] in {"1", "2"}  # one game played, a rank on the ladder
    assert "rival" not in out  # only the user's own bots

    code, out, _ = monsoon(capsys, "logs", str(match.pk), "-o", str(tmp_path / "game.json"))
    assert code == 0
    assert monsoon(capsys, "replay", str(tmp_path / "game.json"))[1].count("reproduces") == 1
    code, _, err = monsoon(capsys, "logs", "999999")
    assert code == 2 and "404" in err


def test_the_cli_prints_the_servers_warning_about_an_old_kit(site, alice, capsys, monkeypatch):
    monsoon(capsys, "login", "--site", site, "--token", alice.auth_token.key)
    code, _, err = monsoon(capsys, "status")
    assert code == 0 and "warning" not in err
    monkeypatch.setattr("workers.cli.remote.kit_version", lambda: "0.0.1+g0000000000")
    code, _, err = monsoon(capsys, "status")
    assert code == 0
    assert err.count("warning: your monsoon kit 0.0.1+g0000000000 is older than") == 1


def test_play_into_a_closed_pipe_stops_quietly(tmp_path):
    """`monsoon play ... | head`: the reader is gone before the result is printed."""
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from workers.cli import main; sys.exit(main(sys.argv[1:]))",
            "play",
            "packet_row",
            "--no-sandbox",
            "--verbose",
            "--bot",
            "random",
            "--bot",
            "random",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
        env={**os.environ, "PYTHONUNBUFFERED": "0"},
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()  # as head does once it has its lines
    err = child.stderr.read().decode()
    assert child.wait(timeout=120) == 1
    assert "BrokenPipe" not in err and "Traceback" not in err, err


def test_submit_wait_reports_a_rejection_and_fails(site, alice, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(queue, "send", reject_now)
    monsoon(capsys, "login", "--site", site, "--token", alice.auth_token.key)
    folder = tmp_path / "bot"
    monsoon(capsys, "new-bot", "borneo", str(folder), "--lang", "python")  # game in monsoon.json
    code, out, _ = monsoon(capsys, "submit", str(folder), "--bot", "crashes", "--wait")
    assert code == 1
    assert "created bot crashes (borneo" in out
    assert "version 1 rejected: crash: closed its output: exited with status 1" in out


def test_login_without_answers_says_what_to_give(site, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, _, err = monsoon(capsys, "login", "--site", site)
    assert code == 2 and "--username" in err and "Traceback" not in err
