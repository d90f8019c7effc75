"""Tournament pages: the list, one tournament (entrants, rounds, progress, standings, cross-table)
and its forms (register and withdraw bots; the organiser's pause, resume and cancel).

Reads go through ``ladder.tournaments.selectors`` and every write through
``ladder.tournaments.services``, so the page refuses exactly what the API refuses, with the
service's own words.  A refused POST renders the page again with the reason next to the form
(``role="alert"``) and the service's HTTP status; an accepted one redirects (post/redirect/get).
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterable, Mapping
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from engine.registry import all_games
from ladder.accounts.models import Visitor
from ladder.accounts.selectors import is_organiser
from ladder.bots.models import Bot
from ladder.core.errors import ServiceError
from ladder.tournaments import selectors, services
from ladder.tournaments.models import Entrant, Tournament
from ladder.tournaments.standings import placement_points
from ladder.web.forms import AccessibleForm
from ladder.web.views import tournament_setup

DASH = "\u2013"  # an en dash between the numbers of a range or record
FINISHED_LISTED = 50  # finished tournaments on the list page: the latest ones
Status = Tournament.Status


class EntryForm(AccessibleForm):
    """The bot to enter; the menu lists the visitor's eligible bots, the service decides."""

    bot = forms.IntegerField(label="Bot", widget=forms.Select)

    def __init__(
        self, data: Mapping[str, object] | None = None, *, bots: Iterable[Bot] = ()
    ) -> None:
        super().__init__(data)
        self.fields["bot"].widget.choices = [(b.pk, b.name) for b in bots]


class WithdrawForm(AccessibleForm):
    bot = forms.IntegerField(widget=forms.HiddenInput)


class ReasonForm(AccessibleForm):
    """Pause and cancel: an optional reason shown on the page (the service writes a default)."""

    reason = forms.CharField(
        required=False,
        max_length=2000,
        label="Reason (optional)",
        help_text="Shown on the tournament page.",
    )


class CancelForm(ReasonForm):
    confirm = forms.BooleanField(
        label="Cancel for good: unplayed matches are dropped; this cannot be undone",
        error_messages={
            "required": "Tick the box to confirm: a cancelled tournament cannot be resumed."
        },
    )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _game_title(game: str) -> str:
    spec = all_games().get(game)
    return spec.title if spec else game


def _format_text(t: Tournament) -> str:
    """The format in words, with the settings that change what a round is."""
    parts = [t.get_format_display()]
    if t.format == Tournament.Format.SWISS and t.rounds:
        parts.append(f"{t.rounds} rounds")
    if t.format == Tournament.Format.ELIMINATION:
        parts.append(f"top {t.advance} of each table go through")
    per_table = selectors.per_table(t)
    parts.append(f"{per_table} game{'s' if per_table != 1 else ''} per table per round")
    if t.duplicate:
        parts.append("duplicate deals")
    return ", ".join(parts)


def _progress(t: Tournament) -> dict[str, Any]:
    """Matches done of the planned total, the percentage, and the round in words."""
    p = selectors.progress(t)
    total, done = p["matches_total"], p["matches_done"]
    percent = round(100 * done / total) if total else (100 if t.status == Status.FINISHED else 0)
    return {
        **p,
        "percent": percent,
        "round_text": (
            f"Round {p['current_round']} of {p['rounds']}" if p["rounds"] else "Not started"
        ),
    }


def _registration(t: Tournament) -> dict[str, Any]:
    """Whether the window is open now, in words, for the visitor (the service has the last
    word when a form is sent)."""
    now = timezone.now()
    if t.status != Status.SCHEDULED or now >= t.starts_at:
        state, text = "closed", "Registration is closed: entrants are fixed."
    elif now < t.registration_opens_at:
        state, text = "not-yet", "Registration has not opened yet."
    elif now >= t.registration_closes_at:
        state, text = "closed", "Registration has closed."
    else:
        state, text = "open", "Registration is open."
    return {"state": state, "text": text}


def _rounds(t: Tournament, viewer: Visitor) -> list[dict[str, Any]]:
    """Each round's tables: the seated bots with their points at the table, and each match with
    its status and who came first."""
    out = []
    for rnd in selectors.rounds(t, viewer):
        tables = []
        for table in rnd["tables"]:
            points: dict[int, float] = {e["entrant"]: 0.0 for e in table["entrants"]}
            names = {e["entrant"]: e["bot_name"] for e in table["entrants"]}
            matches = []
            for m in table["matches"]:
                winners = ""
                if m["places"]:
                    for e, pts in zip(m["seating"], placement_points(m["places"]), strict=True):
                        points[e] = points.get(e, 0.0) + pts
                    winners = ", ".join(
                        names.get(e, "?")
                        for e, place in zip(m["seating"], m["places"], strict=True)
                        if place == 1
                    )
                matches.append({**m, "winners": winners})
            tables.append(
                {
                    "number": table["table"] + 1,
                    "matches": matches,
                    "entrants": [{**e, "points": points[e["entrant"]]} for e in table["entrants"]],
                }
            )
        out.append({**rnd, "tables": tables})
    return out


def _crosstable(t: Tournament, order: list[int], viewer: Visitor) -> dict[str, Any]:
    """The cross-table as a square grid in standings order: row bot against column bot."""
    ct = selectors.crosstable(t, viewer)
    heads = {int(e["entrant"]): e for e in ct["entrants"]}
    order = [e for e in order if e in heads] + [e for e in heads if e not in order]
    cells = {(int(r["entrant"]), int(c["opponent"])): c for r in ct["rows"] for c in r["cells"]}
    rows = []
    for a in order:
        row: list[dict[str, object]] = []
        for b in order:
            cell = cells.get((a, b))
            if a == b:
                row.append({"self": True})
            elif cell is None:
                row.append({"met": False})
            else:
                row.append(
                    {
                        "met": True,
                        **cell,
                        "text": f"{cell['ahead']}{DASH}{cell['behind']}"
                        + (f"{DASH}{cell['tied']}" if cell["tied"] else ""),
                    }
                )
        rows.append({"entrant": heads[a], "cells": row})
    return {"columns": [heads[e] for e in order], "rows": rows}


def _standings(t: Tournament, viewer: Visitor) -> list[dict[str, Any]]:
    """The standings rows with P(first) and the rank interval in words; a bot that has not
    played a game yet (only byes, or nothing) shows neither, since resampling no games says
    nothing about it (after round 1 a bye once showed "P(first) 100%")."""
    rows = []
    for row in selectors.standings(t, viewer):
        played = float(row.get("games") or 0) > 0
        p = row.get("p_first") if played else None
        rows.append(
            {
                **row,
                "p_first_text": DASH if p is None else f"{100 * p:.0f}%",
                "interval": (
                    ""
                    if not played or row.get("rank_low") is None
                    else f"{row['rank_low']}{DASH}{row['rank_high']}"
                ),
            }
        )
    return rows


def page_zone(request: HttpRequest, t: Tournament | None = None) -> zoneinfo.ZoneInfo:
    """The zone the server writes times in: the one the visitor chose on a tournament form,
    else the tournament's (its organiser's), else UTC.  The page's script then rewrites them
    in the browser's own zone and names it."""
    if tournament_setup.TZ_COOKIE in request.COOKIES or t is None:
        return tournament_setup.viewer_zone(request)
    return tournament_setup.stored_zone(t)


def _live_context(request: HttpRequest, t: Tournament) -> dict[str, Any]:
    """What the parts that change while a tournament runs need (the page and its fragment)."""
    user = request.user
    entrants = list(selectors.entrants(t))
    standings = _standings(t, user)
    manage = selectors.can_manage(user, t)
    withdrawable = {
        e.pk
        for e in entrants
        if t.status == Status.SCHEDULED
        and (manage or (user.is_authenticated and e.bot.owner_id == user.pk))
    }
    return {
        "t": t,
        "progress": _progress(t),
        "registration": _registration(t),
        "entrants": selectors.entrant_rows(entrants, user),
        "entrant_objects": entrants,
        "started": t.started_at is not None,
        "withdrawable": withdrawable,
        "rounds": _rounds(t, user),
        "standings": standings,
        "elimination": t.format == Tournament.Format.ELIMINATION,
        "crosstable": _crosstable(t, [int(r["entrant"]) for r in standings], user),
        "can_manage": manage,
        "live_seconds": settings.MONSOON_TOURNAMENT_REFRESH_SECONDS,
    }


def _page(
    request: HttpRequest, t: Tournament, *, status: int = 200, **bound: object
) -> HttpResponse:
    """The tournament page; ``bound`` holds a refused form to show with its errors."""
    user = request.user
    live = _live_context(request, t)
    entrants = live["entrant_objects"]
    mine = [e for e in entrants if user.is_authenticated and e.bot.owner_id == user.pk]
    eligible = list(selectors.eligible_bots(user, t))
    can_register = user.is_authenticated and t.status == Status.SCHEDULED
    zone = page_zone(request, t)
    with timezone.override(zone):
        return render(
            request,
            "web/tournament.html",
            {
                **live,
                "game_title": _game_title(t.game),
                "format_text": _format_text(t),
                "mine": mine,
                "dropped": [e for e in entrants if e.status == Entrant.Status.DROPPED],
                "withdraw_error": bound.get("withdraw_error"),
                "can_register": can_register,
                "entry_form": bound.get("entry_form") or EntryForm(bots=eligible),
                "has_eligible": bool(eligible),
                "entry_form_shown": can_register and bool(eligible),
                "pause_form": bound.get("pause_form") or ReasonForm(prefix="pause"),
                "cancel_form": bound.get("cancel_form") or CancelForm(prefix="cancel"),
                "control_error": bound.get("control_error"),
                "zone_name": zone.key,
                "preview": tournament_setup.page_preview(t),
            },
            status=status,
        )


@require_GET
def tournament_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The parts of the page that change while the tournament runs, for its script to poll;
    ``data-status`` tells the script when to reload the whole page instead."""
    t = get_object_or_404(selectors.reachable_tournaments(), pk=pk)
    zone = page_zone(request, t)
    with timezone.override(zone):
        response = render(
            request,
            "web/_tournament_live.html",
            {**_live_context(request, t), "zone_name": zone.key},
        )
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    """Running, upcoming and finished tournaments the visitor may see listed."""
    qs = selectors.with_counts(selectors.listed_tournaments(request.user))
    running = list(qs.filter(status__in=[Status.RUNNING, Status.PAUSED]))
    upcoming = list(qs.filter(status=Status.SCHEDULED).order_by("starts_at", "id"))
    over = list(
        qs.filter(status__in=[Status.FINISHED, Status.CANCELLED]).order_by("-finished_at", "-id")[
            :FINISHED_LISTED
        ]
    )
    groups: list[dict[str, Any]] = [
        {
            "id": "running",
            "title": "Running",
            "items": running,
            "empty": "No tournament is running right now.",
        },
        {
            "id": "upcoming",
            "title": "Upcoming",
            "items": upcoming,
            "empty": "No tournament is scheduled.",
        },
        {
            "id": "finished",
            "title": "Finished",
            "items": over,
            "empty": "No tournament has finished yet.",
        },
    ]
    for group in groups:
        group["items"] = [
            {"t": t, "game_title": _game_title(t.game), "format": t.get_format_display()}
            for t in group["items"]
        ]
    zone = page_zone(request)
    with timezone.override(zone):
        return render(
            request,
            "web/tournaments.html",
            {"groups": groups, "can_create": is_organiser(request.user), "zone_name": zone.key},
        )


@require_GET
def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _page(request, get_object_or_404(selectors.reachable_tournaments(), pk=pk))


def _done(request: HttpRequest, t: Tournament, text: str, anchor: str) -> HttpResponse:
    messages.success(request, text)
    return redirect(reverse("web:tournament", args=[t.pk]) + anchor)


@require_POST
def register(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_object_or_404(selectors.reachable_tournaments(), pk=pk)
    form = EntryForm(request.POST, bots=selectors.eligible_bots(request.user, t))
    if form.is_valid():
        try:
            entrant = services.register_entrant(
                t.pk, user=request.user, bot_id=form.cleaned_data["bot"]
            )
        except ServiceError as exc:
            form.add_error("bot", str(exc))
            return _page(request, t, status=exc.status_code, entry_form=form)
        return _done(request, t, f"{entrant.bot.name} is entered.", "#entrants")
    return _page(request, t, status=400, entry_form=form)


@require_POST
def unregister(request: HttpRequest, pk: int) -> HttpResponse:
    t = get_object_or_404(selectors.reachable_tournaments(), pk=pk)
    form = WithdrawForm(request.POST)
    if not form.is_valid():
        return _page(request, t, status=400, withdraw_error="Choose the bot to withdraw.")
    try:
        services.unregister_entrant(t.pk, user=request.user, bot_id=form.cleaned_data["bot"])
    except ServiceError as exc:
        return _page(request, t, status=exc.status_code, withdraw_error=str(exc))
    return _done(request, t, "The bot is withdrawn.", "#entrants")


@require_POST
def control(request: HttpRequest, pk: int, operation: str) -> HttpResponse:
    """Pause, resume or cancel: the organiser's and staff's buttons."""
    t = get_object_or_404(selectors.reachable_tournaments(), pk=pk)
    if operation == "resume":
        try:
            services.resume_tournament(t.pk, user=request.user)
        except ServiceError as exc:
            return _page(request, t, status=exc.status_code, control_error=str(exc))
        return _done(request, t, "The tournament carries on.", "#progress")
    form_class = CancelForm if operation == "cancel" else ReasonForm
    form = form_class(request.POST, prefix=operation)
    bound = {f"{operation}_form": form}
    # Form errors matter only to those allowed to act: anyone else hears the service's refusal
    # rather than being asked to tick a box for a button they cannot use.
    if not form.is_valid() and selectors.can_manage(request.user, t):
        return _page(request, t, status=400, **bound)
    call = services.cancel_tournament if operation == "cancel" else services.pause_tournament
    try:
        call(t.pk, user=request.user, reason=form.cleaned_data.get("reason", ""))
    except ServiceError as exc:
        return _page(request, t, status=exc.status_code, control_error=str(exc), **bound)
    return _done(
        request,
        t,
        "The tournament is cancelled." if operation == "cancel" else "The tournament is paused.",
        "#progress",
    )


def bot_tournaments(user: Visitor, bot_id: int) -> list[dict[str, Any]]:
    """The bot page's tournament list: each entry with its status and, when over, the rank."""
    out = []
    for e in selectors.bot_entries(user, bot_id):
        rank = selectors.final_rank(e.tournament, e.pk)
        out.append({"entry": e, "t": e.tournament, "rank_text": _ordinal(rank) if rank else ""})
    return out
