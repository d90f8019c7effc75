"""Small bot programs and time controls the worker tests run matches with."""

from __future__ import annotations

from pathlib import Path

from ladder.bots import services as bot_services
from ladder.bots.models import BotVersion
from tests.factories import make_bot
from workers.launch import BotProgram
from workers.matches import tasks as match_tasks
from workers.matches.reference import reference_bot
from workers.matches.runner import TimeControls

BOTS = Path(__file__).parent / "bots"


FAST = TimeControls(startup_ms=3_000, move_ms=100, bank_ms=300, wall_factor=3)
"""Short clocks; the wall-clock backstop at 3x (not 10x) so bots that sleep time out sooner."""


def program(name: str) -> BotProgram:
    """A test bot from tests/workers/bots/NAME.py."""
    return BotProgram(BOTS, ("python3", f"{name}.py"), name)


def random_bot() -> BotProgram:
    return reference_bot("random")


def upload_reference(owner, name: str, reference: str, game: str = "packet_row") -> BotVersion:
    bot = make_bot(owner, name, game)
    data = (REFERENCE / reference / "main.py").read_bytes()
    return bot_services.upload_version(bot, user=owner, filename="main.py", data=data)


def validated(version: BotVersion) -> BotVersion:
    match_tasks.validate_bot_version.apply(args=(version.pk,))
    version.refresh_from_db()
    return version


REFERENCE = Path(__file__).resolve().parents[2] / "bots" / "reference"
