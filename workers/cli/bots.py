"""Which program a ``--bot`` names: a reference bot, a ``.py`` file or a bot directory."""

from __future__ import annotations

import atexit
import json
import shutil
import tempfile
from pathlib import Path

from bots.manifest import UploadRejected, manifest_command, manifest_matches
from engine.registry import get_game
from workers.launch import BotProgram
from workers.matches.reference import REFERENCE_BOTS, reference_bot


def _alone(script: Path) -> Path:
    """A private directory holding only a copy of ``script`` (removed when Python exits).

    A single-file bot must not take its neighbours along: its directory is what the sandbox
    mounts, and ``~/bot.py`` would otherwise expose the whole home directory.
    """
    directory = Path(tempfile.mkdtemp(prefix="monsoon-bot-"))
    atexit.register(shutil.rmtree, directory, True)
    shutil.copyfile(script, directory / script.name)
    return directory


class BotNotFound(ValueError):
    """A ``--bot`` that is neither a reference bot nor a usable file or directory."""


def resolve_bot(name_or_path: str, game: str) -> BotProgram:
    """A reference bot by name, a ``.py`` file, or a directory with ``main.py``/``monsoon.json``.

    A ``.py`` file runs alone (a copy in a private directory); a bot made of several files is a
    directory. ``monsoon.json`` is ``{"command": ["./mybot", "--fast"]}``: argv run inside the
    directory.
    """
    get_game(game)
    if name_or_path in REFERENCE_BOTS:
        return reference_bot(name_or_path)
    path = Path(name_or_path).expanduser()
    if path.is_file():
        if path.suffix != ".py":
            raise BotNotFound(f"{path}: a bot file must be a .py program (or give a directory)")
        return BotProgram(_alone(path), ("python3", path.name), path.stem)
    if path.is_dir():
        path = path.resolve()
        manifest = path / "monsoon.json"
        if manifest.is_file():
            try:
                data = json.loads(manifest.read_text())
            except (OSError, UnicodeDecodeError, ValueError) as exc:
                raise BotNotFound(f"{manifest}: not readable JSON ({exc})") from None
            try:
                command = manifest_command(data)
            except UploadRejected as exc:
                raise BotNotFound(f"{path}: {exc}") from None
            return BotProgram(
                path, tuple(command), path.name, many=manifest_matches(data) == "many"
            )
        if (path / "main.py").is_file():
            return BotProgram(path, ("python3", "main.py"), path.name)
        raise BotNotFound(f"{path}: the directory has neither main.py nor monsoon.json")
    raise BotNotFound(
        f"no bot {name_or_path!r}: give a reference bot ({', '.join(REFERENCE_BOTS)}), "
        "a .py file or a bot directory"
    )
