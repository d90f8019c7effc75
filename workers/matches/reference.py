"""The reference bots of this checkout (``bots/reference/``), as programs the runner starts.

The smoke match of a new version plays against ``random``; the CLI accepts every name here.
"""

from __future__ import annotations

import json

from bots.manifest import MANIFEST_NAME, manifest_matches
from workers.launch import CHECKOUT, BotProgram

REFERENCE_DIR = CHECKOUT / "bots" / "reference"
REFERENCE_BOTS = ("random", "greedy", "mcts")


def reference_bot(name: str) -> BotProgram:
    """The reference bot ``name`` (one of :data:`REFERENCE_BOTS`), run as ``python3 main.py``;
    its ``monsoon.json`` declares that it plays many matches in one process."""
    if name not in REFERENCE_BOTS:
        raise ValueError(f"no reference bot {name!r} (there are {', '.join(REFERENCE_BOTS)})")
    manifest = json.loads((REFERENCE_DIR / name / MANIFEST_NAME).read_text())
    return BotProgram(
        REFERENCE_DIR / name,
        ("python3", "main.py"),
        name,
        many=manifest_matches(manifest) == "many",
    )
