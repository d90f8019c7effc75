"""The organiser's tournament forms: create, edit, preview, time zones and invitations.

Every write goes through ``ladder.tournaments.services``; these tests check what an organiser
sees and what ends up stored, through the Django test client and the suite's web_clients.
"""

from __future__ import annotations

import html as htmllib
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from engine.registry import all_games
from ladder.bots.models import Bot
from ladder.core.errors import ServiceError
from ladder.tournaments import selectors
from ladder.tournaments import services as ts
from ladder.tournaments.models import Tournament
from ladder.web.views.tournament_setup import TZ_COOKIE
from tests.factories import make_bot, make_version
from tests.helpers import present
from tests.tournaments.play import play_pending
from tests.web.site import open_tournament

NEW = reverse("web:tournament-new")


def text(response) -> str:
    return htmllib.unescape(response.content.decode())


def field_errors(html: str, field: str) -> list[str]:
    block = re.search(rf'id="id_{field}_errors"[^>]*>(.*?)</div>', html, re.S)
    return re.findall(r"<p>(.*?)</p>", block.group(1), re.S) if block else []


def local(dt: datetime, fmt: str = "%Y-%m-%dT%H:%M") -> str:
    return dt.strftime(fmt)


def form_data(**overrides: object) -> dict[str, object]:
    """A valid create form: a Batavia round robin starting in two days, times in UTC."""
    start = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    data: dict[str, object] = {
        "name": "Harbour Cup",
        "description": "Three to a table.",
        "game": "batavia",
        "num_players": 3,
        "variant": "",
        "format": "round_robin",
        "games_per_pairing": 1,
        "rounds": "",
        "advance": 1,
        "time_zone": "UTC",
        "registration_opens_at": "",
        "registration_closes_at": local(start - timedelta(hours=1)),
        "starts_at": local(start),
        "is_public": "on",
        "preview_entrants": 4,
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def bots(alice, bob, olivia) -> dict[str, Bot]:
    made = {}
    for owner, name in (
        (alice, "alice-one"),
        (alice, "alice-two"),
        (bob, "bob-one"),
        (olivia, "olivia-one"),
    ):
        made[name] = make_bot(owner, name)
        make_version(made[name])
    made["alice-hidden"] = make_bot(alice, "alice-hidden", public=False)
    make_version(made["alice-hidden"])
    return made


# --- who may use the forms --------------------------------------------------------------------


@pytest.mark.parametrize("who", ["organiser", "staff"])
def test_organiser_creates_a_tournament_and_sees_it(web_clients, db, who):
    response = web_clients[who].post(NEW, form_data())
    assert response.status_code == 302
    t = Tournament.objects.get(name="Harbour Cup")
    assert response["Location"] == reverse("web:tournament", args=[t.pk])
    assert (t.game, t.num_players, t.format, t.variant) == (
        "batavia",
        3,
        "round_robin",
        t.ladder.variant,
    )
    assert t.organiser.username == {"organiser": "olivia", "staff": "sam"}[who]
    page = text(web_clients[who].get(response["Location"]))
    assert "Harbour Cup" in page and "is scheduled" in page
    listed = text(web_clients[who].get(reverse("web:tournaments")))
    assert "Harbour Cup" in listed and reverse("web:tournament-new") in listed


@pytest.mark.parametrize("who", ["owner", "other"])
def test_non_organisers_are_refused_and_nothing_is_created(web_clients, db, who):
    explained = web_clients[who].get(NEW)  # what an organiser is, and how to become one
    assert explained.status_code == 200 and "Become an organiser" in text(explained)
    refused = web_clients[who].post(NEW, form_data())
    assert refused.status_code == 403 and "Become an organiser" in text(refused)
    assert not Tournament.objects.exists()
    listed = text(web_clients[who].get(reverse("web:tournaments")))
    assert "Create a tournament" not in listed and "Become an organiser" in listed


def test_anonymous_is_sent_to_log_in(web_clients, db):
    response = web_clients["anonymous"].post(NEW, form_data())
    assert response.status_code == 302 and reverse("web:login") in response["Location"]
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"games_per_pairing": 0}, "games_per_pairing", "games_per_pairing must be at least 1"),
        ({"games_per_pairing": 5000}, "games_per_pairing", "at most"),
        ({"rounds": 3}, "rounds", "Swiss tournaments only"),
        ({"format": "swiss", "rounds": 0}, "rounds", "must be at least 1"),
        ({"num_players": 9}, "num_players", "players per table"),
        ({"variant": "moonbase"}, "variant", "no variant 'moonbase'"),
        ({"format": "elimination", "advance": 3}, "advance", "advance must be from 1 to 2"),
        ({"starts_at": "2020-01-01T10:00"}, "starts_at", "must be in the future"),
        ({"starts_at": "tomorrow"}, "starts_at", "Enter a valid date/time"),
    ],
)
def test_a_bad_field_shows_its_error_and_nothing_is_created(
    web_clients, db, overrides, field, words
):
    for button in ("save", "preview"):
        response = web_clients["organiser"].post(NEW, form_data(**overrides, **{button: "1"}))
        assert response.status_code == 400, button
        errors = field_errors(text(response), field)
        assert any(words in e for e in errors), (button, errors)
        assert 'aria-invalid="true"' in text(response)
    assert not Tournament.objects.exists()


def test_registration_closing_after_the_start_is_put_on_the_start(web_clients, db):
    start = (timezone.now() + timedelta(days=2)).replace(second=0, microsecond=0)
    data = form_data(registration_closes_at=local(start + timedelta(hours=1)))
    response = web_clients["organiser"].post(NEW, data)
    assert field_errors(text(response), "starts_at") == [
        "the tournament cannot start before registration closes"
    ]
    assert not Tournament.objects.exists()


# --- edit -------------------------------------------------------------------------------------


def test_organiser_edits_a_scheduled_tournament(web_clients, olivia):
    t = open_tournament(olivia)
    url = reverse("web:tournament-edit", args=[t.pk])
    form = text(web_clients["organiser"].get(url))
    assert 'value="Monsoon Open"' in form
    response = web_clients["organiser"].post(
        url,
        form_data(
            name="Monsoon Open II",
            format="swiss",
            rounds=4,
            games_per_pairing=2,
            starts_at=local(t.starts_at + timedelta(days=1)),
            registration_closes_at=local(t.registration_closes_at),
            registration_opens_at=local(t.registration_opens_at),
        ),
    )
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.name, t.format, t.rounds, t.games_per_pairing) == ("Monsoon Open II", "swiss", 4, 2)
    assert "Monsoon Open II is updated." in text(web_clients["organiser"].get(response["Location"]))


@pytest.mark.parametrize("who", ["owner", "other", "organiser_elsewhere"])
def test_only_its_organiser_and_staff_may_edit(web_clients, olivia, who):
    t = open_tournament(olivia)
    url = reverse("web:tournament-edit", args=[t.pk])
    if who == "organiser_elsewhere":
        from tests.factories import make_user, web_client

        client = web_client(make_user("oscar", organiser=True))
    else:
        client = web_clients[who]
    assert client.get(url).status_code == 403
    assert client.post(url, form_data(name="Hijacked")).status_code == 403
    assert web_clients["staff"].get(url).status_code == 200
    t.refresh_from_db()
    assert t.name == "Monsoon Open"
    link = reverse("web:tournament-edit", args=[t.pk])
    assert link not in text(client.get(reverse("web:tournament", args=[t.pk])))
    assert link in text(web_clients["organiser"].get(reverse("web:tournament", args=[t.pk])))


def test_a_started_tournament_cannot_be_edited(web_clients, olivia, bots):
    t = open_tournament(olivia)
    for name in ("alice-one", "bob-one", "olivia-one"):
        ts.register_entrant(tournament_id=t.pk, user=bots[name].owner, bot_id=bots[name].pk)
    ts.tick(now=t.starts_at)
    response = web_clients["organiser"].post(
        reverse("web:tournament-edit", args=[t.pk]),
        form_data(name="Too late", starts_at=local(t.starts_at + timedelta(days=3))),
    )
    assert response.status_code == 409
    assert "only a scheduled one can be changed" in text(response)
    t.refresh_from_db()
    assert t.name == "Monsoon Open"


# --- time zones -------------------------------------------------------------------------------


def test_local_time_is_stored_in_utc_and_shown_back_in_that_zone(web_clients, db):
    year = timezone.now().year + 1
    data = form_data(
        time_zone="Europe/Amsterdam",
        registration_closes_at=f"{year}-01-15T17:00",
        starts_at=f"{year}-01-15T18:00",
    )
    response = web_clients["organiser"].post(NEW, data)
    assert response.status_code == 302
    assert response.cookies[TZ_COOKIE].value == "Europe/Amsterdam"
    t = Tournament.objects.get()
    assert t.starts_at == datetime(year, 1, 15, 17, 0, tzinfo=UTC)  # CET is UTC+1 in winter
    assert t.registration_closes_at == datetime(year, 1, 15, 16, 0, tzinfo=UTC)
    assert t.time_zone == "Europe/Amsterdam"  # stored with the tournament
    page = text(web_clients["organiser"].get(response["Location"]))
    assert f'15 Jan {year} 18:00</time> <span class="zone-name">Europe/Amsterdam</span>' in page
    # A fresh browser (no cookie) editing it sees the organiser's zone, not UTC.
    web_clients["organiser"].cookies.pop(TZ_COOKIE)
    edit = text(web_clients["organiser"].get(reverse("web:tournament-edit", args=[t.pk])))
    assert f'value="{year}-01-15T18:00"' in edit
    assert '<option value="Europe/Amsterdam" selected>' in edit
    # Other visitors: the organiser's zone, named, until the page's script rewrites it in theirs.
    other = text(Client().get(response["Location"]))
    assert '18:00</time> <span class="zone-name">Europe/Amsterdam</span>' in other
    assert "web/local-time.js" in other
    web_clients["organiser"].cookies[TZ_COOKIE] = "Europe/Amsterdam"
    listed = text(web_clients["organiser"].get(reverse("web:tournaments")))
    assert '(<span class="zone-name">Europe/Amsterdam</span>)' in listed
    assert f"15 Jan {year} 18:00</time>" in listed


def test_a_time_the_clocks_skip_is_refused(web_clients, db):
    year = timezone.now().year + 1
    # Europe/Amsterdam springs forward on the last Sunday of March at 02:00.
    sunday = max(d for d in range(25, 32) if datetime(year, 3, d, tzinfo=UTC).weekday() == 6)
    data = form_data(
        time_zone="Europe/Amsterdam",
        registration_closes_at="",
        starts_at=f"{year}-03-{sunday}T02:30",
    )
    response = web_clients["organiser"].post(NEW, data)
    assert response.status_code == 400
    assert any(
        "does not exist in Europe/Amsterdam" in e for e in field_errors(text(response), "starts_at")
    )


def test_new_form_offers_the_browser_zone_until_one_is_chosen(web_clients, db):
    assert "data-browser-zone" in text(web_clients["organiser"].get(NEW))
    web_clients["organiser"].cookies[TZ_COOKIE] = "Asia/Tokyo"
    page = text(web_clients["organiser"].get(NEW))
    assert "data-browser-zone" not in page
    assert '<option value="Asia/Tokyo" selected>' in page


# --- preview ----------------------------------------------------------------------------------


def preview_total(html: str) -> int:
    found = re.search(r'id="preview-total"><strong>(\d+) match', html)
    assert found, html[-3000:]
    return int(found.group(1))


@pytest.mark.parametrize(
    "settings_",
    [
        {"format": "round_robin"},
        {"format": "swiss", "rounds": 2, "games_per_pairing": 2},
        {"format": "elimination", "advance": 1, "duplicate": "on"},
    ],
    ids=["round_robin", "swiss", "elimination"],
)
def test_preview_count_is_what_the_started_tournament_plays(
    web_clients, olivia, bots, django_capture_on_commit_callbacks, settings_
):
    # The form's preview, for the four bots that will enter: nothing is written.
    response = web_clients["organiser"].post(NEW, form_data(preview="1", **settings_))
    assert response.status_code == 200
    promised = preview_total(text(response))
    assert not Tournament.objects.exists()
    # Create it, enter four bots, and the tournament page previews the same count.
    assert web_clients["organiser"].post(NEW, form_data(**settings_)).status_code == 302
    t = Tournament.objects.get()
    for name in ("alice-one", "alice-two", "bob-one", "olivia-one"):
        ts.register_entrant(tournament_id=t.pk, user=bots[name].owner, bot_id=bots[name].pk)
    assert (
        preview_total(text(web_clients["other"].get(reverse("web:tournament", args=[t.pk]))))
        == promised
    )
    # Start it through the service and play it out: the live matches are the promised ones.
    ts.tick(now=t.starts_at)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING, t.status_reason
    assert t.planned_matches == promised
    play_pending(django_capture_on_commit_callbacks, t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED, t.status_reason
    assert selectors.live_matches(t).count() == promised
    assert 'id="preview"' not in text(
        web_clients["other"].get(reverse("web:tournament", args=[t.pk]))
    )


def test_preview_shows_the_schedule_and_says_what_is_known(web_clients, db):
    data = form_data(preview="1", game="east_indiaman", num_players=2, preview_entrants=4)
    rr = text(web_clients["organiser"].post(NEW, data))
    assert "The whole schedule is fixed at the start." in rr
    assert rr.count("<summary>Round ") == 3  # circle method: n - 1 rounds for 4 entrants
    tables = re.findall(r"Table \d: seeds (\d), (\d)", rr)
    pairs = {tuple(sorted(p)) for p in tables}
    assert len(tables) == 6 and len(pairs) == 6  # every pair of 4 meets once
    assert preview_total(rr) == 6 * 2  # round robin: both seat rotations at each table
    swiss = text(
        web_clients["organiser"].post(
            NEW, form_data(preview="1", format="swiss", rounds=3, preview_entrants=7)
        )
    )
    assert "Only round 1 is known in advance" in swiss
    assert swiss.count("<summary>Round ") == 1
    assert "bye for seed" in swiss  # 7 mod 3 = 1 bye
    assert preview_total(swiss) == 3 * (7 // 3)
    few = text(web_clients["organiser"].post(NEW, form_data(preview="1", preview_entrants=2)))
    assert "cannot fill a 3-player table" in few


# --- invitations ------------------------------------------------------------------------------


def test_invite_by_name_or_id_and_remove(web_clients, olivia, bots, alice):
    t = open_tournament(olivia, registration_opens_at=timezone.now() + timedelta(minutes=30))
    url = reverse("web:tournament-invite", args=[t.pk])
    client = web_clients["organiser"]
    assert client.post(url, {"bot": "alice-one"}).status_code == 302
    assert client.post(url, {"bot": str(bots["bob-one"].pk)}).status_code == 302
    entered = {e.bot.name: e for e in t.entrants.select_related("bot", "invited_by")}
    assert set(entered) == {"alice-one", "bob-one"}
    assert entered["alice-one"].invited_by == olivia
    page = text(client.get(url))
    assert "invited by olivia" in page
    # A private bot, by name or id, is answered exactly like a missing one.
    hidden = bots["alice-hidden"]
    by_name = field_errors(text(client.post(url, {"bot": "alice-hidden"})), "bot")
    missing_name = field_errors(text(client.post(url, {"bot": "no-such-bot"})), "bot")
    assert by_name == ["no such bot: alice-hidden"] and missing_name == ["no such bot: no-such-bot"]
    by_id = field_errors(text(client.post(url, {"bot": str(hidden.pk)})), "bot")
    missing_id = field_errors(text(client.post(url, {"bot": "999999"})), "bot")
    assert by_id == [f"no such bot: {hidden.pk}"] and missing_id == ["no such bot: 999999"]
    again = client.post(url, {"bot": "alice-one"})
    assert again.status_code == 409 and "already entered" in text(again)
    # Remove one.
    assert client.post(url, {"remove": str(bots["alice-one"].pk)}).status_code == 302
    assert list(t.entrants.values_list("bot__name", flat=True)) == ["bob-one"]


@pytest.mark.parametrize("who", ["owner", "other"])
def test_only_the_organiser_invites(web_clients, olivia, bots, who):
    t = open_tournament(olivia)
    url = reverse("web:tournament-invite", args=[t.pk])
    assert web_clients[who].get(url).status_code == 403
    assert web_clients[who].post(url, {"bot": "olivia-one"}).status_code == 403
    assert not t.entrants.exists()


def test_preview_flags_a_total_over_the_match_budget(web_clients, db, settings):
    settings.MONSOON_TOURNAMENT_MAX_MATCHES = 20
    page = text(web_clients["organiser"].post(NEW, form_data(preview="1", preview_entrants=5)))
    assert preview_total(page) == 10 * 3  # every 3 of 5 at a table, in 3 seat rotations
    assert "more than the 20 matches a tournament plays at most" in page
    assert not Tournament.objects.exists()


def test_the_game_cannot_change_once_bots_entered(web_clients, olivia, bots):
    t = open_tournament(olivia)
    ts.register_entrant(tournament_id=t.pk, user=alice_of(bots), bot_id=bots["alice-one"].pk)
    response = web_clients["organiser"].post(
        reverse("web:tournament-edit", args=[t.pk]),
        form_data(
            game="packet_row",
            num_players=2,
            starts_at=local(t.starts_at),
            registration_closes_at=local(t.registration_closes_at),
        ),
    )
    assert response.status_code == 409
    assert field_errors(text(response), "game") == ["the game cannot change once bots have entered"]
    t.refresh_from_db()
    assert t.game == "batavia"


def alice_of(bots: dict[str, Bot]):
    return bots["alice-one"].owner


def test_entrants_are_fixed_once_started(web_clients, olivia, bots):
    t = open_tournament(olivia)
    for name in ("alice-one", "bob-one", "olivia-one"):
        ts.register_entrant(tournament_id=t.pk, user=bots[name].owner, bot_id=bots[name].pk)
    ts.tick(now=t.starts_at)
    url = reverse("web:tournament-invite", args=[t.pk])
    page = text(web_clients["organiser"].get(url))
    assert "Entrants are fixed: the tournament is running." in page
    response = web_clients["organiser"].post(url, {"remove": str(bots["bob-one"].pk)})
    assert response.status_code == 409
    assert "entrants are fixed once the tournament has started" in text(response)
    late = web_clients["organiser"].post(url, {"bot": "alice-two"})
    assert late.status_code == 409 and "registration is closed" in text(late)
    assert t.entrants.count() == 3


# --- issue 28: empty "Registration closes", valid defaults, the stored zone -------------------


def test_an_empty_registration_close_on_edit_means_at_the_start(web_clients, olivia):
    """Its help says "Empty: at the start"; the edit used to keep the stored close and refuse a
    start moved before it."""
    t = open_tournament(olivia)
    earlier = t.registration_closes_at - timedelta(minutes=30)
    response = web_clients["organiser"].post(
        reverse("web:tournament-edit", args=[t.pk]),
        form_data(
            name=t.name,
            registration_opens_at=local(t.registration_opens_at),
            registration_closes_at="",
            starts_at=local(earlier),
        ),
    )
    assert response.status_code == 302, field_errors(text(response), "starts_at")
    t.refresh_from_db()
    assert t.registration_closes_at == t.starts_at == earlier.replace(second=0, microsecond=0)
    # Shown back empty, as it was entered.
    edit = text(web_clients["organiser"].get(reverse("web:tournament-edit", args=[t.pk])))
    assert 'name="registration_closes_at" ' in edit
    assert re.search(r'name="registration_closes_at"[^>]*value=', edit) is None


def test_the_new_form_defaults_are_valid(web_clients, db):
    """The first game on the menu with its smallest table (Batavia: 3, never 2)."""
    page = text(web_clients["organiser"].get(NEW))
    game = present(re.search(r'name="game"[^>]*>\s*<option value="(\w+)"', page)).group(1)
    players = int(present(re.search(r'name="num_players" value="(\d+)"', page)).group(1))
    assert players in all_games()[game].player_counts
    data = form_data(game=game, num_players=players, name="")
    assert web_clients["organiser"].post(NEW, data).status_code == 302


def test_an_unknown_zone_is_refused_by_the_service(olivia):
    with pytest.raises(ServiceError, match="unknown time_zone"):
        open_tournament(olivia, time_zone="Mars/Olympus")
