"""Ladder seasons: ending one freezes its standings, the next starts carried over or reset, and
the frozen table is served on the web and in the API (and listed on the bot page)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ladder.accounts.services import create_user
from ladder.ladders.models import Ladder
from ladder.ratings import selectors
from ladder.ratings.models import Rating, Season
from ladder.ratings.services import end_season, refit_ladder
from tests.factories import (
    api_client,
    ladder_for,
    make_active_version,
    make_bot,
    make_user,
    web_client,
)
from tests.helpers import present
from tests.play import play


@pytest.fixture
def field(db):
    owners = [create_user(name) for name in ("ann", "ben", "cat", "dan")]
    return {o.username: make_active_version(make_bot(o, f"bot-{o.username}")) for o in owners}


def played_season(field):
    for i in range(6):
        play(field, ["ann", "ben", "cat"], ["ann", "ben", "cat"], seed=i)
        play(field, ["ann", "ben", "dan"], ["ann", "dan", "ben"], seed=100 + i)
    ladder = ladder_for(players=3)
    refit_ladder(ladder.pk, samples=10)
    return ladder


def test_ending_a_season_freezes_its_standings_and_carries_ratings_with_wider_intervals(field):
    ladder = played_season(field)
    before = {r.bot_version_id: r for r in Rating.objects.filter(ladder=ladder)}
    live = [(s.rank, s.rating.bot_version.bot.name) for s in selectors.standings(ladder)]
    season = end_season(ladder.pk)
    assert season.number == 1 and season.ended_at is not None
    frozen = list(selectors.season_standings(season))
    assert [(r.rank, r.bot.name) for r in frozen] == live
    assert frozen[0].bot.name == "bot-ann" and frozen[0].games == 12
    assert all(r.low <= r.rating <= r.high for r in frozen)
    # The next season is current; the ratings kept their centre, their interval widened and
    # their game counts start again.
    current = selectors.current_season(ladder)
    assert current is not None and (current.number, current.start) == (2, "carry")
    for rating in Rating.objects.filter(ladder=ladder):
        old = before[rating.bot_version_id]
        assert rating.mu == pytest.approx(old.mu)
        assert rating.sd > old.sd and rating.high - rating.low > old.high - old.low
        assert rating.games == 0
    # A refit within the new season (no games yet) starts from the carried beliefs: the order
    # stays, rather than every bot falling back to the same prior.
    refit_ladder(ladder.pk, samples=0)
    names = [s.rating.bot_version.bot.name for s in selectors.standings(ladder)]
    assert names[0] == "bot-ann"
    assert len({round(r.rating) for r in Rating.objects.filter(ladder=ladder)}) > 1
    # The frozen table did not move with the ratings.
    assert [(r.rank, r.rating) for r in selectors.season_standings(season)] == [
        (r.rank, r.rating) for r in frozen
    ]


def test_a_reset_season_starts_every_bot_from_the_prior_and_refits_only_its_own_games(field):
    ladder = played_season(field)
    Ladder.objects.filter(pk=ladder.pk).update(season_start=Ladder.SeasonStart.RESET)
    end_season(ladder.pk)
    ratings = list(Rating.objects.filter(ladder=ladder))
    assert {(round(r.rating), r.games) for r in ratings} == {(1500, 0)}
    refit_ladder(ladder.pk, samples=0)  # last season's matches do not count in this one
    assert {r.games for r in Rating.objects.filter(ladder=ladder)} == {0}
    play(field, ["ann", "ben", "cat"], ["cat", "ben", "ann"], seed=500)
    fit = refit_ladder(ladder.pk, samples=0)
    assert fit.matches == 1
    second = end_season(ladder.pk)
    assert second.number == 2 and second.start == "reset"
    assert present(selectors.current_season(ladder)).number == 3


def test_season_pages_api_and_bot_page(field):
    ladder = played_season(field)
    end_season(ladder.pk)
    page = web_client().get(reverse("web:season", args=["batavia", 1]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Batavia: season 1" in body and "bot-ann" in body and "3-player ladder" in body
    assert web_client().get(reverse("web:season", args=["batavia", 2])).status_code == 404
    listing = web_client().get(reverse("web:seasons", args=["batavia"])).content.decode()
    assert "Season 1" in listing
    api = api_client()
    seasons = api.get(f"/api/v1/ladders/{ladder.pk}/seasons/").json()
    assert [s["number"] for s in seasons] == [1] and seasons[0]["bots"] == 4
    detail = api.get(f"/api/v1/ladders/{ladder.pk}/seasons/1/").json()
    assert detail["standings"][0]["bot_name"] == "bot-ann"
    assert {"rank", "rating", "low", "high", "games"} <= set(detail["standings"][0])
    assert api.get(f"/api/v1/ladders/{ladder.pk}/seasons/7/").status_code == 404
    bot_page = web_client().get(reverse("web:bot", args=["bot-ann"])).content.decode()
    section = bot_page[bot_page.index('id="bot-seasons"') :]
    assert "Season 1" in section and "1 of 4" in section


def test_no_season_ended_yet(db):
    ladder = ladder_for(players=3)
    assert selectors.current_season(ladder) is None
    assert web_client().get(reverse("web:season", args=["batavia", 1])).status_code == 404
    assert api_client().get(f"/api/v1/ladders/{ladder.pk}/seasons/").json() == []
    assert "No season of Batavia has ended" in (
        web_client().get(reverse("web:seasons", args=["batavia"])).content.decode()
    )
    assert Season.objects.count() == 0


def test_staff_end_a_season_from_the_ladder_admin(field):
    ladder = played_season(field)
    staff = make_user("stella", staff=True)
    staff.is_superuser = True  # the admin's actions need its permissions
    staff.save(update_fields=["is_superuser"])
    response = web_client(staff).post(
        reverse("admin:ladders_ladder_changelist"),
        {"action": "end_current_season", "_selected_action": [ladder.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert "season 1 ended with 4 bots ranked" in response.content.decode()
    assert present(selectors.current_season(ladder)).number == 2
