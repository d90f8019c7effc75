"""What a tournament would look like before it starts: its rounds, tables and match count.

Computed by the very code the start uses (``ladder.tournaments.pairing`` for the tables and
``selectors.planned_totals`` for the counts) on an unsaved :class:`Tournament`, so the preview
writes nothing and cannot drift from what the start creates.  Entrants are shown as seeds:
seeds are given by ladder rating at the start, so who holds which seed is known only then.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.cache import cache

from ladder.tournaments import pairing, selectors
from ladder.tournaments.models import Tournament

Format = Tournament.Format
SHOWN_ROUNDS = 30  # a long round robin's later rounds are summarised, not listed
# A large round robin at 3+ player tables takes seconds to pair (the balanced design), as at the
# start; the result depends only on the settings and the field size, so it is kept a day.
CACHE_SECONDS = 24 * 3600


@dataclass
class PreviewRound:
    number: int
    tables: list[list[int]]  # seeds in seat order
    byes: list[int]
    matches: int


@dataclass
class Preview:
    entrants: int
    rounds: list[PreviewRound] = field(default_factory=list)
    planned_rounds: int = 0
    planned_matches: int = 0
    per_table: int = 0
    known: str = ""  # which rounds are known in advance, in words
    later_rounds: list[str] = field(default_factory=list)  # sizes of rounds not yet paired
    hidden_rounds: int = 0
    over_budget: bool = False
    problem: str = ""  # why there is nothing to show (too few entrants)

    @property
    def budget(self) -> int:
        return int(settings.MONSOON_TOURNAMENT_MAX_MATCHES)


def unsaved(data: dict[str, Any]) -> Tournament:
    """A Tournament object from the service's cleaned settings, never saved."""
    keys = ("format", "num_players", "games_per_pairing", "duplicate", "rounds", "advance")
    return Tournament(**{k: data[k] for k in keys})


def cached_preview(t: Tournament, n: int) -> Preview:
    """:func:`preview`, from the cache when these settings and field size were shown before."""
    key = "tournament-preview:v1:" + ":".join(
        str(v)
        for v in (
            t.format,
            t.num_players,
            t.games_per_pairing,
            t.duplicate,
            t.rounds,
            t.advance,
            n,
            settings.MONSOON_TOURNAMENT_MAX_MATCHES,
        )
    )
    found = cache.get(key)
    if isinstance(found, Preview):
        return found
    shown = preview(t, n)
    cache.set(key, shown, CACHE_SECONDS)
    return shown


def preview(t: Tournament, n: int) -> Preview:
    """The schedule and totals for ``n`` entrants playing ``t``'s settings."""
    k = t.num_players
    out = Preview(entrants=n, per_table=selectors.per_table(t))
    if n < k:
        out.problem = (
            f"{n} entrant{'s' if n != 1 else ''} cannot fill a {k}-player table: with fewer "
            f"than {k} at the start, the tournament is cancelled."
        )
        return out
    seeds = list(range(1, n + 1))
    if t.format == Format.ROUND_ROBIN:
        plans = pairing.round_robin_rounds(seeds, k)
        t.schedule = [{"tables": [list(tb) for tb in p.tables], "byes": p.byes} for p in plans]
        out.known = "The whole schedule is fixed at the start."
    elif t.format == Format.SWISS:
        plans = [pairing.swiss_round(seeds, k, scores={}, meetings={}, bye_counts={})]
        if t.rounds is None:
            t.rounds = pairing.default_swiss_rounds(n, k)
        out.known = (
            "Only round 1 is known in advance: each later round pairs bots on their scores so far."
        )
    else:
        plans = [pairing.elimination_round(seeds, k)]
        sizes = pairing.elimination_sizes(n, k, t.advance)
        out.later_rounds = [
            f"Round {i}: {m} bots at {m // k} table{'s' if m // k != 1 else ''}"
            + (f", {m % k} bye{'s' if m % k != 1 else ''}" if m % k else "")
            for i, m in enumerate(sizes[1:], start=2)
        ]
        out.known = "Only round 1 is known in advance: later rounds seat whoever goes through."
    out.planned_rounds, out.planned_matches = selectors.planned_totals(t, n)
    out.over_budget = out.planned_matches > out.budget
    for number, plan in enumerate(plans[:SHOWN_ROUNDS], start=1):
        out.rounds.append(
            PreviewRound(
                number=number,
                tables=[list(tb) for tb in plan.tables],
                byes=list(plan.byes),
                matches=len(plan.tables) * out.per_table,
            )
        )
    out.hidden_rounds = max(0, len(plans) - SHOWN_ROUNDS)
    return out
