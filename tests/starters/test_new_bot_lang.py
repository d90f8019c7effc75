"""``monsoon new-bot GAME DIR --lang L`` writes a kit that builds and plays as printed."""

from __future__ import annotations

import json
import shlex

import pytest

from bots.starters import KITS, LANGUAGES, build, missing_toolchain
from tests.workers.sandbox_helpers import needs_sandbox
from workers import cli


@needs_sandbox
@pytest.mark.parametrize("language", LANGUAGES)
def test_new_bot_with_a_language_writes_a_kit_that_plays_sandboxed(language, tmp_path, capsys):
    directory = tmp_path / "mybot"
    assert cli.main(["new-bot", "east_indiaman", str(directory), "--lang", language]) == 0
    printed = capsys.readouterr().out

    manifest = json.loads((directory / "monsoon.json").read_text())
    assert manifest == {
        "command": KITS[language].command(),
        "game": "east_indiaman",
        "matches": "many",  # the kits loop over matches (docs/bot-protocol.md)
    }
    assert (directory / "README.md").is_file()
    play = next(line for line in printed.splitlines() if line.startswith("play:"))
    assert "--no-sandbox" not in play  # sandboxed is the default and what the ladder runs
    if KITS[language].build:
        missing = missing_toolchain(language)
        if missing:
            pytest.skip(f"cannot build the {language} starter: {', '.join(missing)} not installed")
        build(directory, language)

    assert cli.main(shlex.split(play.removeprefix("play:"))[1:]) == 0
    result = capsys.readouterr().out
    assert "forfeited" not in result, result
    assert "result: ranking" in result  # the kit's own stderr line: it played to the end


def test_new_bot_refuses_an_unknown_language(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["new-bot", "borneo", str(tmp_path / "b"), "--lang", "cobol"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'cobol'" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()
