"""View tests: every page, and who may see what on it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.urls import reverse

from ladder.bots.models import Bot, BotVersion
from ladder.matches.selectors import match_log
from tests.factories import web_client
from tests.helpers import present, search
from tests.web.site import ALICE_STDERR, FORFEIT, REJECTION

pytestmark = pytest.mark.django_db

EVERYONE = ["anonymous", "owner", "other", "organiser", "staff"]


def replay_data(response) -> dict[str, Any]:
    match = re.search(
        rb'<script id="replay-data" type="application/json">(.*?)</script>', response.content, re.S
    )
    assert match, "the page embeds no replay data"
    return json.loads(match.group(1))


# --- home ------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", EVERYONE)
def test_home_lists_games_ladders_and_latest_matches(web_clients, site_world, who):
    page = web_clients[who].get("/")
    assert page.status_code == 200
    html = page.content.decode()
    for title in ("Batavia", "East Indiaman", "Borneo", "Packet Row"):
        assert title in html
    assert reverse("web:standings", args=["borneo", 4]) in html
    assert reverse("web:match", args=[site_world.matches["packet_row"].pk]) in html
    assert "No tournaments are running right now." in html
    challenge_link = reverse("web:match", args=[site_world.challenge.pk])
    # A challenge with a private bot: only the owners of its seated bots and staff see it.
    assert (challenge_link in html) == (who in ("owner", "other", "staff"))


def test_home_lists_running_tournaments_from_the_tournaments_selector(web_clients, olivia):
    from ladder.tournaments.models import Tournament
    from tests.web.site import open_tournament

    cup = open_tournament(olivia, name="Spring Cup")
    Tournament.objects.filter(pk=cup.pk).update(
        status=Tournament.Status.RUNNING, planned_rounds=5, current_round=2
    )
    html = web_clients["anonymous"].get("/").content.decode()
    assert "Spring Cup" in html and "round 2 of 5" in html
    assert reverse("web:tournament", args=[cup.pk]) in html
    assert "No tournaments are running" not in html


def test_base_template_is_accessible_markup(web_clients, db):
    html = web_clients["anonymous"].get("/").content.decode()
    assert '<html lang="en-GB">' in html
    assert 'class="skip-link" href="#main"' in html and 'id="main"' in html
    assert 'name="viewport"' in html


# --- standings -------------------------------------------------------------------------------


@pytest.mark.parametrize("who", EVERYONE)
def test_standings_table(web_clients, site_world, who):
    page = web_clients[who].get(reverse("web:standings", args=["batavia", 3]))
    assert page.status_code == 200
    html = page.content.decode()
    for name in ("alice-batavia", "bob-batavia", "olivia-batavia"):
        assert name in html
    assert "alice-secret" not in html  # private bots never enter the table
    assert 'aria-sort="ascending"' in html and "<button" in html
    assert reverse("web:standings-table", args=["batavia", 3]) in html
    assert "provisional" in html  # one game each


def test_standings_fragment_is_rows_only_and_ranked(web_clients, site_world):
    page = web_clients["anonymous"].get(reverse("web:standings-table", args=["batavia", 3]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "<html" not in html and html.count("<tr>") == 3
    ranks = [
        int(x) for x in re.findall(r'<td data-value="(\d+)">\d+</td>\s*<td data-value="[a-z]', html)
    ]
    assert ranks == [1, 2, 3]
    ratings = [float(x) for x in re.findall(r"<strong>(\d+)</strong>", html)]
    assert ratings == sorted(ratings, reverse=True)


def test_standings_of_unknown_ladder_is_404(web_clients, db):
    assert web_clients["anonymous"].get("/ladders/batavia/9/").status_code == 404
    assert web_clients["anonymous"].get("/ladders/chess/2/").status_code == 404


def test_empty_ladder_says_so(web_clients, db):
    html = web_clients["anonymous"].get(reverse("web:standings", args=["borneo", 5])).content
    assert b"No rated bots on this ladder yet." in html


# --- bot page --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "who, sees_private",
    [
        ("anonymous", False),
        ("owner", True),
        ("other", False),
        ("organiser", False),
        ("staff", True),
    ],
)
def test_bot_page_rejection_reasons_owner_and_staff_only(
    web_clients, site_world, who, sees_private
):
    page = web_clients[who].get(reverse("web:bot", args=["alice-batavia"]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "v1" in html and "Rating history" in html and "<svg" in html
    assert (REJECTION in html) == sees_private
    assert ("Upload a new version" in html) == (who == "owner")  # staff read, owners upload
    assert "bob-batavia" in html  # head to head and recent matches


@pytest.mark.parametrize(
    "who, status",
    [
        ("anonymous", 404),
        ("owner", 200),
        ("other", 404),
        ("organiser", 404),
        ("staff", 200),
    ],
)
def test_private_bot_page_hidden_from_others(web_clients, site_world, who, status):
    assert web_clients[who].get(reverse("web:bot", args=["alice-secret"])).status_code == status


def test_head_to_head_never_names_a_private_opponent(web_clients, site_world):
    # Olivia sat in neither the challenge nor owns the private bot: no trace of it for her.
    html = web_clients["organiser"].get(reverse("web:bot", args=["bob-batavia"])).content.decode()
    assert "alice-batavia" in html
    assert "alice-secret" not in html
    # Bob sat in the challenge: he sees the match, but his head-to-head names no private bot.
    bob_view = web_clients["other"].get(reverse("web:bot", args=["bob-batavia"])).content.decode()
    h2h = bob_view.split('id="h2h"')[1].split("</section>")[0]
    assert "alice-secret" not in h2h and "alice-batavia" in h2h
    owner_view = web_clients["owner"].get(reverse("web:bot", args=["bob-batavia"])).content.decode()
    assert "alice-secret" in owner_view.split('id="h2h"')[1].split("</section>")[0]


def test_rating_chart_is_inline_svg_with_a_text_summary(web_clients, site_world):
    html = web_clients["anonymous"].get(reverse("web:bot", args=["bob-borneo"])).content.decode()
    svg = search(r'<svg class="chart".*?</svg>', html, re.S).group(0)
    assert 'role="img"' in svg and "aria-label=" in svg
    assert "<polyline" in svg and "<polygon" in svg
    assert "3-player ladder" in html


def test_owner_uploads_a_version_from_the_page(web_clients, site_world, alice):
    bot = site_world.bots["alice-borneo"]
    before = bot.versions.count()
    page = web_clients["owner"].post(
        reverse("web:bot", args=[bot.name]),
        {"artifact": _upload("bot.py", b"print('hello')\n")},
        follow=True,
    )
    assert page.status_code == 200
    assert bot.versions.count() == before + 1
    assert f"Uploaded version {before + 1}" in page.content.decode()
    assert bot.versions.order_by("-number").first().status == BotVersion.Status.PENDING


def test_bad_upload_shows_the_reason_and_stores_nothing(web_clients, site_world):
    bot = site_world.bots["alice-borneo"]
    before = bot.versions.count()
    page = web_clients["owner"].post(
        reverse("web:bot", args=[bot.name]), {"artifact": _upload("bot.py", b"def broken(:\n")}
    )
    assert page.status_code == 400
    html = page.content.decode()
    assert "The upload was refused" in html and "syntax" in html.lower()
    assert 'role="alert"' in html and 'id="id_artifact_errors"' in html
    field = search(r'<input type="file"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in field and "id_artifact_errors" in field
    assert bot.versions.count() == before


def test_oversized_upload_refused_before_reading(web_clients, site_world, settings):
    settings.MONSOON_UPLOAD_MAX_BYTES = 100
    bot = site_world.bots["alice-borneo"]
    page = web_clients["owner"].post(
        reverse("web:bot", args=[bot.name]), {"artifact": _upload("bot.py", b"#" * 500)}
    )
    assert page.status_code == 400
    assert "the limit is 100 bytes" in page.content.decode()


@pytest.mark.parametrize("who, status", [("anonymous", 403), ("other", 403), ("staff", 403)])
def test_only_the_owner_uploads(web_clients, site_world, who, status):
    bot = site_world.bots["alice-borneo"]
    before = bot.versions.count()
    page = web_clients[who].post(
        reverse("web:bot", args=[bot.name]), {"artifact": _upload("bot.py", b"print(1)\n")}
    )
    assert page.status_code == status
    assert bot.versions.count() == before


def _upload(name: str, data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="text/x-python")


# --- match page ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["batavia", "east_indiaman", "borneo", "packet_row"])
def test_match_page_embeds_replay_frames(web_clients, site_world, game):
    match = site_world.matches[game]
    page = web_clients["anonymous"].get(reverse("web:match", args=[match.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert f"web/games/{game}.js" in html and "web/viewer.js" in html
    assert reverse("match-log", args=[match.pk]) in html
    data = replay_data(page)
    assert data["game"] == game
    assert len(data["frames"]) == 1 + len(present(match_log(match))["decisions"])
    assert data["frames"][0]["table"]["public"]["game"] == game
    assert data["frames"][1]["decision"]["ms"] == 1.5
    assert data["reveal_private"] is True


def test_finished_match_shows_each_seats_hidden_cards(web_clients, site_world):
    data = replay_data(
        web_clients["anonymous"].get(reverse("web:match", args=[site_world.matches["borneo"].pk]))
    )
    private = data["frames"][0]["table"]["private"]
    assert len(private) == 3 and all("hand" in part for part in private)
    assert all(len(part["hand"]) > 0 for part in private)


def test_unfinished_match_shows_the_public_table_only(web_clients, site_world):
    """A queued match's page waits for it live: the table before the first move as every
    spectator sees it, even for staff; no hand, no seed, no log."""
    page = web_clients["staff"].get(reverse("web:match", args=[site_world.queued.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    data = replay_data(page)
    assert data["reveal_private"] is False and len(data["frames"]) == 1
    assert data["frames"][0]["table"]["private"] is None
    assert '"hand"' not in html and "Download the game log" not in html
    assert "waiting for a worker" in html
    assert "seed 9" not in html  # the seed decides every hidden card


def test_forfeit_reason_shown_to_everyone(web_clients, site_world):
    page = web_clients["anonymous"].get(
        reverse("web:match", args=[site_world.matches["batavia"].pk])
    )
    assert FORFEIT in page.content.decode()
    assert replay_data(page)["forfeits"][1] == FORFEIT


@pytest.mark.parametrize(
    "who, sees",
    [
        ("anonymous", False),
        ("owner", True),
        ("other", False),
        ("organiser", False),
        ("staff", True),
    ],
)
def test_stderr_owner_and_staff_only(web_clients, site_world, who, sees):
    html = (
        web_clients[who]
        .get(reverse("web:match", args=[site_world.matches["east_indiaman"].pk]))
        .content.decode()
    )
    assert (ALICE_STDERR in html) == sees


def test_private_bot_in_a_match_is_a_private_bot_for_others(web_clients, site_world):
    """bob played alice's private bot: he reads "a private bot", unlinked, in the seats and
    the replay alike (tests/ladder/test_private_history.py covers every other page)."""
    html = web_clients["other"].get(reverse("web:match", args=[site_world.challenge.pk])).content
    assert b"a private bot" in html
    assert b"alice-secret" not in html
    owner = web_clients["owner"].get(reverse("web:match", args=[site_world.challenge.pk])).content
    assert b'href="/bots/alice-secret/"' in owner


@pytest.mark.parametrize(
    "who, status",
    [
        ("anonymous", 404),
        ("owner", 200),
        ("other", 200),
        ("organiser", 404),
        ("staff", 200),
    ],
)
def test_private_challenge_match_hidden(web_clients, site_world, who, status):
    page = web_clients[who].get(reverse("web:match", args=[site_world.challenge.pk]))
    assert page.status_code == status


def test_unknown_match_is_404(web_clients, db):
    assert web_clients["anonymous"].get("/matches/999999/").status_code == 404


# --- accounts --------------------------------------------------------------------------------


def test_sign_up_creates_an_account_with_a_token_and_logs_in(db):
    client = web_client()
    page = client.post(
        reverse("web:signup"),
        {
            "username": "carol",
            "email": "",
            "password1": "a-long-pass-phrase-1",
            "password2": "a-long-pass-phrase-1",
        },
        follow=True,
    )
    assert page.status_code == 200
    assert page.context["user"].username == "carol"
    assert client.get(reverse("web:token")).status_code == 200


@pytest.mark.parametrize(
    "data, complaint",
    [
        (
            {
                "username": "alice",
                "password1": "a-long-pass-phrase-1",
                "password2": "a-long-pass-phrase-1",
            },
            "is taken",
        ),
        (
            {
                "username": "dave",
                "password1": "a-long-pass-phrase-1",
                "password2": "another-pass-phrase-2",
            },
            "The two passwords differ.",
        ),
        ({"username": "dave", "password1": "short", "password2": "short"}, "too short"),
        (
            {
                "username": "no spaces",
                "password1": "a-long-pass-phrase-1",
                "password2": "a-long-pass-phrase-1",
            },
            "Use only letters",
        ),
    ],
)
def test_sign_up_errors_are_specific(alice, data, complaint):
    page = web_client().post(reverse("web:signup"), data)
    assert page.status_code == 200
    assert complaint in page.content.decode()
    assert not page.context["user"].is_authenticated


def test_log_in_and_out(alice):
    client = web_client()
    page = client.post(reverse("web:login"), {"username": "alice", "password": "alice-password-1"})
    assert page.status_code == 302 and page["Location"] == reverse("web:my-bots")
    assert client.get(reverse("web:my-bots")).status_code == 200
    wrong = web_client().post(reverse("web:login"), {"username": "alice", "password": "nope"})
    assert wrong.status_code == 200 and b"correct" in wrong.content
    client.post(reverse("web:logout"))
    assert client.get(reverse("web:my-bots")).status_code == 302


def test_token_page_shows_and_rotates(alice, web_clients):
    from ladder.accounts.services import api_token

    old = api_token(alice)
    assert old in web_clients["owner"].get(reverse("web:token")).content.decode()
    web_clients["owner"].post(reverse("web:token"))
    new = api_token(alice)
    assert new != old
    assert new in web_clients["owner"].get(reverse("web:token")).content.decode()


@pytest.mark.parametrize("url", ["web:token", "web:my-bots", "web:bot-new"])
def test_account_pages_need_a_login(db, url):
    page = web_client().get(reverse(url))
    assert page.status_code == 302 and page["Location"].startswith(reverse("web:login"))


def test_my_bots_lists_only_your_bots_and_their_matches(web_clients, site_world):
    html = web_clients["owner"].get(reverse("web:my-bots")).content.decode()
    assert "alice-batavia" in html and "alice-secret" in html
    assert 'href="/bots/bob-batavia/"' not in html  # the list links your bots only
    assert reverse("web:match", args=[site_world.challenge.pk]) in html
    other = web_clients["organiser"].get(reverse("web:my-bots")).content.decode()
    assert "alice-secret" not in other and 'href="/bots/alice-batavia/"' not in other
    assert 'href="/bots/olivia-batavia/"' in other
    assert reverse("web:match", args=[site_world.challenge.pk]) not in other


def test_create_bot(web_clients, alice):
    page = web_clients["owner"].post(
        reverse("web:bot-new"),
        {"name": "alice-new", "game": "packet_row", "description": "a new one", "is_public": "on"},
    )
    assert page.status_code == 302 and page["Location"] == reverse("web:bot", args=["alice-new"])
    bot = Bot.objects.get(name="alice-new")
    assert bot.owner == alice and bot.game == "packet_row" and bot.is_public


@pytest.mark.parametrize(
    "data, complaint",
    [
        ({"name": "alice-batavia", "game": "batavia"}, "already exists"),
        ({"name": "has spaces", "game": "batavia"}, "slug"),
        ({"name": "fine-name", "game": "chess"}, "Select a valid choice"),
    ],
)
def test_create_bot_errors(web_clients, site_world, data, complaint):
    page = web_clients["owner"].post(reverse("web:bot-new"), data)
    assert page.status_code == 400
    assert complaint in page.content.decode()


def test_uploads_share_the_api_throttle(web_clients, site_world, monkeypatch):
    from django.core.cache import cache
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(
        ScopedRateThrottle,
        "THROTTLE_RATES",
        {**ScopedRateThrottle.THROTTLE_RATES, "uploads": "2/hour"},
    )
    cache.clear()
    bot = site_world.bots["alice-borneo"]
    api = web_clients["owner"].post(
        f"/api/v1/bots/{bot.pk}/upload/", {"artifact": _upload("a.py", b"print(1)\n")}
    )
    assert api.status_code == 201
    codes = [
        web_clients["owner"]
        .post(reverse("web:bot", args=[bot.name]), {"artifact": _upload("b.py", b"print(2)\n")})
        .status_code
        for _ in range(2)
    ]
    assert codes == [302, 429]
    page = web_clients["owner"].post(
        reverse("web:bot", args=[bot.name]), {"artifact": _upload("c.py", b"print(3)\n")}
    )
    assert "Too many uploads" in page.content.decode()
    assert bot.versions.count() == 3  # v1 and the two accepted uploads
    cache.clear()


def test_standings_rows_cached_for_the_public_cache_seconds(web_clients, site_world, settings):
    from django.core.cache import cache

    from ladder.ratings.models import Rating

    settings.MONSOON_API_CACHE_SECONDS = 60
    cache.clear()
    url = reverse("web:standings-table", args=["batavia", 3])
    first = web_clients["anonymous"].get(url).content
    Rating.objects.filter(bot_version__bot__name="bob-batavia").update(rating=9999)
    assert web_clients["owner"].get(url).content == first  # the same rows for everyone
    settings.MONSOON_API_CACHE_SECONDS = 0
    assert b"9999" in web_clients["anonymous"].get(url).content
    cache.clear()
