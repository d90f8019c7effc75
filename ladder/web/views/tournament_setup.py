"""The organiser's tournament pages: create, edit (with a preview of the schedule and the match
count) and invite or remove entrants.

Every rule is the service's: the form checks types, ``services.check_settings`` /
``create_tournament`` / ``update_tournament`` / ``register_entrant`` / ``unregister_entrant``
decide, and their refusal is shown next to the field it is about.  The organiser's time zone is
stored with the tournament (the edit form shows the times in it) and remembered in a cookie for
the next form; a fresh create form starts from the browser's zone.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from ladder.accounts.models import Visitor
from ladder.accounts.selectors import is_organiser, pending_request
from ladder.accounts.services import request_organiser
from ladder.bots.selectors import visible_bots
from ladder.core.errors import ServiceError
from ladder.tournaments import selectors, services
from ladder.tournaments.models import Entrant, Tournament
from ladder.tournaments.tournament_settings import TournamentSettings
from ladder.web.forms import InviteForm, OrganiserRequestForm, TournamentForm
from ladder.web.tournament_preview import Preview, cached_preview, unsaved

TZ_COOKIE = "monsoon_tz"
TZ_COOKIE_AGE = 365 * 24 * 3600
DEFAULT_PREVIEW_ENTRANTS = 8

# Which field a refusal of the service is about, by the words it uses (first match wins).  A
# message that names none of them is shown above the form.
FIELD_WORDS: tuple[tuple[str, str], ...] = (
    ("unknown game", "game"),
    ("game cannot change", "game"),
    ("players per table", "num_players"),
    ("no ladder for", "num_players"),
    ("variant", "variant"),
    ("unknown format", "format"),
    ("games_per_pairing", "games_per_pairing"),
    ("rounds", "rounds"),
    ("advance", "advance"),
    ("starts_at", "starts_at"),
    ("registration must close", "registration_closes_at"),
    ("cannot start before registration closes", "starts_at"),
    ("time_zone", "time_zone"),
)


def field_of(message: str) -> str | None:
    lowered = message.lower()
    for words, name in FIELD_WORDS:
        if words in lowered:
            return name
    return None


def viewer_zone(request: HttpRequest) -> zoneinfo.ZoneInfo:
    """The zone the visitor chose on a tournament form (a cookie), else UTC."""
    name = request.COOKIES.get(TZ_COOKIE, "")
    try:
        return zoneinfo.ZoneInfo(name) if name else zoneinfo.ZoneInfo("UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def stored_zone(t: Tournament) -> zoneinfo.ZoneInfo:
    """The zone the organiser entered the tournament's times in (UTC if it is unknown)."""
    try:
        return zoneinfo.ZoneInfo(t.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _service_refusal(form: TournamentForm, exc: ServiceError) -> None:
    form.add_error(field_of(str(exc)), str(exc))


def _checked(form: TournamentForm) -> dict[str, Any] | None:
    """The service's cleaned settings, or None with its refusal put on the form."""
    try:
        return services.check_settings(TournamentSettings(**form.service_data()))
    except ServiceError as exc:
        _service_refusal(form, exc)
        return None


def _form_preview(form: TournamentForm, n: int) -> Preview | None:
    clean = _checked(form)
    if clean is None:
        return None
    return cached_preview(unsaved(clean), form.cleaned_data.get("preview_entrants") or n)


def _render_form(
    request: HttpRequest,
    form: TournamentForm,
    *,
    t: Tournament | None = None,
    shown: Preview | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "web/tournament_form.html",
        {"form": form, "t": t, "preview": shown},
        status=status,
    )


def _saved(request: HttpRequest, t: Tournament, form: TournamentForm, text: str) -> HttpResponse:
    messages.success(request, text)
    response = redirect(reverse("web:tournament", args=[t.pk]))
    response.set_cookie(
        TZ_COOKIE, form.cleaned_data["time_zone"], max_age=TZ_COOKIE_AGE, samesite="Lax"
    )
    return response


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest) -> HttpResponse:
    """Organisers and staff only; "Preview" re-renders with the schedule, "Create" saves."""
    if not is_organiser(request.user):
        # Not an error to look at: the page says what an organiser is and how to become one.
        # Sending the form is refused (403) with the same page.
        return _organiser_page(
            request, OrganiserRequestForm(), status=200 if request.method == "GET" else 403
        )
    zone = viewer_zone(request)
    if request.method == "GET":
        form = TournamentForm(
            initial={"time_zone": zone.key, "preview_entrants": DEFAULT_PREVIEW_ENTRANTS}
        )
        if TZ_COOKIE not in request.COOKIES:
            # No zone chosen yet: timezone.js picks the browser's (the times are still empty).
            form.fields["time_zone"].widget.attrs["data-browser-zone"] = "true"
        return _render_form(request, form)
    form = TournamentForm(request.POST)
    if not form.is_valid():
        return _render_form(request, form, status=400)
    if "preview" in request.POST:
        shown = _form_preview(form, DEFAULT_PREVIEW_ENTRANTS)
        return _render_form(request, form, shown=shown, status=200 if shown else 400)
    try:
        t = services.create_tournament(
            request.user, settings=TournamentSettings(**form.service_data())
        )
    except ServiceError as exc:
        _service_refusal(form, exc)
        return _render_form(request, form, status=exc.status_code)
    return _saved(
        request,
        t,
        form,
        f"{t.name} is scheduled. Invite bots from the organiser controls, or wait for entries.",
    )


def _organiser_page(
    request: HttpRequest, form: OrganiserRequestForm, *, status: int = 200
) -> HttpResponse:
    """What an organiser is, and the request to become one (or the one waiting for staff)."""
    return render(
        request,
        "web/organiser_request.html",
        {"form": form, "pending": pending_request(request.user)},
        status=status,
    )


@login_required
@require_http_methods(["POST"])
def organiser_request(request: HttpRequest) -> HttpResponse:
    """Ask staff to become an organiser; staff approve it in the admin."""
    form = OrganiserRequestForm(request.POST)
    if not form.is_valid():
        return _organiser_page(request, form, status=400)
    try:
        request_organiser(request.user, reason=form.cleaned_data["reason"])
    except ServiceError as exc:
        form.add_error("reason", str(exc))
        return _organiser_page(request, form, status=exc.status_code)
    messages.success(
        request, "Your request is sent. Staff will decide; you will be told here when they do."
    )
    return redirect(reverse("web:tournament-new"))


def _managed(request: HttpRequest, pk: int) -> Tournament:
    t = get_object_or_404(selectors.reachable_tournaments(), pk=pk)
    if not selectors.can_manage(request.user, t):
        raise PermissionDenied("only the tournament's organiser or staff can change it")
    return t


def _entrant_count(t: Tournament) -> int:
    return t.entrants.filter(status=Entrant.Status.REGISTERED).count()


@login_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, pk: int) -> HttpResponse:
    """The organiser's (and staff's) form; the service refuses once the tournament started."""
    t = _managed(request, pk)
    zone = stored_zone(t)
    n = max(_entrant_count(t), 1)
    if request.method == "GET":
        initial = TournamentForm.initial_for(t, zone)
        initial["preview_entrants"] = n
        return _render_form(request, TournamentForm(initial=initial), t=t)
    form = TournamentForm(request.POST)
    if not form.is_valid():
        return _render_form(request, form, t=t, status=400)
    if "preview" in request.POST:
        shown = _form_preview(form, n)
        return _render_form(request, form, t=t, shown=shown, status=200 if shown else 400)
    try:
        settings = replace(TournamentSettings.of(t), **form.service_data())
        t = services.update_tournament(t.pk, user=request.user, settings=settings)
    except ServiceError as exc:
        _service_refusal(form, exc)
        return _render_form(request, form, t=t, status=exc.status_code)
    return _saved(request, t, form, f"{t.name} is updated.")


def page_preview(t: Tournament) -> Preview | None:
    """The tournament page's preview before the start, for the bots registered so far."""
    if t.started_at is not None or t.status != Tournament.Status.SCHEDULED:
        return None
    return cached_preview(
        unsaved(
            {
                f: getattr(t, f)
                for f in (
                    "format",
                    "num_players",
                    "games_per_pairing",
                    "duplicate",
                    "rounds",
                    "advance",
                )
            }
        ),
        _entrant_count(t),
    )


def _bot_id(user: Visitor, text: str) -> int | None:
    """A bot id from a name or a number; names resolve among the bots the user may see, so a
    private bot of someone else is as unknown as a missing one."""
    text = text.strip()
    if text.isdigit():
        return int(text)
    return visible_bots(user).filter(name=text).values_list("pk", flat=True).first()


def _render_invite(
    request: HttpRequest, t: Tournament, form: InviteForm, *, error: str = "", status: int = 200
) -> HttpResponse:
    return render(
        request,
        "web/tournament_invite.html",
        {
            "t": t,
            "form": form,
            "entrants": selectors.entrant_rows(list(selectors.entrants(t)), request.user),
            "open": t.status == Tournament.Status.SCHEDULED and t.started_at is None,
            "remove_error": error,
        },
        status=status,
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_invite(request: HttpRequest, pk: int) -> HttpResponse:
    """Invite a bot by name or id, or remove an entrant (``remove`` holds its bot id)."""
    t = _managed(request, pk)
    back = reverse("web:tournament-invite", args=[t.pk])
    if request.method == "GET":
        return _render_invite(request, t, InviteForm())
    if "remove" in request.POST:
        raw = request.POST.get("remove", "")
        if not raw.isdigit():
            return _render_invite(
                request, t, InviteForm(), error="Choose the bot to remove.", status=400
            )
        try:
            services.unregister_entrant(tournament_id=t.pk, user=request.user, bot_id=int(raw))
        except ServiceError as exc:
            return _render_invite(request, t, InviteForm(), error=str(exc), status=exc.status_code)
        messages.success(request, "The bot is removed.")
        return redirect(back)
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _render_invite(request, t, form, status=400)
    name = form.cleaned_data["bot"]
    bot_id = _bot_id(request.user, name)
    if bot_id is None:
        form.add_error("bot", f"no such bot: {name.strip()}")
        return _render_invite(request, t, form, status=400)
    try:
        entrant = services.register_entrant(tournament_id=t.pk, user=request.user, bot_id=bot_id)
    except ServiceError as exc:
        form.add_error("bot", str(exc))
        return _render_invite(request, t, form, status=exc.status_code)
    messages.success(request, f"{entrant.bot.name} is invited.")
    return redirect(back)
