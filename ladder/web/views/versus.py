"""Version tests on the site: start one from a bot's page, follow it, cancel it.

Owner-only pages: anyone else (and a missing test) gets the same 404.  Every write goes through
:mod:`ladder.versus.services`; the form only checks its input.
"""

from __future__ import annotations

import contextlib
from typing import cast

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from engine.registry import get_game
from ladder.accounts.models import User
from ladder.bots.models import Bot
from ladder.core.errors import RateLimited, ServiceError
from ladder.versus import selectors, services
from ladder.web.forms import AccessibleForm


class VersionTestForm(AccessibleForm):
    candidate = forms.TypedChoiceField(coerce=int, label="New version (candidate)")
    baseline = forms.TypedChoiceField(coerce=int, label="Current version (baseline)")
    players = forms.TypedChoiceField(
        coerce=int,
        label="Players per table",
        help_text="Both versions sit at one table; any other seats hold copies of the baseline.",
    )
    elo1 = forms.FloatField(
        initial=services.DEFAULT_ELO1,
        label="Smallest gain worth having (Elo)",
        help_text="The test accepts the candidate once it is convincingly this much better, and "
        "rejects it once it is convincingly no better (0 Elo).",
    )
    max_games = forms.IntegerField(
        initial=1000, min_value=2, label="At most this many games", help_text="An even number."
    )

    def __init__(self, bot: Bot, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        versions = [
            (v.pk, f"v{v.number} ({v.get_status_display()})")
            for v in bot.versions.filter(status__in=services.TESTABLE).order_by("-number")
        ]
        self.fields["candidate"].choices = versions  # type: ignore[attr-defined]
        self.fields["baseline"].choices = versions  # type: ignore[attr-defined]
        if len(versions) > 1:
            self.fields["baseline"].initial = versions[1][0]
        spec = get_game(bot.game)
        self.fields["players"].choices = [(n, str(n)) for n in spec.player_counts]  # type: ignore[attr-defined]


def _own_bot(request: HttpRequest, name: str) -> Bot:
    bot = get_object_or_404(Bot, name=name)
    if bot.owner_id != request.user.pk:
        raise Http404("no such bot")
    return bot


@login_required
@require_http_methods(["GET", "POST"])
def bot_version_tests(request: HttpRequest, name: str) -> HttpResponse:
    """A bot's version tests and the form to start one (the owner's page)."""
    bot = _own_bot(request, name)
    user = cast(User, request.user)
    form = VersionTestForm(bot, request.POST or None)
    status = 200
    retry_after: int | None = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            test = services.start_test(
                user=user,
                candidate_id=data["candidate"],
                baseline_id=data["baseline"],
                players=data["players"],
                elo1=data["elo1"],
                max_games=data["max_games"],
            )
        except RateLimited as exc:
            form.add_error(None, str(exc))
            status, retry_after = 429, exc.retry_after
        except ServiceError as exc:
            form.add_error(None, str(exc))
            status = 400
        else:
            return redirect(reverse("web:version-test", args=[test.pk]))
    elif request.method == "POST":
        status = 400
    response = render(
        request,
        "web/version_tests.html",
        {"bot": bot, "form": form, "tests": selectors.tests_of_bot(user, bot.pk)},
        status=status,
    )
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@login_required
def version_test_detail(request: HttpRequest, pk: int) -> HttpResponse:
    test = selectors.test_for(cast(User, request.user), pk)
    if test is None:
        raise Http404("no such version test")
    return render(
        request,
        "web/version_test.html",
        {
            "test": test,
            "progress": selectors.progress(test),
            "games": selectors.test_matches(test).order_by("-pair", "leg")[:20],
        },
    )


@login_required
@require_POST
def version_test_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    user = cast(User, request.user)
    if selectors.test_for(user, pk) is None:
        raise Http404("no such version test")
    with contextlib.suppress(ServiceError):  # already over: the page shows how it ended
        services.cancel_test(user=user, test_id=pk)
    return redirect(reverse("web:version-test", args=[pk]))
