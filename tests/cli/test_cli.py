"""The ``monsoon`` command as a user meets it: output, files written, exit codes."""

from __future__ import annotations

import json
import sys

import pytest

from workers.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_games_lists_batavia_with_its_player_counts_and_variants(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    line = next(row for row in out.splitlines() if row.startswith("batavia"))
    assert "3-5" in line and "standard, open" in line


def test_play_writes_a_log_that_replay_accepts(capsys, tmp_path):
    log_path = tmp_path / "logs" / "game.json"
    code, out, _ = run(
        capsys,
        "play",
        "--no-sandbox",
        "batavia",
        "--seed",
        "7",
        "--bot",
        "random",
        "--bot",
        "random",
        "--bot",
        "greedy",
        "--log",
        str(log_path),
    )
    assert code == 0 and "greedy" in out and str(log_path) in out
    log = json.loads(log_path.read_text())
    assert log["seats"] == ["random", "random", "greedy"] and log["seed"] == 7
    code, out, _ = run(capsys, "replay", str(log_path))
    assert code == 0 and "reproduces" in out


def test_replay_refuses_a_tampered_log_without_a_traceback(capsys, tmp_path):
    log_path = tmp_path / "game.json"
    run(
        capsys,
        "play",
        "--no-sandbox",
        "batavia",
        "--seed",
        "3",
        "--bot",
        "random",
        "--bot",
        "random",
        "--bot",
        "random",
        "--log",
        str(log_path),
    )
    log = json.loads(log_path.read_text())
    log["result"]["scores"][0] += 1
    log_path.write_text(json.dumps(log))
    code, _, err = run(capsys, "replay", str(log_path))
    assert code == 2 and "does not reproduce" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json {", "is not JSON"),
        ('{"format": "monsoon.game-log", "version": 1}', "lacks"),
        ("[]", "must be a JSON object"),
    ],
)
def test_replay_reports_malformed_files_clearly(capsys, tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and message in err


def test_replay_of_a_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "replay", str(tmp_path / "nope.json"))
    assert code == 2 and "no such file" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "chess", "--bot", "random"], "unknown game 'chess'"),
        (["play", "batavia", "--bot", "random", "--bot", "random"], "needs 3-5 --bot"),
        (
            ["play", "batavia", "--bot", "random", "--bot", "random", "--bot", "smart"],
            "no bot 'smart': give a reference bot (random, greedy, mcts)",
        ),
        (
            ["play", "batavia", "--no-sandbox", "--move-ms", "0"] + ["--bot", "random"] * 3,
            "--move-ms must be positive",
        ),
        (
            [
                "play",
                "batavia",
                "--no-sandbox",
                "--variant",
                "mini",
                "--bot",
                "random",
                "--bot",
                "random",
                "--bot",
                "random",
            ],
            "no variant 'mini'",
        ),
    ],
)
def test_play_reports_user_mistakes(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2 and message in err


def test_bench_prints_throughput_per_game(capsys):
    code, out, _ = run(capsys, "bench", "batavia", "--seconds", "0.2")
    assert code == 0 and "decisions/s" in out and "batavia" in out


def test_play_refuses_without_a_sandbox_and_says_how_to_opt_out(capsys, monkeypatch):
    try:
        import workers.sandbox as sandbox
    except ImportError:
        pass  # no sandbox module in this checkout: the refusal is real
    else:
        monkeypatch.setattr(sandbox, "sandbox_problem", lambda: "bubblewrap is not installed")
    code, out, err = run(capsys, "play", "packet_row", "--bot", "random", "--bot", "random")
    assert code == 2 and "--no-sandbox" in err and "refusing" in err and out == ""


def test_no_sandbox_warns_and_shows_forfeits_stderr_and_an_owner_log(capsys, tmp_path):
    bot = tmp_path / "crashy.py"
    bot.write_text(
        "import json, sys\n"
        "sys.stdin.readline()\n"
        "print(json.dumps({'ready': True}), flush=True)\n"
        "sys.stdin.readline()\n"
        "print('thinking hard', file=sys.stderr, flush=True)\n"
        "print(json.dumps({'action': 'fly'}), flush=True)\n"
    )
    log_path = tmp_path / "game.json"
    code, out, err = run(
        capsys,
        "play",
        "packet_row",
        "--no-sandbox",
        "--move-ms",
        "500",
        "--bot",
        str(bot),
        "--bot",
        "random",
        "--log",
        str(log_path),
    )
    assert code == 0 and "WARNING" in err and "--no-sandbox" in err
    assert "seat 0 (" in out and "forfeited: illegal_action" in out
    assert "--- stderr of seat 0" in out and "thinking hard" in out
    log = json.loads(log_path.read_text())
    assert log["result"]["forfeits"][0].startswith("illegal_action")
    assert "thinking hard" in log["result"]["stderr"][0]
    assert any("ms" in d for d in log["decisions"])
    code, out, _ = run(capsys, "replay", str(log_path))
    assert code == 0 and "reproduces" in out


def test_new_bot_prints_commands_that_work_as_printed(capsys, tmp_path):
    """The printed test command ran `python -m pytest` (the system Python has neither pytest
    nor the engine) and the play command said --no-sandbox though sandboxed is the default."""
    import shlex
    import subprocess

    target = tmp_path / "my-bot"
    code, out, _ = run(capsys, "new-bot", "borneo", str(target))
    assert code == 0 and (target / "main.py").is_file() and (target / "test_bot.py").is_file()
    lines = {
        line.split(":", 1)[0]: line.split(":", 1)[1] for line in out.splitlines() if ":" in line
    }
    test_argv = shlex.split(lines["test it"])
    assert test_argv[0] == sys.executable
    test = subprocess.run(
        [*test_argv, "-q", "-p", "no:cacheprovider"],
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert test.returncode == 0, test.stdout + test.stderr
    assert "1 passed" in test.stdout
    play_argv = shlex.split(lines["play it"])
    assert "--no-sandbox" not in play_argv and play_argv[1] == "play"
    code, out, _ = run(capsys, *play_argv[1:])
    assert code == 0 and "forfeit" not in out and "my-bot" in out
    code, _, err = run(capsys, "new-bot", "borneo", str(target))
    assert code == 2 and "already exists" in err


def test_new_bot_declares_many_matches_and_its_sdk_plays_past_a_match_boundary(capsys, tmp_path):
    """The SDK starter had no manifest, so the ladder started it afresh for every match; its
    ``bots.sdk.run`` loop plays on after ``end`` with ``"next": true``, which it now declares."""
    import os
    import subprocess

    from bots.manifest import MANIFEST_NAME
    from bots.starters import MANIFEST

    target = tmp_path / "warm"
    assert run(capsys, "new-bot", "packet_row", str(target))[0] == 0
    assert MANIFEST == MANIFEST_NAME
    manifest = json.loads((target / MANIFEST).read_text())
    assert manifest == {"command": ["python3", "main.py"], "matches": "many"}
    start = {"type": "start", "protocol": 1, "game": "packet_row", "seat": 0, "num_players": 2}
    request = {"type": "request", "decision": 1, "observation": {}, "legal_actions": ["a", "b"]}
    end = {"type": "end", "seat": 0, "scores": [1, 2], "ranking": [2, 1]}
    script = "".join(
        json.dumps(message) + "\n"
        for message in (start, request, {**end, "next": True}, start, request, end)
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    done = subprocess.run(
        [sys.executable, "main.py"],
        cwd=target,
        input=script,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": root},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(text) for text in done.stdout.splitlines()]
    assert [next(iter(answer)) for answer in answers] == [
        "ready",
        "action",
        "done",
        "ready",
        "action",
    ]


def test_replay_shows_the_match_placement_with_forfeits(capsys, tmp_path):
    """Replay printed the engine's ranking: a seat that forfeited while ahead came first."""
    log_path = tmp_path / "game.json"
    code, _, _ = run(
        capsys,
        "play",
        "batavia",
        "--seed",
        "3",
        "--no-sandbox",
        "--log",
        str(log_path),
        *["--bot", "random"] * 3,
    )
    assert code == 0
    log = json.loads(log_path.read_text())
    # Seat 0 is recorded as forfeited (as the runner writes it): it must be placed last.
    log["result"]["forfeits"] = ["timeout: no answer in 1000 ms", None, None]
    log["result"]["placement"] = [3, *sorted_places(log["result"]["ranking"][1:])]
    log_path.write_text(json.dumps(log))
    code, out, _ = run(capsys, "replay", str(log_path))
    assert code == 0 and "reproduces" in out
    rows = [line.split() for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert [row[1] for row in rows][-1] == "0" and rows[-1][0] == "3"
    assert "forfeit: timeout: no answer in 1000 ms" in out


def sorted_places(ranking: list[int]) -> list[int]:
    """Places 1..n among the given seats, keeping their order (ties share)."""
    return [1 + sum(1 for other in ranking if other < mine) for mine in ranking]


def test_play_refuses_a_manifest_command_with_a_nul_byte(capsys, tmp_path):
    """It crashed with a traceback and no result; the manifest check of uploads applies."""
    bot = tmp_path / "nulbot"
    bot.mkdir()
    (bot / "main.py").write_text("print('never run')\n")
    (bot / "monsoon.json").write_text(json.dumps({"command": ["python3", "main.py\u0000x"]}))
    code, _, err = run(
        capsys,
        "play",
        "batavia",
        "--no-sandbox",
        "--bot",
        str(bot),
        "--bot",
        "random",
        "--bot",
        "random",
    )
    assert code == 2
    assert "NUL byte cannot be passed to a program" in err and "Traceback" not in err


@pytest.mark.parametrize("language", ["python", "javascript", "cpp", "rust", "java"])
def test_a_starter_kits_readme_stands_alone_and_plays_its_bots_game(capsys, tmp_path, language):
    """Copied out of the repository, a README has no relative links to docs/, and its play
    command is the new bot's game with that game's smallest table (Borneo: three seats)."""
    folder = tmp_path / "mybot"
    code, _, _ = run(capsys, "new-bot", "borneo", str(folder), "--lang", language)
    assert code == 0
    readme = (folder / "README.md").read_text()
    assert "](../" not in readme and "docs/" not in readme.replace("/docs/", "")
    plays = [line for line in readme.splitlines() if line.startswith("monsoon play")]
    assert plays == [f"monsoon play borneo --bot {folder} --bot random --bot random"]
    for game in ("batavia", "east_indiaman", "packet_row"):
        assert game not in readme
