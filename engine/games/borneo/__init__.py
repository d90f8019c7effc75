"""Borneo (daVinci Games, 2008) for 3-5 players; rules and rulings in :mod:`.state`."""

from engine.core import GameSpec
from engine.games.borneo.state import VARIANTS, BorneoState, action_vocabulary, max_decisions

GAME = GameSpec(
    name="borneo",
    title="Borneo",
    min_players=3,
    max_players=5,
    variants=VARIANTS,
    summary="Climb the ranks of four spice companies, ship to harbors, complete missions.",
    factory=BorneoState,
    action_vocabulary=action_vocabulary,
    max_decisions=max_decisions,
)

__all__ = ["GAME", "BorneoState"]
