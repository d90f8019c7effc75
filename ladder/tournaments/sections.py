"""The home page's "running tournaments" section, registered with ``ladder.core.sections``.

It lives here rather than in the web app because the web app only renders sections; which
tournaments count as running, and who may see them listed, is this app's business.
"""

from __future__ import annotations

from django.urls import reverse

from engine.registry import all_games
from ladder.accounts.models import Visitor
from ladder.core.sections import HomeSection, SectionItem
from ladder.tournaments import selectors

HOME_LIMIT = 10  # more than this and the home page links to the full list instead


def running_section(user: Visitor) -> HomeSection | None:
    """Running and paused tournaments the visitor may see listed; None when there are none."""
    running = list(selectors.running_tournaments(user)[:HOME_LIMIT])
    if not running:
        return None
    games = all_games()
    items = []
    for t in running:
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
        items.append(SectionItem(t.name, reverse("web:tournament", args=[t.pk]), " · ".join(parts)))
    return HomeSection("Tournaments under way", items, reverse("web:tournaments"))
