"""Every language's starter kit plays every game in the real sandbox without a forfeit.

Each kit is built with its documented command (``bots.starters``) and run through the match
runner with ``BwrapLauncher`` and the ladder's default limits, against the reference random bot
at the game's smallest table, the starter in a different seat in each game.
"""

from __future__ import annotations

import pytest

from bots.starters import KITS, LANGUAGES
from engine.registry import all_games
from tests.workers.sandbox_helpers import TEST_UID_BASE, needs_sandbox
from workers.cli.bots import resolve_bot
from workers.launch import BotProgram
from workers.matches.runner import run_match
from workers.sandbox import BwrapLauncher

GAMES = sorted(all_games())


@needs_sandbox
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_starter_plays_a_whole_match_in_the_sandbox(kit_for, language, game):
    directory = kit_for(language)
    spec = all_games()[game]
    seat = GAMES.index(game) % spec.min_players
    starter = BotProgram(directory, tuple(KITS[language].command()), f"{language}-starter")
    seats = [resolve_bot("random", game) for _ in range(spec.min_players)]
    seats[seat] = starter

    outcome = run_match(game, 7, seats, launcher=BwrapLauncher(uid_base=TEST_UID_BASE))

    assert outcome.forfeits == [None] * spec.min_players, outcome.stderr[seat]
    own = [d for d in outcome.log["decisions"] if d["seat"] == seat and d.get("by") == "bot"]
    assert own, "the starter was never asked to decide"
    assert "result: ranking" in outcome.stderr[seat]  # it read the end message
