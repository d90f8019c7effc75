"""Home page and ladder standings."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from engine.registry import all_games
from ladder.ladders.models import Ladder
from ladder.ladders.selectors import ladders
from ladder.matches import selectors as match_selectors
from ladder.matches.models import Match
from ladder.ratings import selectors as rating_selectors
from ladder.web.sections import home_sections

REFRESH_SECONDS = 30  # how often the standings table fetches a fresh copy of itself
LATEST_MATCHES = 12


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    by_game: dict[str, list[Ladder]] = {}
    for ladder in ladders():
        by_game.setdefault(ladder.game, []).append(ladder)
    games = [{"spec": spec, "ladders": by_game.get(name, [])}
             for name, spec in all_games().items()]
    latest = match_selectors.recent_matches(request.user, status=Match.Status.FINISHED,
                                            limit=LATEST_MATCHES)
    return render(request, "web/home.html", {
        "games": games, "latest": latest, "sections": home_sections(request.user)})


def _ladder(game: str, players: int) -> Ladder:
    ladder = ladders(game).filter(num_players=players).first()
    if ladder is None:
        raise Http404(f"there is no {players}-player {game} ladder")
    return ladder


def standing_rows(ladder: Ladder) -> list[dict]:
    """The table with each version's recent trend, for the template."""
    table = rating_selectors.standings(ladder)
    trend = rating_selectors.trends(ladder, [s.rating.bot_version_id for s in table])
    return [{"rank": s.rank, "rating": s.rating, "bot": s.rating.bot_version.bot,
             "version": s.rating.bot_version, "trend": trend.get(s.rating.bot_version_id, 0.0)}
            for s in table]


@require_GET
def standings(request: HttpRequest, game: str, players: int) -> HttpResponse:
    ladder = _ladder(game, players)
    spec = all_games()[ladder.game]
    return render(request, "web/standings.html", {
        "ladder": ladder, "spec": spec, "rows": standing_rows(ladder),
        "siblings": ladders(game), "refresh_seconds": REFRESH_SECONDS})


@require_GET
def standings_table(request: HttpRequest, game: str, players: int) -> HttpResponse:
    """The table body alone: what the standings page fetches to refresh itself."""
    ladder = _ladder(game, players)
    return render(request, "web/_standings_rows.html", {"rows": standing_rows(ladder)})
