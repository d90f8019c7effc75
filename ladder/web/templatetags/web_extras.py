"""Template filters of the web site."""

from __future__ import annotations

from django import template
from django.contrib.auth.models import AnonymousUser

from engine.registry import all_games
from ladder.bots.selectors import bot_named_for
from ladder.matches import selectors as match_selectors
from ladder.matches.models import MatchSeat

register = template.Library()


@register.filter
def game_title(name: str) -> str:
    """A game's display title ("East Indiaman") from its registry name ("east_indiaman")."""
    spec = all_games().get(name)
    return spec.title if spec else name


@register.simple_tag(takes_context=True)
def seat_label(context: template.Context, seat: MatchSeat) -> str:
    """A seat's ``name vN`` as the visitor may read it: ``bot_selectors.visible_version_label``
    decides (a private bot of somebody else reads "a private bot"); templates never check."""
    request = context.get("request")
    viewer = getattr(request, "user", None) or AnonymousUser()
    if bot_named_for(viewer, seat.bot_version.bot):
        return seat.bot_version.label
    # Two private bots of one match read "private bot 1" and "private bot 2" (seat order).
    seats = list(seat.match.seats.all())
    labels = match_selectors.seat_labels(seats, viewer)
    return dict(zip((s.seat for s in seats), labels, strict=True))[seat.seat]


@register.filter
def with_article(words: str) -> str:
    """ "a Batavia" but "an East Indiaman": the article by the first letter's sound (the game
    titles start with a plain vowel or consonant)."""
    text = str(words)
    return f"{'an' if text[:1].lower() in 'aeiou' else 'a'} {text}"


@register.filter
def points(value: float | int | None) -> str:
    """ "1 point", "1.5 points", "0 points": at most two decimals, the plural unless exactly 1."""
    number = float(value or 0)
    text = f"{number:.2f}".rstrip("0").rstrip(".")
    return f"{text} point{'' if number == 1 else 's'}"
