"""Packet Row (Pegasus Spiele, 2013) for 2-5 players; rules and rulings in :mod:`.state`."""

from engine.core import GameSpec
from engine.games.packet_row.state import PacketRowState, action_vocabulary, max_decisions

GAME = GameSpec(
    name="packet_row",
    title="Packet Row",
    min_players=2,
    max_players=5,
    variants=("standard",),
    summary="Take cards from four harbour boards, ship goods to fulfil contracts, buy victory.",
    factory=PacketRowState,
    action_vocabulary=action_vocabulary,
    max_decisions=max_decisions,
)

__all__ = ["GAME", "PacketRowState"]
