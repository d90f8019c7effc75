"""Home: which ladders are active, their leaders, why the others are empty; the provisional
mark explained on home and standings."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from ladder.ladders.models import Ladder
from tests.helpers import present

pytestmark = pytest.mark.django_db


def ladder_items(html: str) -> dict[str, str]:
    """Each ladder item's text by its standings link (``/ladders/batavia/3/``)."""
    items = {}
    for block in re.findall(
        r'<li class="ladder-item.*?</li>\s*(?=<li class="ladder-item|</ul>)', html, re.S
    ):
        link = present(re.search(r'href="(/ladders/[^"]+)"', block), "a ladder link").group(1)
        items[link] = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", block)).strip()
    return items


def test_home_shows_leaders_of_active_ladders_and_explains_the_rest(site_world, web_clients):
    html = web_clients["anonymous"].get(reverse("web:home")).content.decode()
    items = ladder_items(html)
    assert len(items) == Ladder.objects.count()
    batavia3 = items[reverse("web:standings", args=["batavia", 3])]
    assert "active" in batavia3 and "not active" not in batavia3
    # Each game has three public bots: one finished match put all three on the 3-player table.
    assert all(name in batavia3 for name in ("alice-batavia", "bob-batavia", "olivia-batavia"))
    batavia5 = items[reverse("web:standings", args=["batavia", 5])]
    assert "not active" in batavia5 and "needs 5 public bots" in batavia5 and "2 more" in batavia5
    two = items[reverse("web:standings", args=["east_indiaman", 2])]
    assert "Starting" in two  # enough bots, no rated game yet
    active = sum(1 for text in items.values() if "not active" not in text)
    assert f"{active} of {len(items)} ladders are active" in html
    assert 'id="provisional-legend"' in html and "fewer than 5 rated games" in html


def test_a_paused_ladder_says_so(site_world, web_clients):
    Ladder.objects.filter(game="borneo", num_players=3).update(schedule_enabled=False)
    html = web_clients["anonymous"].get(reverse("web:home")).content.decode()
    text = ladder_items(html)[reverse("web:standings", args=["borneo", 3])]
    assert "not active" in text and "Paused" in text


def test_standings_explain_the_provisional_mark(site_world, web_clients):
    html = web_clients["anonymous"].get(reverse("web:standings", args=["batavia", 3])).content
    html = html.decode()
    assert 'id="provisional-legend"' in html
    assert html.count('class="prov-mark inline-prov"') == 3  # one game each: all provisional
    assert "wider than 250 Elo" in html
