"""East Indiaman (David Wang Studio, 2018) for 2-4 players; rules and rulings in :mod:`.state`."""

from engine.core import GameSpec
from engine.games.east_indiaman.state import EastIndiamanState, action_vocabulary, max_decisions

GAME = GameSpec(
    name="east_indiaman",
    title="East Indiaman",
    min_players=2,
    max_players=4,
    variants=("standard",),
    summary="Ship cargo, fill orders, invest and build trade posts over five rounds.",
    factory=EastIndiamanState,
    action_vocabulary=action_vocabulary,
    max_decisions=max_decisions,
)

__all__ = ["GAME", "EastIndiamanState"]
