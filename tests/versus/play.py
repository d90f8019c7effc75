"""Version tests played in-process: queued version-test matches claimed, played by the engine
(each seat's version mapped to a built-in policy) and recorded through ``flow.record_result``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bots.builtin import get_policy
from engine.core import Action, Observation
from engine.match import Policy, play_match
from engine.rng import Rng
from ladder.accounts.models import User
from ladder.bots.models import Bot, BotVersion
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.matches.models import Match
from ladder.matches.services import claim_match
from tests.factories import make_bot, make_version

CaptureOnCommit = Callable[..., Any]


def bot_with_versions(
    owner: User, name: str = "duel", game: str = "packet_row", count: int = 2
) -> tuple[Bot, list[BotVersion]]:
    bot = make_bot(owner, name, game)
    return bot, [make_version(bot) for _ in range(count)]


def noisy_random(match_id: int, seat: int) -> Policy:
    """A random player with randomness of its own (not derived from the match seed), like a
    real bot: two games with one seed then differ."""
    rng = random.Random(match_id * 100 + seat)

    def policy(observation: Observation, legal: list[Action], _engine_rng: Rng) -> Action:
        return rng.choice(legal)

    return policy


def engine_record(match: Match, policies: list[Policy]) -> MatchResult:
    state, log = play_match(match.game, match.seed, policies, variant=match.variant)
    n = len(policies)
    return MatchResult(
        scores=tuple(state.scores()),
        ranking=tuple(state.ranking()),
        forfeits=(None,) * n,
        stderr=("",) * n,
        log=log,
    )


def play_pending(
    capture: CaptureOnCommit,
    version_policy: dict[int, str],
    *,
    own_randomness: bool = False,
    limit: int = 5000,
) -> int:
    """Play queued version-test matches until none wait; ``version_policy`` maps a version id to
    a built-in policy name ("greedy", "random").  Returns how many were played."""
    played = 0
    while played < limit:
        pending = list(
            Match.objects.filter(kind=Match.Kind.VERSUS, status=Match.Status.QUEUED)
            .order_by("id")
            .values_list("pk", flat=True)
        )
        if not pending:
            return played
        for match_id in pending:
            if not claim_match(match_id, worker="test-worker"):
                continue
            match = Match.objects.get(pk=match_id)
            seats = list(match.seats.order_by("seat").values_list("bot_version_id", flat=True))
            policies = [
                noisy_random(match_id, i)
                if own_randomness and version_policy[v] == "random"
                else get_policy(version_policy[v], match.game)
                for i, v in enumerate(seats)
            ]
            with capture(execute=True):
                flow.record_result(match_id=match_id, result=engine_record(match, policies))
            played += 1
    return played
