"""Bot pages: one bot (versions, ratings, matches, head-to-head, uploads), my bots, new bot."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from engine.registry import all_games
from ladder.bots import selectors as bot_selectors
from ladder.bots import services as bot_services
from ladder.bots.models import Bot, BotVersion
from ladder.bots.source_check import RETRY_AFTER_SECONDS
from ladder.core.errors import Conflict, RateLimited, ServiceError, Unavailable
from ladder.core.throttles import refund_upload, upload_wait_seconds, wait_seconds
from ladder.ladders.models import Ladder
from ladder.matches import selectors as match_selectors
from ladder.matches.models import Match
from ladder.ratings import selectors as rating_selectors
from ladder.web.bot_stats import summaries
from ladder.web.charts import ChartPoint, rating_chart
from ladder.web.forms import BotForm, UploadForm
from ladder.web.smoke import smoke_replay
from ladder.web.views.tournaments import bot_tournaments

RECENT_MATCHES = 20


def _charts(bot: Bot) -> list[dict]:
    """One chart per ladder the bot has rating history on, smallest table first."""
    by_ladder: dict[int, list] = {}
    for point in rating_selectors.rating_history(bot.pk):
        by_ladder.setdefault(point.ladder_id, []).append(point)
    ladders = Ladder.objects.in_bulk(list(by_ladder))
    charts = []
    for ladder_id in sorted(by_ladder, key=lambda i: ladders[i].num_players):
        ladder = ladders[ladder_id]
        points = [
            ChartPoint(
                p.rating,
                p.low,
                p.high,
                f"v{p.bot_version.number} "
                + (f"after match {p.match_id}" if p.match_id else "history-wide refit"),
                version=p.bot_version.number,
            )
            for p in by_ladder[ladder_id]
        ]
        title = f"{bot.name} on the {ladder.num_players}-player ladder"
        charts.append(
            {
                "ladder": ladder,
                "svg": rating_chart(points, title=title),
                "last": by_ladder[ladder_id][-1],
                "count": len(points),
            }
        )
    return charts


def _upload(request: HttpRequest, bot: Bot, form: UploadForm) -> int | None:
    """Store the uploaded file as the bot's next version; else the HTTP status of the refusal."""
    if not form.is_valid():
        return 400
    wait = upload_wait_seconds(request)  # the API's upload budgets, shared per user
    if wait is not None:
        form.add_error(
            "artifact",
            f"Too many uploads in the last hour; try again in {wait} seconds.",
        )
        return 429
    upload = form.cleaned_data["artifact"]
    try:
        data = bot_services.read_upload(upload)  # a file over the limit is refused unread
        version = bot_services.upload_version(
            bot, user=request.user, filename=upload.name, data=data
        )
    except Unavailable as exc:  # the host, not the upload: nothing refused, try again
        refund_upload(request)
        form.add_error("artifact", f"The upload could not be checked now: {exc}")
        return 503
    except RateLimited as exc:
        refund_upload(request)
        form.add_error("artifact", f"Too many uploads: {exc}.")
        return 429
    except ServiceError as exc:
        refund_upload(request)
        form.add_error("artifact", f"The upload was refused: {exc}")
        return 400
    messages.success(request, f"Uploaded version {version.number}; it plays once validated.")
    return None


@require_http_methods(["GET", "POST"])
def bot_detail(request: HttpRequest, name: str) -> HttpResponse:
    bot = get_object_or_404(bot_selectors.visible_bots(request.user), name=name)
    is_owner = request.user.is_authenticated and request.user.pk == bot.owner_id
    form = UploadForm()
    status = 200
    if request.method == "POST":
        if not is_owner:
            raise PermissionDenied("only the bot's owner may upload versions of it")
        form = UploadForm(request.POST, request.FILES)
        refused = _upload(request, bot, form)
        if refused is None:
            return redirect(reverse("web:bot", args=[bot.name]) + "#versions")
        status = refused
    matches = match_selectors.recent_matches(request.user, bot_id=bot.pk, limit=RECENT_MATCHES)
    summary = summaries([bot], user=request.user)[0]
    response = render(
        request,
        "web/bot.html",
        {
            "bot": bot,
            "is_owner": is_owner,
            "game_title": all_games()[bot.game].title,
            "private_details": bot_selectors.can_see_private_details(request.user, bot),
            "versions": bot_selectors.visible_versions(request.user, bot),
            "summary": summary,
            "follow": summary.pending or _awaits_first_match(bot, matches),
            "charts": _charts(bot),
            "matches": matches,
            "match_signature": json.dumps(_signature(matches), separators=(",", ":")),
            "head_to_head": match_selectors.head_to_head_for(request.user, bot.pk),
            "tournaments": bot_tournaments(request.user, bot.pk),
            "seasons": list(rating_selectors.bot_seasons(bot.pk)),
            "form": form,
        },
        status=status,
    )
    if status == 503:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


@login_required
@require_http_methods(["GET", "POST"])
def bot_new(request: HttpRequest) -> HttpResponse:
    form = BotForm(request.POST or None, initial={"is_public": True})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        wait = wait_seconds(request, "bots")
        if wait is not None:
            form.add_error(
                None, f"Too many new bots in the last hour; try again in {wait} seconds."
            )
            response = render(request, "web/bot_new.html", {"form": form}, status=429)
            response["Retry-After"] = str(wait)
            return response
        try:
            bot = bot_services.create_bot(
                request.user,
                name=data["name"],
                game=data["game"],
                description=data["description"],
                is_public=data["is_public"],
            )
        except RateLimited as exc:
            form.add_error(None, f"Too many new bots: {exc}.")
            response = render(request, "web/bot_new.html", {"form": form}, status=429)
            if exc.retry_after:
                response["Retry-After"] = str(exc.retry_after)
            return response
        except ServiceError as exc:
            form.add_error("name" if isinstance(exc, Conflict) else None, str(exc))
        else:
            messages.success(request, f"Created {bot.name}. Upload its first version below.")
            return redirect("web:bot", bot.name)
    return render(request, "web/bot_new.html", {"form": form}, status=400 if form.errors else 200)


@login_required
@require_GET
def my_bots(request: HttpRequest) -> HttpResponse:
    bots = (
        bot_selectors.visible_bots(request.user).filter(owner_id=request.user.pk).order_by("name")
    )
    return render(
        request,
        "web/my_bots.html",
        {
            "bots": bots,
            "summaries": summaries(list(bots), user=request.user),
            "matches": match_selectors.recent_matches(
                request.user, owner_id=request.user.pk, limit=RECENT_MATCHES
            ),
        },
    )


def _signature(matches: list[Match]) -> list[list[object]]:
    """The recent matches as the page's script compares them: id and status, newest first."""
    return [[m.pk, m.status] for m in matches]


def _awaits_first_match(bot: Bot, matches: list[Match]) -> bool:
    """An active version and no finished match yet: the page watches for the first ones."""
    if not bot.versions.filter(status=BotVersion.Status.ACTIVE).exists():
        return False
    return not any(m.status == Match.Status.FINISHED for m in matches)


@require_GET
def version_status(request: HttpRequest, name: str) -> JsonResponse:
    """The bot's versions and their statuses, for the bot page to poll while one is pending."""
    bot = get_object_or_404(bot_selectors.visible_bots(request.user), name=name)
    private = bot_selectors.can_see_private_details(request.user, bot)
    versions = [
        {
            "number": v.number,
            "status": v.status,
            "label": v.get_status_display(),
            **({"failure_reason": v.failure_reason} if private else {}),
        }
        for v in bot_selectors.visible_versions(request.user, bot).order_by("number")
    ]
    pending = any(v["status"] in ("pending", "validating") for v in versions)
    matches = match_selectors.recent_matches(request.user, bot_id=bot.pk, limit=RECENT_MATCHES)
    response = JsonResponse(
        {
            "bot": bot.name,
            "pending": pending,
            "versions": versions,
            # The page refreshes its record and match list when this list changes, and keeps
            # polling until the bot's first match is over.
            "matches": _signature(matches),
            "follow": pending or _awaits_first_match(bot, matches),
        }
    )
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def smoke_match(request: HttpRequest, name: str, number: int) -> HttpResponse:
    """The replay of a version's validation smoke match.

    Whoever may see the version may watch it: everyone for an accepted version of a public bot
    (the log holds only public moves, the bot's and the reference bots', never stderr), the
    owner and staff alone for a private bot or a rejected version, where it shows why it failed.
    """
    bot = get_object_or_404(bot_selectors.visible_bots(request.user), name=name)
    version = get_object_or_404(bot_selectors.visible_versions(request.user, bot), number=number)
    if not version.smoke_log:
        raise Http404("this version has no stored smoke match")
    replay = smoke_replay(version)
    return render(
        request,
        "web/smoke.html",
        {
            "bot": bot,
            "version": version,
            "replay": replay,
            "replay_data": replay.as_data() if not replay.error else None,
            "private_details": bot_selectors.can_see_private_details(request.user, bot),
            "game_script": f"web/games/{bot.game}.js",
            "game_title": all_games()[bot.game].title,
        },
    )
