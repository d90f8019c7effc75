"""Template filters of the web site."""

from __future__ import annotations

from django import template

from engine.registry import all_games

register = template.Library()


@register.filter
def game_title(name: str) -> str:
    """A game's display title ("East Indiaman") from its registry name ("east_indiaman")."""
    spec = all_games().get(name)
    return spec.title if spec else name
