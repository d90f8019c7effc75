"""Ladder seasons: the list of a game's finished seasons and one season's frozen standings.

A season's standings never change once staff ended it (``ladder.ratings.services.end_season``);
these pages only read them through ``ladder.ratings.selectors``.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from engine.core import GameSpec
from engine.registry import all_games
from ladder.ladders.selectors import ladders
from ladder.ratings import selectors


def _spec(game: str) -> GameSpec:
    spec = all_games().get(game)
    if spec is None:
        raise Http404(f"no game {game}")
    return spec


@require_GET
def season_list(request: HttpRequest, game: str) -> HttpResponse:
    """Every ended season of the game's ladders, newest first."""
    spec = _spec(game)
    seasons = list(selectors.ended_seasons(ladders(game)))
    return render(request, "web/seasons.html", {"spec": spec, "seasons": seasons})


@require_GET
def season_detail(request: HttpRequest, game: str, number: int) -> HttpResponse:
    """Season ``number`` of each of the game's ladders that has ended it: the final table."""
    spec = _spec(game)
    seasons = [s for s in selectors.ended_seasons(ladders(game)) if s.number == number]
    if not seasons:
        raise Http404(f"{spec.title} has no finished season {number}")
    tables = [
        {"season": s, "rows": list(selectors.season_standings(s))}
        for s in sorted(seasons, key=lambda s: s.ladder.num_players)
    ]
    numbers = sorted({s.number for s in selectors.ended_seasons(ladders(game))})
    return render(
        request,
        "web/season.html",
        {"spec": spec, "number": number, "tables": tables, "numbers": numbers},
    )
