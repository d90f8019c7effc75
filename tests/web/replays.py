"""Replays the web tests compare: a played game and its frames rebuilt from the replay data."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from bots.builtin import get_policy
from engine.match import play_match
from engine.registry import all_games
from ladder.matches import services as match_services
from ladder.matches.models import Match
from tests.factories import (
    make_active_version,
    make_bot,
    make_match,
)

TABLES = [(spec.name, n) for spec in all_games().values() for n in spec.player_counts]
"""Every registered game at every player count it allows."""


def played(game: str, n: int, seed: int = 5):
    _, log = play_match(game, seed, [get_policy("random", game) for _ in range(n)])
    return log


def rebuild(frames: list[dict]) -> list[dict]:
    """What viewer.js does: frame 0's table, then each frame's [path, value] changes."""
    tables = [frames[0]["table"]]
    for frame in frames[1:]:
        table = copy.deepcopy(tables[-1])
        for path, value in frame["ops"]:
            target = table
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = value
        tables.append(table)
    return tables


WORKER = "host-a/1"


@dataclass
class Running:
    match: Match
    log: dict[str, Any]
    """The whole game the match will turn out to be (the worker publishes its prefixes)."""

    def publish(self, count: int, forfeits: list[str | None] | None = None) -> None:
        n = self.match.ladder.num_players
        assert match_services.publish_progress(
            self.match.pk,
            worker=WORKER,
            decisions=self.log["decisions"][:count],
            forfeits=forfeits or [None] * n,
        )


def running_match(owners: list, game: str = "borneo", seed: int = 41) -> Running:
    """A match claimed by a worker, with the game it will play computed in advance."""
    versions = [
        make_active_version(make_bot(owner, f"{owner.username}-{game}-{i}", game))
        for i, owner in enumerate(owners)
    ]
    match = make_match(game, versions, seed=seed)
    assert match_services.claim_match(match.pk, worker=WORKER)
    policies = [get_policy("random", game) for _ in owners]
    _, log = play_match(game, seed, policies, variant=match.variant)
    return Running(match, log)
