"""The home page's "Running tournaments" list: read from the tournaments' selector directly.

Which tournaments count as running, and who may see them listed, is
``ladder.tournaments.selectors.running_tournaments``'s business; this module only words each one
for the home page.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from engine.registry import all_games
from ladder.accounts.models import Visitor
from ladder.tournaments import selectors

HOME_LIMIT = 10  # more than this and the home page links to the full list instead


@dataclass(frozen=True)
class TournamentLine:
    title: str
    url: str
    detail: str


def running_tournaments(user: Visitor) -> list[TournamentLine]:
    """Running and paused tournaments the visitor may see listed, at most :data:`HOME_LIMIT`."""
    games = all_games()
    lines = []
    for t in selectors.running_tournaments(user)[:HOME_LIMIT]:
        title = games[t.game].title if t.game in games else t.game
        parts = [f"{title}, {t.num_players} players", t.get_format_display()]
        if t.planned_rounds:
            parts.append(f"round {t.current_round} of {t.planned_rounds}")
        if t.planned_matches:
            # ``matches_done`` is a count annotated by ``selectors.with_counts``.
            done = getattr(t, "matches_done", 0)
            parts.append(f"{done} of {t.planned_matches} matches played")
        if t.status == t.Status.PAUSED:
            parts.append("paused")
        lines.append(
            TournamentLine(t.name, reverse("web:tournament", args=[t.pk]), " · ".join(parts))
        )
    return lines
