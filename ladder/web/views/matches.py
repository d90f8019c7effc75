"""The match page: seats, result, the owner's stderr, and the replay viewer."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from engine.registry import all_games
from ladder.bots import selectors as bot_selectors
from ladder.matches import selectors as match_selectors
from ladder.web.replay import build_replay


@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        match_selectors.with_seats(match_selectors.visible_matches(request.user)
                                   .select_related("ladder")), pk=pk)
    seats = list(match.seats.all())
    visible_bots = set(bot_selectors.visible_bots(request.user).filter(
        pk__in=[s.bot_version.bot_id for s in seats]).values_list("pk", flat=True))
    rows = [{"seat": s, "bot_visible": s.bot_version.bot_id in visible_bots,
             "stderr_visible": match_selectors.stderr_visible_to(request.user, s)}
            for s in seats]
    replay = None
    published = match_selectors.log_is_public(match)
    if published:
        log = match_selectors.match_log(match)
        if log is not None:
            # The log is published only once the match is finished, so every seat's hidden
            # cards may be shown with it (reveal_private); before that no frame is built at all.
            replay = build_replay(
                log, seat_names=[s.bot_version.label for s in seats],
                forfeits=[s.forfeit_reason or None for s in seats], reveal_private=published)
    return render(request, "web/match.html", {
        "match": match, "rows": rows, "replay": replay,
        "replay_data": replay.as_data() if replay and not replay.error else None,
        "log_url": reverse("match-log", args=[match.pk]) if replay else "",
        "game_script": f"web/games/{match.game}.js",
        "game_title": spec.title if (spec := all_games().get(match.game)) else match.game,
    })
