"""Browser tests of issue 28's spectator and organiser pages at 1366 and 390 px (headless
Chromium, the harness of ``test_browser.py``): a running tournament's page follows its rounds
without a reload and reloads itself once it finishes, its standings fit both widths, its times
read in the visitor's own zone with the zone named; a user asks to become an organiser and is
told of the approval; a finished ladder season is browsable.

Every wait polls for a condition (``WebDriverWait``); reads of the live page go through
``text_of``, which retries when the page swapped or reloaded the element under it.
"""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from django.urls import reverse

from ladder.accounts.models import OrganiserRequest
from ladder.accounts.services import decide_organiser_request
from ladder.ratings.services import end_season
from ladder.tournaments import selectors as tournament_selectors
from ladder.tournaments.models import Tournament
from tests.browser import (
    ARTIFACTS,
    BROWSER_MARKS,
    all_css,
    by_css,
    log_in,
    screenshot,
    script_errors,
    wait_for,
)
from tests.factories import ladder_for, make_bot, make_match, make_version, play_and_record
from tests.helpers import present
from tests.tournaments.play import play_one, play_pending
from tests.web.site import started_tournament

pytestmark = BROWSER_MARKS

DESKTOP = (1366, 900)
PHONE = (390, 844)
VISITOR_ZONE = "Asia/Tokyo"


def text_of(driver, selector: str) -> str:
    """An element's text, or "" while the page is swapping or reloading it."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    try:
        return str(by_css(driver, selector).text)
    except (NoSuchElementException, StaleElementReferenceException):
        return ""


def fits(driver, selector: str) -> bool:
    """The element's box holds its content: nothing cut off or scrolled out of it."""
    return bool(
        driver.execute_script(
            "const el = document.querySelector(arguments[0]);"
            "return el !== null && el.scrollWidth <= el.clientWidth + 1;",
            selector,
        )
    )


def right_edge(driver, selector: str) -> float:
    return float(
        driver.execute_script(
            "return document.querySelector(arguments[0]).getBoundingClientRect().right;", selector
        )
    )


def page_width(driver) -> int:
    return int(driver.execute_script("return document.documentElement.scrollWidth"))


def test_a_running_tournament_page_follows_its_rounds(
    browser,
    live_server,
    site_world,
    olivia,
    bob,
    settings,
    django_capture_on_commit_callbacks,
):
    settings.MONSOON_TOURNAMENT_REFRESH_SECONDS = 1
    extra = make_bot(bob, "bob-batavia-2")
    make_version(extra)
    field = [site_world.bots[n] for n in ("alice-batavia", "bob-batavia", "olivia-batavia")] + [
        extra
    ]
    t = started_tournament(
        olivia, field, name="Typhoon Swiss", format="swiss", rounds=2, time_zone="Europe/Paris"
    )
    browser.delete_all_cookies()
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": VISITOR_ZONE})
    url = live_server.url + reverse("web:tournament", args=[t.pk])
    try:
        browser.set_window_size(*DESKTOP)
        browser.get(url)
        # Times in the visitor's zone, named; the organiser's zone is said too.
        wait_for(browser, lambda d: text_of(d, ".zone-name") == VISITOR_ZONE)
        started = datetime.fromisoformat(
            by_css(browser, "dd time.local").get_attribute("datetime")
        ).astimezone(ZoneInfo(VISITOR_ZONE))
        assert f"{started:%H:%M}" in by_css(browser, "dd time.local").text
        assert "the organiser's zone is Europe/Paris" in text_of(browser, "#zone-fact")
        # Round 1 is played behind the page's back: it follows without a reload.
        browser.execute_script("window.stillTheSamePage = true")
        before = text_of(browser, "#progress-text")
        for match_id in tournament_selectors.pending_match_ids(t):
            with django_capture_on_commit_callbacks(execute=True):
                play_one(match_id)
        wait_for(browser, lambda d: text_of(d, "#progress-text") not in ("", before), 30)
        assert browser.execute_script("return window.stillTheSamePage") is True
        # A bot with no game yet shows no probability; the others do.
        wait_for(browser, lambda d: "%" in text_of(d, "#standings-table"), 30)
        cells = [c.text for c in all_css(browser, "#standings-table td.p-first")]
        assert len(cells) == 4 and "100%" not in cells[1:]
        # Standings fit 1366 px: no column cut off.
        assert fits(browser, "#standings-wrap"), "standings wider than their box at 1366 px"
        screenshot(browser, "tournament-running-1366.png", width=DESKTOP[0])
        browser.set_window_size(*PHONE)
        # At 390 px the points column is in view and the page does not scroll sideways.
        wait_for(browser, lambda d: page_width(d) <= PHONE[0] + 10)
        assert right_edge(browser, "#standings-table th.points-col") <= PHONE[0]
        assert {el.text for el in all_css(browser, ".zone-name")} == {VISITOR_ZONE}
        ARTIFACTS.mkdir(exist_ok=True)
        by_css(browser, "#live-standings").screenshot(str(ARTIFACTS / "standings-390.png"))
        screenshot(browser, "tournament-running-390.png", width=PHONE[0])
        # The last round: the page reloads itself once the tournament is over.
        play_pending(django_capture_on_commit_callbacks, t)
        t.refresh_from_db()
        assert t.status == Tournament.Status.FINISHED
        wait_for(browser, lambda d: "finished" in text_of(d, "main .meta"), 40)
        wait_for(browser, lambda d: "played" in text_of(d, "#entrant-table"))
        assert "playing" not in text_of(browser, "#entrant-table")
        assert all_css(browser, 'script[src*="tournament-live"]') == []
        screenshot(browser, "tournament-finished-390.png", width=PHONE[0])
        assert script_errors(browser) == []
    finally:
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
        browser.set_window_size(1280, 1000)


def test_ask_to_become_an_organiser_and_hear_the_answer(browser, live_server, site_world, sam):
    browser.delete_all_cookies()
    log_in(browser, live_server, "bob", "bob-password-1")
    new = live_server.url + reverse("web:tournament-new")
    try:
        for width, height in (PHONE, DESKTOP):
            browser.set_window_size(width, height)
            browser.get(new)
            assert "Become an organiser" in text_of(browser, "h1")
            assert page_width(browser) <= width + 10
        screenshot(browser, "organiser-request-1366.png", width=DESKTOP[0])
        browser.set_window_size(*PHONE)
        by_css(browser, "#id_reason").send_keys("A Borneo league for my club")
        by_css(browser, "main form button[type=submit]").click()
        wait_for(browser, lambda d: "waiting for staff" in text_of(d, "#organiser-pending"))
        assert "Your request is sent" in text_of(browser, ".messages")
        screenshot(browser, "organiser-request-sent-390.png", width=PHONE[0])
        decide_organiser_request(OrganiserRequest.objects.get().pk, staff=sam, approve=True)
        browser.get(live_server.url + reverse("web:tournaments"))
        wait_for(browser, lambda d: "you are an organiser now" in text_of(d, ".messages"))
        screenshot(browser, "organiser-approved-390.png", width=PHONE[0])
        browser.get(new)
        wait_for(browser, lambda d: text_of(d, "h1") != "Become an organiser")
        assert by_css(browser, "#id_time_zone") is not None
        assert script_errors(browser) == []
    finally:
        browser.set_window_size(1280, 1000)


def test_a_finished_season_is_browsable(browser, live_server, site_world):
    ladder = ladder_for("batavia", 3)
    season = end_season(ladder.pk)
    assert season.standings.count() > 0
    url = live_server.url + reverse("web:season", args=["batavia", 1])
    try:
        for (width, height), name in ((DESKTOP, "season-1366.png"), (PHONE, "season-390.png")):
            browser.set_window_size(width, height)
            browser.get(url)
            wait_for(browser, lambda d: "season 1" in text_of(d, "h1"))
            rows = all_css(browser, "#season-3 tbody tr")
            assert len(rows) == season.standings.count()
            assert rows[0].find_element("css selector", "td").text == "1"
            assert page_width(browser) <= width + 10
            assert fits(browser, "#season-3") or width == PHONE[0]
            screenshot(browser, name, width=width)
        first = present(season.standings.order_by("rank").first(), "the season's winner")
        browser.get(live_server.url + reverse("web:bot", args=[first.bot.name]))
        wait_for(browser, lambda d: "Season 1" in text_of(d, "#bot-season-table"))
        assert script_errors(browser) == []
    finally:
        browser.set_window_size(1280, 1000)


def test_a_new_bot_page_shows_its_first_match_without_a_reload(browser, live_server, site_world):
    bot = make_bot(site_world.bots["alice-packet-row"].owner, "alice-newcomer", "packet_row")
    version = make_version(bot)
    browser.set_window_size(*PHONE)
    try:
        browser.get(live_server.url + reverse("web:bot", args=[bot.name]))
        assert "No matches yet" in text_of(browser, "#recent-matches")
        browser.execute_script("window.stillTheSamePage = true")
        rival = site_world.bots["bob-packet-row"].versions.get(status="active")
        match = make_match("packet_row", [version, rival], seed=77)
        play_and_record(match)
        wait_for(browser, lambda d: f"#{match.pk}" in text_of(d, "#recent-matches"), 40)
        wait_for(browser, lambda d: "Games played\n1" in text_of(d, "#record-body"), 20)
        assert browser.execute_script("return window.stillTheSamePage") is True
        screenshot(browser, "bot-first-match-390.png", width=PHONE[0])
        assert script_errors(browser) == []
    finally:
        browser.set_window_size(1280, 1000)
