"""What a ``--bot`` names: reference bots, single files (alone), directories and manifests."""

from __future__ import annotations

import json

import pytest

from workers.cli.bots import BotNotFound, resolve_bot


def test_resolve_bot_finds_names_files_directories_and_manifests(tmp_path):
    assert resolve_bot("mcts", "borneo").directory.name == "mcts"
    script = tmp_path / "mine.py"
    script.write_text("print('hi')")
    (tmp_path / "secret.txt").write_text("neighbour")
    alone = resolve_bot(str(script), "batavia")
    assert alone.command == ("python3", "mine.py")
    assert sorted(p.name for p in alone.directory.iterdir()) == ["mine.py"]
    (tmp_path / "main.py").write_text("")
    assert resolve_bot(str(tmp_path), "batavia").command == ("python3", "main.py")
    (tmp_path / "monsoon.json").write_text(json.dumps({"command": ["./run", "--fast"]}))
    assert resolve_bot(str(tmp_path), "batavia").command == ("./run", "--fast")
    # One manifest check for uploads and the CLI: a string is split as the ladder does.
    (tmp_path / "monsoon.json").write_text(json.dumps({"command": "./run --fast"}))
    assert resolve_bot(str(tmp_path), "batavia").command == ("./run", "--fast")
    (tmp_path / "monsoon.json").write_text(json.dumps({"command": []}))
    with pytest.raises(BotNotFound, match="must name the command"):
        resolve_bot(str(tmp_path), "batavia")
    with pytest.raises(BotNotFound, match="reference bot"):
        resolve_bot("alphazero", "batavia")
