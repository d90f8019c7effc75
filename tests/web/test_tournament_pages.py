"""View tests of the tournament pages: who sees what, and every form's success and refusals.

Personas as in conftest: anonymous, alice the bot owner, bob another author, olivia the
organiser (of every tournament here) and sam staff.  Writes go through the services, so each
refusal below carries the service's own message and HTTP status.
"""

from __future__ import annotations

import html as htmllib
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from ladder.bots.models import Bot
from ladder.matches.models import Match
from ladder.tournaments import selectors as tournament_selectors
from ladder.tournaments import services as ts
from ladder.tournaments.models import Entrant, Tournament
from tests.factories import make_bot, make_user, make_version, web_client
from tests.helpers import present
from tests.tournaments.play import play_one
from tests.web.site import finished_tournament, open_tournament, started_tournament

pytestmark = pytest.mark.django_db

EVERYONE = ["anonymous", "owner", "other", "organiser", "staff"]
MANAGERS = {"organiser", "staff"}


@pytest.fixture
def bots(alice, bob, olivia) -> dict[str, Bot]:
    """Batavia bots with active versions, plus alice's two that can never enter (a Borneo bot,
    a private one)."""
    made = {}
    for owner, name in (
        (alice, "alice-one"),
        (alice, "alice-two"),
        (bob, "bob-one"),
        (olivia, "olivia-one"),
    ):
        made[name] = make_bot(owner, name)
        make_version(made[name])
    made["alice-borneo"] = make_bot(alice, "alice-borneo", "borneo")
    made["alice-hidden"] = make_bot(alice, "alice-hidden", public=False)
    return made


@pytest.fixture
def scheduled(olivia, bots) -> Tournament:
    """Starting in a day, so the ticks that start other tournaments here leave it alone."""
    now = timezone.now()
    t = open_tournament(olivia, name="Spring Open", starts_at=now + timedelta(days=1))
    ts.register_entrant(t.pk, user=bots["bob-one"].owner, bot_id=bots["bob-one"].pk)
    return t


@pytest.fixture
def finished(olivia, bots, django_capture_on_commit_callbacks) -> Tournament:
    field = [bots[n] for n in ("alice-one", "alice-two", "bob-one", "olivia-one")]
    return finished_tournament(
        olivia,
        field,
        django_capture_on_commit_callbacks,
        name="Autumn Cup",
        format="swiss",
        rounds=3,
        games_per_pairing=2,
    )


def page_url(t: Tournament, name: str = "web:tournament") -> str:
    return reverse(name, args=[t.pk])


def alerts(html: str) -> list[str]:
    """The text of every ``role="alert"`` region (errors shown next to their form)."""
    return [
        htmllib.unescape(re.sub(r"<[^>]+>", " ", block))
        for block in re.findall(r'role="alert"[^>]*>(.*?)</div>', html, re.S)
    ]


# --- list ------------------------------------------------------------------------------------


@pytest.mark.parametrize("who", EVERYONE)
def test_list_groups_running_upcoming_finished(web_clients, olivia, bots, finished, scheduled, who):
    running = started_tournament(
        olivia,
        [bots["alice-two"], bots["bob-one"], bots["olivia-one"]],
        name="Summer Swiss",
        format="swiss",
    )
    page = web_clients[who].get(reverse("web:tournaments"))
    assert page.status_code == 200
    html = page.content.decode()
    sections = {key: html.index(f'id="{key}"') for key in ("running", "upcoming", "finished")}
    assert sections["running"] < html.index("Summer Swiss") < sections["upcoming"]
    assert sections["upcoming"] < html.index("Spring Open") < sections["finished"]
    assert sections["finished"] < html.index("Autumn Cup")
    for t in (running, scheduled, finished):
        assert f'href="{page_url(t)}"' in html
    assert f"{finished.planned_matches} of {finished.planned_matches}" in html


@pytest.mark.parametrize(
    "who, listed",
    [("anonymous", False), ("owner", True), ("other", False), ("organiser", True), ("staff", True)],
)
def test_unlisted_tournament_listed_as_the_selectors_decide(web_clients, olivia, bots, who, listed):
    """Listed for organisers, staff and owners of an entered bot; reachable by link for all."""
    t = open_tournament(olivia, name="Invitation Only", is_public=False)
    ts.register_entrant(t.pk, user=olivia, bot_id=bots["alice-one"].pk)  # invited by the organiser
    html = web_clients[who].get(reverse("web:tournaments")).content.decode()
    assert ("Invitation Only" in html) == listed
    page = web_clients[who].get(page_url(t))
    assert page.status_code == 200
    assert "unlisted" in page.content.decode()
    assert "invited by olivia" in page.content.decode()


def test_unknown_tournament_is_404(web_clients, db):
    assert web_clients["anonymous"].get("/tournaments/999999/").status_code == 404


def test_navigation_links_to_tournaments(web_clients, db):
    html = web_clients["anonymous"].get("/").content.decode()
    assert f'href="{reverse("web:tournaments")}"' in html


# --- detail ----------------------------------------------------------------------------------


@pytest.mark.parametrize("who", EVERYONE)
def test_finished_tournament_page(web_clients, finished, who):
    page = web_clients[who].get(page_url(finished))
    assert page.status_code == 200
    html = page.content.decode()
    total = finished.planned_matches
    assert total == 6  # 3 Swiss rounds, one table of three (and a bye), 2 games a table
    assert "Swiss, 3 rounds, 2 games per table per round" in html
    assert f"{total} of {total} matches played (100%)" in html
    assert f'<progress id="progress-bar" max="{total}" value="{total}"' in html
    assert "Final standings" in html
    standings = html[html.index('id="standings-table"') : html.index('id="crosstable"')]
    order = [row["bot_name"] for row in finished.final_standings]
    positions = [standings.index(f">{name}</a>") for name in order]
    assert positions == sorted(positions), "rows in the stored rank order"
    for row in finished.final_standings:
        assert f"{100 * row['p_first']:.0f}%" in standings
        assert f"{row['rank_low']}\u2013{row['rank_high']}" in standings
    # Every match of every round links to its match page; byes are named.
    links = set(re.findall(r'href="/matches/(\d+)/"', html))
    played = Match.objects.filter(tournament_match__tournament=finished)
    assert links == {str(pk) for pk in played.values_list("pk", flat=True)}
    assert html.count('id="round-') == finished.planned_rounds
    assert "Bye:" in html
    assert "Organiser controls" not in html  # nothing to control once over
    assert 'action="' + page_url(finished, "web:tournament-register") not in html


def test_elimination_standings_show_the_round_reached(
    web_clients, olivia, bots, django_capture_on_commit_callbacks
):
    field = [bots[n] for n in ("alice-one", "alice-two", "bob-one", "olivia-one")]
    t = finished_tournament(
        olivia, field, django_capture_on_commit_callbacks, format="elimination", advance=1
    )
    html = web_clients["anonymous"].get(page_url(t)).content.decode()
    standings = html[html.index('id="standings-table"') : html.index('id="crosstable"')]
    assert "Round reached" in standings and "ranked first by the round they reached" in html
    winner = present(t.final_standings, "the final standings")[0]
    row = standings[standings.index(f">{winner['bot_name']}</a>") :]
    cells = re.findall(r"<td>(.*?)</td>", row[: row.index("</tr>")])
    assert cells[1] == str(winner["stage"])  # owner, then the round reached


def test_crosstable_cells_match_the_stored_crosstable(web_clients, finished):
    html = web_clients["anonymous"].get(page_url(finished)).content.decode()
    table = html[html.index('id="crosstable-table"') :]
    table = table[: table.index("</table>")]
    names = [row["bot_name"] for row in finished.final_standings]
    for name in names:
        assert f'<span class="visually-hidden">{name}</span>' in table  # column header
    cells = {
        (r["entrant"], c["opponent"]): c
        for r in finished.final_crosstable["rows"]
        for c in r["cells"]
    }
    first = finished.final_standings[0]["entrant"]
    second = finished.final_standings[1]["entrant"]
    cell = cells[(first, second)]
    expected = f"{cell['ahead']}\u2013{cell['behind']}" + (
        f"\u2013{cell['tied']}" if cell["tied"] else ""
    )
    row_html = table[table.index(f"1. {names[0]}") :]
    row_html = row_html[: row_html.index("</tr>")]
    assert re.findall(r'<td title="[^"]*">([^<]*)<span', row_html)[0] == expected
    assert f"in {cell['games']} games" in row_html  # spelled out for screen readers
    assert 'class="self"' in row_html


def test_entrants_show_frozen_versions_and_dropped_reasons(web_clients, olivia, bots, alice):
    empty = make_bot(alice, "alice-empty")  # no version: dropped at the start
    t = started_tournament(olivia, [bots["alice-one"], bots["bob-one"], bots["olivia-one"], empty])
    html = web_clients["anonymous"].get(page_url(t)).content.decode()
    entrants = html[html.index('id="entrant-table"') : html.index('id="standings"')]
    version = present(Entrant.objects.get(tournament=t, bot=bots["alice-one"]).version)
    assert f"v{version.number}" in entrants
    assert "dropped" in entrants and "no active version at the start" in entrants
    assert "Round 1 of" in html
    assert "0 of " in html and "matches played (0%)" in html


def test_scheduled_page_says_when_it_starts_and_who_entered(web_clients, scheduled):
    html = web_clients["anonymous"].get(page_url(scheduled)).content.decode()
    assert "Not started" in html and "Registration is open." in html
    assert "bob-one" in html and "latest active at the start" in html
    assert "Standings appear once the tournament has started." in html
    assert f'href="{reverse("web:login")}?next=' in html  # anonymous: log in to enter


@pytest.mark.parametrize("who", EVERYONE)
def test_controls_only_for_organiser_and_staff(web_clients, scheduled, who):
    html = web_clients[who].get(page_url(scheduled)).content.decode()
    assert ("Organiser controls" in html) == (who in MANAGERS)
    assert (page_url(scheduled, "web:tournament-pause") in html) == (who in MANAGERS)
    assert (page_url(scheduled, "web:tournament-cancel") in html) == (who in MANAGERS)


def test_entry_menu_lists_only_eligible_bots(web_clients, scheduled):
    html = web_clients["owner"].get(page_url(scheduled)).content.decode()
    form = html[html.index('id="enter"') :]
    form = form[: form.index("</form>")]
    assert "alice-one" in form and "alice-two" in form
    for never in ("alice-borneo", "alice-hidden", "bob-one"):
        assert never not in form
    assert "csrfmiddlewaretoken" in form


def test_no_eligible_bot_says_so(scheduled, alice):
    lonely = make_user("lonely")
    html = web_client(lonely).get(page_url(scheduled)).content.decode()
    assert "You have no public Batavia bot left to enter." in html
    assert f'href="{reverse("web:bot-new")}"' in html


# --- register and withdraw -------------------------------------------------------------------


def test_owner_registers_a_bot(web_clients, scheduled, bots):
    page = web_clients["owner"].post(
        page_url(scheduled, "web:tournament-register"), {"bot": bots["alice-one"].pk}, follow=True
    )
    assert page.redirect_chain[-1][0].endswith(page_url(scheduled) + "#entrants")
    assert "alice-one is entered." in page.content.decode()
    assert scheduled.entrants.filter(bot=bots["alice-one"]).exists()


@pytest.mark.parametrize(
    "who, bot, status, complaint",
    [
        ("anonymous", "alice-one", 403, "log in to register a bot"),
        ("other", "alice-one", 403, "only a bot's owner can register it"),
        ("owner", "alice-hidden", 400, "alice-hidden is private"),
        ("owner", "alice-borneo", 400, "alice-borneo plays borneo; this tournament is batavia"),
        ("other", "bob-one", 409, "bob-one is already entered"),
    ],
)
def test_register_refusals_show_the_reason(
    web_clients, scheduled, bots, who, bot, status, complaint
):
    before = scheduled.entrants.count()
    page = web_clients[who].post(
        page_url(scheduled, "web:tournament-register"), {"bot": bots[bot].pk}
    )
    assert page.status_code == status
    assert any(complaint in text for text in alerts(page.content.decode())), complaint
    assert scheduled.entrants.count() == before


def test_register_after_the_start_is_refused(web_clients, olivia, bots):
    t = started_tournament(olivia, [bots["alice-one"], bots["bob-one"], bots["olivia-one"]])
    page = web_clients["owner"].post(
        page_url(t, "web:tournament-register"), {"bot": bots["alice-two"].pk}
    )
    assert page.status_code == 409
    assert any("registration is closed" in text for text in alerts(page.content.decode()))


def test_register_before_the_window_opens_is_refused(web_clients, olivia, bots):
    now = timezone.now()
    t = open_tournament(olivia, registration_opens_at=now + timedelta(minutes=30))
    html = web_clients["owner"].get(page_url(t)).content.decode()
    assert "Registration has not opened yet." in html
    page = web_clients["owner"].post(
        page_url(t, "web:tournament-register"), {"bot": bots["alice-one"].pk}
    )
    assert page.status_code == 409
    assert any("registration opens at" in text for text in alerts(page.content.decode()))


def test_register_without_a_bot_is_a_form_error(web_clients, scheduled):
    page = web_clients["owner"].post(page_url(scheduled, "web:tournament-register"), {"bot": "x"})
    assert page.status_code == 400
    assert alerts(page.content.decode())


def test_owner_withdraws_their_bot(web_clients, scheduled, bots):
    ts.register_entrant(scheduled.pk, user=bots["alice-one"].owner, bot_id=bots["alice-one"].pk)
    html = web_clients["owner"].get(page_url(scheduled)).content.decode()
    assert html.count("Withdraw<span") == 1  # her entry only, not bob's
    page = web_clients["owner"].post(
        page_url(scheduled, "web:tournament-unregister"), {"bot": bots["alice-one"].pk}, follow=True
    )
    assert "The bot is withdrawn." in page.content.decode()
    assert not scheduled.entrants.filter(bot=bots["alice-one"]).exists()


@pytest.mark.parametrize(
    "who, status, complaint",
    [
        ("anonymous", 403, "only the bot's owner or the organiser can withdraw it"),
        ("owner", 403, "only the bot's owner or the organiser can withdraw it"),
    ],
)
def test_withdrawing_someone_elses_bot_is_refused(
    web_clients, scheduled, bots, who, status, complaint
):
    page = web_clients[who].post(
        page_url(scheduled, "web:tournament-unregister"), {"bot": bots["bob-one"].pk}
    )
    assert page.status_code == status
    assert any(complaint in text for text in alerts(page.content.decode()))
    assert scheduled.entrants.filter(bot=bots["bob-one"]).exists()


def test_organiser_withdraws_any_bot_and_unknown_entries_are_404(web_clients, scheduled, bots):
    html = web_clients["organiser"].get(page_url(scheduled)).content.decode()
    assert "Withdraw<span" in html
    page = web_clients["organiser"].post(
        page_url(scheduled, "web:tournament-unregister"), {"bot": bots["bob-one"].pk}
    )
    assert page.status_code == 302
    again = web_clients["organiser"].post(
        page_url(scheduled, "web:tournament-unregister"), {"bot": bots["bob-one"].pk}
    )
    assert again.status_code == 404
    assert any("is not entered in this tournament" in t for t in alerts(again.content.decode()))


def test_withdraw_after_the_start_is_refused(web_clients, olivia, bots):
    t = started_tournament(olivia, [bots["alice-one"], bots["bob-one"], bots["olivia-one"]])
    page = web_clients["owner"].post(
        page_url(t, "web:tournament-unregister"), {"bot": bots["alice-one"].pk}
    )
    assert page.status_code == 409
    assert any("entrants are fixed" in text for text in alerts(page.content.decode()))


def test_forms_need_the_csrf_token(scheduled, bots, alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    page = client.post(
        page_url(scheduled, "web:tournament-register"), {"bot": bots["alice-one"].pk}
    )
    assert page.status_code == 403
    assert not scheduled.entrants.filter(bot=bots["alice-one"]).exists()


def test_only_post_changes_anything(web_clients, scheduled):
    for name in (
        "web:tournament-register",
        "web:tournament-unregister",
        "web:tournament-pause",
        "web:tournament-resume",
        "web:tournament-cancel",
    ):
        assert web_clients["organiser"].get(page_url(scheduled, name)).status_code == 405


# --- pause, resume, cancel -------------------------------------------------------------------


@pytest.mark.parametrize("who", ["organiser", "staff"])
def test_pause_resume_cancel_running(web_clients, olivia, bots, who):
    t = started_tournament(olivia, [bots["alice-one"], bots["bob-one"], bots["olivia-one"]])
    client = web_clients[who]
    page = client.post(
        page_url(t, "web:tournament-pause"), {"pause-reason": "server move"}, follow=True
    )
    t.refresh_from_db()
    assert t.status == Tournament.Status.PAUSED and t.status_reason == "server move"
    html = page.content.decode()
    assert "The tournament is paused." in html and "server move" in html
    assert page_url(t, "web:tournament-resume") in html
    page = client.post(page_url(t, "web:tournament-resume"), follow=True)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    assert "The tournament carries on." in page.content.decode()
    page = client.post(
        page_url(t, "web:tournament-cancel"),
        {"cancel-reason": "bad weather", "cancel-confirm": "on"},
        follow=True,
    )
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED and t.status_reason == "bad weather"
    html = page.content.decode()
    assert "The tournament is cancelled." in html and "Organiser controls" not in html
    assert "bad weather" in html


def test_cancel_needs_the_confirmation(web_clients, scheduled):
    page = web_clients["organiser"].post(
        page_url(scheduled, "web:tournament-cancel"), {"cancel-reason": "oops"}
    )
    assert page.status_code == 400
    assert any("Tick the box to confirm" in text for text in alerts(page.content.decode()))
    scheduled.refresh_from_db()
    assert scheduled.status == Tournament.Status.SCHEDULED


@pytest.mark.parametrize("who", ["anonymous", "owner", "other"])
@pytest.mark.parametrize("operation", ["pause", "resume", "cancel"])
def test_controls_refused_to_others(web_clients, scheduled, who, operation):
    page = web_clients[who].post(
        page_url(scheduled, f"web:tournament-{operation}"), {f"{operation}-confirm": "on"}
    )
    assert page.status_code == 403
    unconfirmed = web_clients[who].post(page_url(scheduled, f"web:tournament-{operation}"))
    assert unconfirmed.status_code == 403
    assert any(
        "only the tournament's organiser or staff" in text
        for text in alerts(unconfirmed.content.decode())
    )
    scheduled.refresh_from_db()
    assert scheduled.status == Tournament.Status.SCHEDULED


def test_another_organiser_cannot_control_this_one(scheduled):
    other = make_user("oscar", organiser=True)
    client = web_client(other)
    assert "Organiser controls" not in client.get(page_url(scheduled)).content.decode()
    assert client.post(page_url(scheduled, "web:tournament-pause")).status_code == 403


def test_control_conflicts_show_the_reason(web_clients, scheduled, finished):
    page = web_clients["organiser"].post(page_url(scheduled, "web:tournament-resume"))
    assert page.status_code == 409
    assert any("not paused" in text for text in alerts(page.content.decode()))
    page = web_clients["staff"].post(
        page_url(finished, "web:tournament-cancel"), {"cancel-confirm": "on"}
    )
    assert page.status_code == 409
    assert any("already finished" in text for text in alerts(page.content.decode()))


# --- home, bot and match pages ---------------------------------------------------------------


@pytest.mark.parametrize(
    "who, sees_unlisted",
    [("anonymous", False), ("other", False), ("organiser", True), ("staff", True)],
)
def test_home_lists_running_tournaments(web_clients, olivia, bots, who, sees_unlisted):
    field = [bots["alice-one"], bots["bob-one"], bots["olivia-one"]]
    running = started_tournament(olivia, field, name="Summer Swiss", format="swiss")
    hidden = started_tournament(
        olivia,
        [bots["alice-one"], bots["alice-two"], bots["olivia-one"]],
        name="Backroom Cup",
        is_public=False,
    )
    open_tournament(olivia, name="Next Month")
    html = web_clients[who].get("/").content.decode()
    running_part = html[html.index('id="tournaments"') : html.index('id="latest"')]
    assert f'href="{page_url(running)}"' in running_part
    assert "Swiss" in running_part and f"round 1 of {running.planned_rounds}" in running_part
    assert ("Backroom Cup" in running_part) == sees_unlisted
    assert hidden.is_public is False
    assert "Next Month" not in running_part  # not under way yet
    assert "No tournaments are running right now." not in running_part


def test_bot_page_lists_its_tournaments_with_the_final_rank(web_clients, finished, bots):
    html = web_clients["anonymous"].get(reverse("web:bot", args=["alice-one"])).content.decode()
    part = html[html.index('id="bot-tournaments"') : html.index('id="recent"')]
    assert f'href="{page_url(finished)}"' in part and "Autumn Cup" in part
    rank = next(r["rank"] for r in finished.final_standings if r["bot_name"] == "alice-one")
    assert f">{rank}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(rank, 'th') }<" in part
    other = web_clients["anonymous"].get(reverse("web:bot", args=["alice-borneo"]))
    assert "Not entered in any tournament." in other.content.decode()


def test_match_page_links_back_to_its_tournament(web_clients, finished):
    match = present(Match.objects.filter(tournament_match__tournament=finished).first())
    html = web_clients["anonymous"].get(reverse("web:match", args=[match.pk])).content.decode()
    slot = match.tournament_match
    assert f'href="{page_url(finished)}#round-{slot.round.number}"' in html
    assert f"Round {slot.round.number}, table {slot.table + 1} of the tournament" in html


# --- issue 28: live fragment, no probability from no games, finished entrants, wording -------


def p_first_cells(html: str) -> list[str]:
    return [
        htmllib.unescape(c).strip()
        for c in re.findall(r'<td class="p-first">(.*?)</td>', html, re.S)
    ]


def test_a_bot_with_only_a_bye_shows_no_probability(web_clients, olivia, bots):
    """After round 1 of a four-bot Swiss at tables of three, the bot that sat out has no game,
    so it shows no P(first) or rank interval (it once showed rank 1 and "P(first) 100%")."""
    field = [bots[n] for n in ("alice-one", "alice-two", "bob-one", "olivia-one")]
    t = started_tournament(olivia, field, format="swiss", rounds=2)
    for match_id in tournament_selectors.pending_match_ids(t):
        play_one(match_id)
    rows = tournament_selectors.compute_standings(t)
    idle = [r["bot_name"] for r in rows if not r["games"]]
    assert len(idle) == 1
    page = web_clients["anonymous"].get(page_url(t)).content.decode()
    table = page[page.index('id="standings-table"') : page.index('id="crosstable"')]
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]:
        p_first = present(re.search(r'<td class="p-first">(.*?)</td>', row, re.S), "P(first)")
        cell = htmllib.unescape(p_first.group(1))
        interval = present(re.search(r'<td class="interval">(.*?)</td>', row, re.S)).group(1)
        if f">{idle[0]}</a>" in row:
            assert (cell, interval) == ("\u2013", "\u2013")
        else:
            assert cell.endswith("%")


def test_the_live_fragment_carries_the_changing_parts_and_the_status(web_clients, olivia, bots):
    field = [bots[n] for n in ("alice-one", "bob-one", "olivia-one")]
    t = started_tournament(olivia, field)
    page = web_clients["anonymous"].get(page_url(t)).content.decode()
    assert f'data-live-url="{page_url(t, "web:tournament-live")}"' in page
    assert 'data-status="running"' in page
    fragment = web_clients["anonymous"].get(page_url(t, "web:tournament-live"))
    assert fragment.status_code == 200 and fragment["Cache-Control"] == "no-store"
    body = fragment.content.decode()
    assert '<div id="tournament-live" data-status="running">' in body
    for part in (
        "live-progress",
        "live-entrants",
        "live-standings",
        "live-crosstable",
        "live-rounds",
    ):
        assert f'id="{part}"' in body
    assert "<html" not in body and "Organiser controls" not in body
    hidden = open_tournament(olivia, is_public=False)
    assert web_clients["anonymous"].get(page_url(hidden, "web:tournament-live")).status_code == 200
    assert web_clients["anonymous"].get("/tournaments/999999/live/").status_code == 404


def test_a_finished_tournament_neither_polls_nor_calls_entrants_playing(web_clients, finished):
    page = web_clients["anonymous"].get(page_url(finished)).content.decode()
    assert "tournament-live.js" not in page
    entrants = page[page.index('id="entrant-table"') : page.index('id="standings"')]
    assert "playing" not in entrants and entrants.count(">played<") == 4
    assert page.count('<td class="p-first">') == 4


def test_wording_article_and_points(web_clients, olivia, finished):
    assert (
        "A Batavia tournament" in web_clients["anonymous"].get(page_url(finished)).content.decode()
    )
    t = open_tournament(olivia, game="east_indiaman", num_players=2)
    html = web_clients["anonymous"].get(page_url(t)).content.decode()
    assert "An East Indiaman tournament" in html and "A East Indiaman" not in html
    crosstable = web_clients["anonymous"].get(page_url(finished)).content.decode()
    assert re.search(r"\b1 points\b", crosstable) is None


@pytest.mark.parametrize(
    "value, words", [(1, "1 point"), (1.0, "1 point"), (0, "0 points"), (1.5, "1.5 points")]
)
def test_points_filter(value, words):
    from ladder.web.templatetags.web_extras import points

    assert points(value) == words
