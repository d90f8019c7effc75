"""Home page and ladder standings."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET

from engine.registry import all_games
from ladder.bots import selectors as bot_selectors
from ladder.ladders.models import Ladder
from ladder.ladders.selectors import ladders
from ladder.matches import selectors as match_selectors
from ladder.matches.models import Match
from ladder.ratings import selectors as rating_selectors
from ladder.ratings.services import PROVISIONAL_MIN_GAMES, PROVISIONAL_WIDTH
from ladder.web.home_tournaments import running_tournaments
from ladder.web.ladder_summary import LadderSummary, ranked_bot_counts, summarise

PROVISIONAL_RULE = {
    "provisional_games": PROVISIONAL_MIN_GAMES,
    "provisional_width": f"{PROVISIONAL_WIDTH:.0f}",
}
REFRESH_SECONDS = 30  # how often the standings table fetches a fresh copy of itself
LATEST_MATCHES = 12


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    specs = all_games()
    bots = ranked_bot_counts(list(specs))
    by_game: dict[str, list[LadderSummary]] = {}
    for ladder in ladders().order_by("game", "num_players"):
        summary = summarise(ladder, standing_rows(ladder), bots.get(ladder.game, 0))
        by_game.setdefault(ladder.game, []).append(summary)
    games = [
        {
            "spec": spec,
            "ladders": by_game.get(name, []),
            "active": [s for s in by_game.get(name, []) if s.active],
            "bots": bots.get(name, 0),
        }
        for name, spec in specs.items()
    ]
    latest = match_selectors.recent_matches(
        request.user, status=Match.Status.FINISHED, limit=LATEST_MATCHES
    )
    # Matches being played now, to watch live (the match page follows them move by move).
    running = match_selectors.recent_matches(
        request.user, status=Match.Status.RUNNING, limit=LATEST_MATCHES
    )
    return render(
        request,
        "web/home.html",
        {
            "games": games,
            "running": running,
            "active_count": sum(s.active for group in by_game.values() for s in group),
            "ladder_count": sum(len(group) for group in by_game.values()),
            "latest": latest,
            "tournaments": running_tournaments(request.user),
            **PROVISIONAL_RULE,
        },
    )


def _ladder(game: str, players: int) -> Ladder:
    ladder = ladders(game).filter(num_players=players).first()
    if ladder is None:
        raise Http404(f"there is no {players}-player {game} ladder")
    return ladder


def standing_rows(ladder: Ladder) -> list[dict]:
    """The table rows, the same for every visitor: cached ``MONSOON_API_CACHE_SECONDS``."""
    seconds = settings.MONSOON_API_CACHE_SECONDS
    if seconds <= 0:
        return _standing_rows(ladder)
    key = f"web:standings:{ladder.pk}:{bot_selectors.visibility_generation()}"
    rows = cache.get(key)
    if rows is None:
        rows = _standing_rows(ladder)
        cache.set(key, rows, seconds)
    return rows


def _standing_rows(ladder: Ladder) -> list[dict]:
    """The table with each version's recent trend, numbers formatted here for the template.

    A ladder can hold a thousand bots: formatting in Python (rather than ``floatformat`` and
    ``url`` in the row loop) renders the table about four times faster.
    """
    rows = rating_selectors.standings_rows(ladder)
    table = rating_selectors.with_ranks(rows)
    trend = rating_selectors.trends(ladder, [row["version"] for row in table])
    bot_url = reverse("web:bot", args=["__name__"])
    out = []
    for row in table:
        change = trend.get(row["version"], 0.0)
        out.append(
            {
                # Numbers as text: the template's localisation of each number costs more than the
                # rest of the row.
                "rank": str(row["rank"]),
                "games": str(row["games"]),
                "version_number": str(row["version_number"]),
                "rating": str(row["rating"]),
                "bot_name": row["bot_name"],
                "owner": row["owner"],
                "provisional": row["provisional"],
                "url": bot_url.replace("__name__", row["bot_name"]),
                "rating_text": f"{row['rating']:.0f}",
                "low_text": f"{row['low']:.0f}",
                "high_text": f"{row['high']:.0f}",
                "trend": f"{change:.1f}",
                "trend_text": f"{change:+.0f}",
                "trend_class": "up" if change > 0.5 else "down" if change < -0.5 else "flat",
            }
        )
    return out


@require_GET
def standings(request: HttpRequest, game: str, players: int) -> HttpResponse:
    ladder = _ladder(game, players)
    spec = all_games()[ladder.game]
    return render(
        request,
        "web/standings.html",
        {
            "ladder": ladder,
            "spec": spec,
            "rows": standing_rows(ladder),
            "siblings": ladders(game),
            "refresh_seconds": REFRESH_SECONDS,
            **PROVISIONAL_RULE,
        },
    )


@require_GET
def standings_table(request: HttpRequest, game: str, players: int) -> HttpResponse:
    """The table body alone: what the standings page fetches to refresh itself."""
    ladder = _ladder(game, players)
    return render(
        request, "web/_standings_rows.html", {"rows": standing_rows(ladder), **PROVISIONAL_RULE}
    )
