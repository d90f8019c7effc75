"""The ``monsoon`` command as a user meets it: output, files written, exit codes."""

from __future__ import annotations

import json

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
            "unknown built-in bot 'smart'",
        ),
        (
            [
                "play",
                "batavia",
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
