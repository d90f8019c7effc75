"""The match page: seats, result, the owner's stderr, and the replay viewer."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from engine import ENGINE_VERSION
from engine.log import new_log
from engine.registry import all_games
from ladder.accounts.models import Visitor
from ladder.bots import selectors as bot_selectors
from ladder.matches import logstore
from ladder.matches import selectors as match_selectors
from ladder.matches.models import Match, MatchSeat
from ladder.tournaments import selectors as tournament_selectors
from ladder.web.charts import progress_chart
from ladder.web.replay import Replay, build_live_replay, build_replay
from ladder.web.stderr import has_marks, stderr_by_step

REPLAY_CACHE_SECONDS = 3600
LIVE_CACHE_SECONDS = 30
LIVE_POLL_MS = 1000
"""How often the match page asks for new moves; workers publish about once a second
(``MONSOON_LIVE_INTERVAL_SECONDS``), so a move reaches a spectator within about two seconds."""
LIVE_STATUSES = (Match.Status.NEW, Match.Status.QUEUED, Match.Status.RUNNING)


def _replay(match: Match, seats: Sequence[MatchSeat], viewer: Visitor) -> Replay | None:
    """The match's replay frames, or None while the log is unpublished (or missing).

    The log is published only once the match is finished, so every seat's hidden cards may go
    with it (``reveal_private``); before that no frame is built at all.  A finished log never
    changes, so the frames are cached under the stored log's digest (a Batavia game with five
    players takes about 0.2 s to replay and draw up).  Seats are named as ``viewer`` may read
    them (a private bot's seat, and every sentence about it, says "a private bot"); the names
    are part of the cache key, so each reading is cached apart.
    """
    published = match_selectors.log_is_public(match)
    if not published:
        return None
    stored = match_selectors.stored_log(match)
    if stored is None:
        return None
    names = match_selectors.seat_labels(seats, viewer)
    forfeits = [s.forfeit_reason or None for s in seats]
    # A stored log never changes: its object name and size identify it.
    identity = [stored.name, stored.stored_size, ENGINE_VERSION, names, forfeits]
    key = "web:replay:" + hashlib.sha256(json.dumps(identity).encode()).hexdigest()
    cached = cache.get(key)
    if cached is not None:
        return cached
    try:
        log = json.loads(logstore.read_json(stored.name))
    except (logstore.UnreadableLog, ValueError) as exc:
        return Replay(game=match.game, seats=names, error=f"the stored log is unreadable ({exc})")
    replay = build_replay(log, seat_names=names, forfeits=forfeits, reveal_private=published)
    cache.set(key, replay, REPLAY_CACHE_SECONDS)
    return replay


def _live_replay(
    match: Match, seats: Sequence[MatchSeat], viewer: Visitor
) -> tuple[Replay, str] | None:
    """Frames of a match not over yet, from its worker's published moves, and the run id.

    Public views only, for everyone: the seed is used here, on the server, and never sent.
    Each published state is drawn once per reading of the seat names (cached by run, move count
    and names: a private bot's owner reads its name, everybody else "a private bot").
    """
    if match.status not in LIVE_STATUSES:
        return None
    live = match_selectors.live_progress(match)
    names = match_selectors.seat_labels(seats, viewer)
    named = hashlib.sha256(json.dumps(names).encode()).hexdigest()[:16]
    key = f"web:live:{match.pk}:{live.run}:{len(live.decisions)}:{ENGINE_VERSION}:{named}"
    replay = cache.get(key)
    if replay is None:
        header = new_log(match.game, match.variant, match.seed, names)
        replay = build_live_replay(header, live.decisions, seat_names=names)
        replay.forfeits = live.forfeits or [None] * len(names)
        cache.set(key, replay, LIVE_CACHE_SECONDS)
    return replay, live.run


@require_GET
def match_live(request: HttpRequest, pk: int) -> JsonResponse:
    """The frames played since ``?since=`` (the viewer's last frame) of a match being played.

    ``restart`` tells the viewer to reload: the match was restarted (another ``run``) or it has
    fewer moves than the viewer has seen. ``over`` tells it the full replay is ready.
    """
    raw = request.GET.get("since", "0")
    if not raw.isdigit() or len(raw) > 7:
        return JsonResponse({"detail": "since must be a whole number of frames"}, status=400)
    since = int(raw)
    match = get_object_or_404(
        match_selectors.with_seats(match_selectors.visible_matches(request.user)), pk=pk
    )
    body: dict[str, object] = {"status": match.status, "over": match.is_over}
    live = _live_replay(match, list(match.seats.all()), request.user)
    if live is not None:
        replay, run = live
        total = len(replay.frames) - 1
        body |= {
            "run": run,
            "total": total,
            "frames": replay.frames[since + 1 :],
            "forfeits": replay.forfeits,
            "restart": request.GET.get("run", run) != run or since > total,
            "error": replay.error,
        }
    response = JsonResponse(body)
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def match_detail(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(
        match_selectors.with_seats(
            match_selectors.visible_matches(request.user).select_related("ladder")
        ),
        pk=pk,
    )
    seats = list(match.seats.all())
    labels = match_selectors.seat_labels(seats, request.user)
    rows = [
        {
            "seat": s,
            "label": label,
            # A bot the visitor may not name is not linked: its page is a 404 to them anyway.
            "bot_link": (
                s.bot_version.bot.name
                if bot_selectors.bot_named_for(request.user, s.bot_version.bot)
                else ""
            ),
            "stderr_visible": match_selectors.stderr_visible_to(request.user, s),
        }
        for s, label in zip(seats, labels, strict=True)
    ]
    replay = _replay(match, seats, request.user)
    live = _live_replay(match, seats, request.user)
    live_run = ""
    if live is not None:
        replay, live_run = live
    # Stderr by replay step, only for the seats whose stderr this visitor may read.
    readable = {
        s.seat: s.stderr
        for s in seats
        if s.stderr and match_selectors.stderr_visible_to(request.user, s)
    }
    stderr_steps = {str(seat): stderr_by_step(text) for seat, text in readable.items()}
    stderr_marked = any(has_marks(text) for text in readable.values())
    chart = (
        progress_chart(
            replay.progress,
            seat_names=replay.seats,
            forfeit_steps=replay.forfeit_steps,
            label=replay.progress_label,
        )
        if replay and replay.progress and not live_run
        else ""
    )
    return render(
        request,
        "web/match.html",
        {
            "match": match,
            "rows": rows,
            "replay": replay,
            "tournament_slot": (
                tournament_selectors.match_link(match.pk)
                if match.kind == match.Kind.TOURNAMENT
                else None
            ),
            "replay_data": _viewer_data(replay, pk=match.pk, live_run=live_run),
            "live": bool(live_run),
            "stderr_steps": stderr_steps or None,
            "stderr_marked": stderr_marked,
            "progress_chart": chart,
            "log_url": reverse("match-log", args=[match.pk]) if replay and not live_run else "",
            "game_script": f"web/games/{match.game}.js",
            "game_title": spec.title if (spec := all_games().get(match.game)) else match.game,
        },
    )


def _viewer_data(replay: Replay | None, *, pk: int, live_run: str) -> dict[str, object] | None:
    """What ``viewer.js`` reads; a live match adds where and how often to ask for more."""
    if replay is None or replay.error:
        return None
    data = replay.as_data()
    if live_run:
        data["live"] = {
            "url": reverse("web:match-live", args=[pk]),
            "run": live_run,
            "poll_ms": LIVE_POLL_MS,
        }
    return data
