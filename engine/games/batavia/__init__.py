"""Batavia (Queen Games, 2008) for 3-5 players; rules and rulings in :mod:`.state`."""

from engine.core import GameSpec
from engine.games.batavia.state import BataviaState, action_vocabulary, max_decisions

GAME = GameSpec(
    name="batavia",
    title="Batavia",
    min_players=3,
    max_players=5,
    variants=("standard", "open"),
    summary="Auction ship cards, win company seals, race merchants to trading posts.",
    factory=BataviaState,
    action_vocabulary=action_vocabulary,
    max_decisions=max_decisions,
)

__all__ = ["GAME", "BataviaState"]
