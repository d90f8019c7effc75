"""Challenges from the site: one of your bots against opponents you pick, unranked.

``/challenge/`` lists your bots; ``/bots/<name>/challenge/`` offers the bots that may sit at
its table (public bots of the game with an active version, and your own) and creates the match
through ``ladder.matches.services.create_challenge``, which checks ownership, visibility, table
size and the hourly limit; its refusals are shown as the form's error.
"""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from engine.registry import all_games
from ladder.accounts.models import Visitor
from ladder.bots import selectors as bot_selectors
from ladder.bots.models import Bot, BotVersion
from ladder.core.errors import RateLimited, ServiceError
from ladder.matches import services as match_services
from ladder.web.forms import AccessibleForm


def possible_opponents(user: Visitor, bot: Bot) -> QuerySet[Bot]:
    """Bots that may join ``bot``'s challenge: same game, an active version, public or yours."""
    return (
        bot_selectors.visible_bots(user)
        .filter(Q(is_public=True) | Q(owner=user), game=bot.game)
        .filter(versions__status=BotVersion.Status.ACTIVE)
        .exclude(pk=bot.pk)
        .distinct()
        .order_by("name")
    )


class ChallengeForm(AccessibleForm):
    opponents = forms.ModelMultipleChoiceField(
        queryset=Bot.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        help_text="They take the seats after yours, in the order listed.",
    )

    def __init__(self, *args: object, opponents: QuerySet[Bot], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["opponents"]
        field.queryset = opponents  # type: ignore[attr-defined]
        field.label_from_instance = lambda b: f"{b.name} ({b.owner.username})"  # type: ignore[attr-defined]


@login_required
@require_GET
def challenge_index(request: HttpRequest) -> HttpResponse:
    """Your bots to challenge with; with ``?against=<bot>``, those of that bot's game."""
    bots = bot_selectors.visible_bots(request.user).filter(owner_id=request.user.pk)
    against = None
    if request.GET.get("against"):
        against = (
            bot_selectors.visible_bots(request.user).filter(name=request.GET["against"]).first()
        )
        if against is None:
            raise Http404("no such bot")
        bots = bots.filter(game=against.game).exclude(pk=against.pk)
    return render(
        request,
        "web/challenge_index.html",
        {"bots": bots.order_by("name"), "against": against},
    )


@login_required
@require_http_methods(["GET", "POST"])
def challenge_bot(request: HttpRequest, name: str) -> HttpResponse:
    bot = get_object_or_404(bot_selectors.visible_bots(request.user), name=name)
    if bot.owner_id != request.user.pk:
        raise Http404("you can challenge only with your own bots")
    spec = all_games()[bot.game]
    opponents = possible_opponents(request.user, bot)
    initial = {"opponents": list(opponents.filter(name=request.GET.get("against", "")))}
    form = ChallengeForm(request.POST or None, opponents=opponents, initial=initial)
    status, retry_after = 200, None
    if request.method == "POST":
        status = 400
        if form.is_valid():
            chosen = [b.pk for b in form.cleaned_data["opponents"]]
            try:
                match = match_services.create_challenge(request.user, [bot.pk, *chosen])
            except RateLimited as exc:
                form.add_error(None, f"Too many challenges: {exc}.")
                status, retry_after = 429, exc.retry_after
            except ServiceError as exc:
                form.add_error(None, f"The challenge was refused: {exc}.")
            else:
                return redirect("web:match", match.pk)
    response = render(
        request,
        "web/challenge.html",
        {"bot": bot, "game": spec, "form": form, "has_active": _has_active(bot)},
        status=status,
    )
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


def _has_active(bot: Bot) -> bool:
    return bot_selectors.latest_active_version(bot) is not None
