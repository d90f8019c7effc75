"""Browser tests: the system Chromium (Debian ``chromium`` + ``chromium-driver``, installed by
scripts/ensure-services.sh) driven headless by Selenium against pytest-django's live server.

Each game's replay viewer is saved as a screenshot under ``test-artifacts/`` for a person to
look at; the assertions check what the viewer does (steps, keyboard, play/pause, seat views).
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from ladder.bots.models import BotVersion
from ladder.tournaments import services as tournament_services
from tests.browser import (
    ARTIFACTS,
    BROWSER_MARKS,
    all_css,
    assert_above_the_fold,
    by_css,
    log_in,
    screenshot,
    script_errors,
    seat_names,
    wait_for,
)
from tests.factories import make_bot, make_version, validated_with_smoke
from tests.helpers import present
from tests.web.site import FORFEIT, finished_tournament

# Every browser test module: a live server with real transactions, skipped without Chromium.
pytestmark = BROWSER_MARKS


def bot_names(driver) -> list[str]:
    return [
        row.find_elements("css selector", "td")[1].get_attribute("data-value")
        for row in all_css(driver, "#standings tbody tr")
    ]


def test_standings_load_sort_and_refresh(browser, live_server, site_world):
    browser.get(live_server.url + reverse("web:standings", args=["batavia", 3]))
    assert len(all_css(browser, "#standings tbody tr")) == 3
    ranked = bot_names(browser)
    bot_header = all_css(browser, "#standings thead th")[1]
    bot_header.find_element("css selector", "button").click()
    assert bot_header.get_attribute("aria-sort") == "ascending"
    assert bot_names(browser) == sorted(ranked)
    bot_header.find_element("css selector", "button").click()
    assert bot_header.get_attribute("aria-sort") == "descending"
    assert bot_names(browser) == sorted(ranked, reverse=True)
    assert all_css(browser, "#standings thead th")[0].get_attribute("aria-sort") is None
    # The periodic refresh replaces the rows from the fragment URL and keeps the sort.
    browser.execute_script("document.getElementById('standings').refreshStandings()")
    wait_for(browser, lambda d: "updated" in by_css(d, ".refresh-status").text)
    assert bot_names(browser) == sorted(ranked, reverse=True)
    # Keyboard: the header buttons are ordinary buttons, reachable and pressed with Enter.
    rating_button = all_css(browser, "#standings thead th button")[3]
    rating_button.send_keys("\n")
    assert all_css(browser, "#standings thead th")[3].get_attribute("aria-sort") == "descending"
    assert bot_names(browser) == ranked
    assert script_errors(browser) == []


@pytest.mark.parametrize("game", ["batavia", "east_indiaman", "borneo", "packet_row"])
def test_replay_viewer(browser, live_server, site_world, game):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    match = site_world.matches[game]
    browser.get(live_server.url + reverse("web:match", args=[match.pk]))
    position = by_css(browser, "#replay-position")
    total = int(position.text.split("/")[1])
    assert total > 10 and position.text == f"0 / {total}"
    assert "Players" in by_css(browser, "#replay-drawing").text
    assert "Start of the game." in by_css(browser, "#replay-decision").text

    by_css(browser, '[data-action="forward"]').click()
    assert position.text == f"1 / {total}"
    decision = by_css(browser, "#replay-decision").text
    first_seat = match_decisions(match)[0]["seat"]
    sentence = by_css(browser, "#replay-decision .sentence").text
    names = seat_names(match)
    assert sentence.startswith(names[first_seat]) and "plays '" not in sentence
    assert "ms" in decision
    assert "Time used so far:" in by_css(browser, "#replay-clock").text
    assert "[object" not in by_css(browser, "#viewer").text
    by_css(browser, '[data-action="back"]').click()
    assert position.text == f"0 / {total}"

    slider = by_css(browser, "#replay-step")
    slider.send_keys(Keys.ARROW_RIGHT)
    slider.send_keys(Keys.ARROW_RIGHT)
    assert position.text == f"2 / {total}"
    slider.send_keys(Keys.END)
    assert position.text == f"{total} / {total}"
    final_line = by_css(browser, "#replay-decision").text
    assert "Result: 1st " in final_line and "Game over." not in final_line
    if game == "batavia":
        assert FORFEIT in final_line
    assert "Final scoring" in by_css(browser, "#replay-drawing").text
    assert "[object" not in by_css(browser, "#viewer").text
    screenshot(browser, f"viewer-{game}-end.png")

    play = by_css(browser, '[data-action="play"]')
    play.click()  # from the end, play starts again at the beginning
    wait_for(browser, lambda d: int(by_css(d, "#replay-position").text.split("/")[0]) >= 2)
    assert play.get_attribute("aria-pressed") == "true"
    play.click()
    assert play.get_attribute("aria-pressed") == "false"
    paused_at = position.text
    browser.execute_script("return new Promise(r => setTimeout(r, 700))")
    assert position.text == paused_at

    # Spectators see hand sizes; once over, anyone may look at a seat's hidden cards.
    middle = total // 2
    browser.execute_script(
        "var s = document.getElementById('replay-step'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input'));",
        middle,
    )
    assert position.text == f"{middle} / {total}"
    assert all_css(browser, "#replay-drawing .card.hand") == []
    assert "[object" not in by_css(browser, "#viewer").text
    assert "could not be drawn" not in by_css(browser, "#viewer").text
    screenshot(browser, f"viewer-{game}.png")
    if game == "borneo":  # a card's flags are one letter each, like the printed card
        flags = {e.text for e in all_css(browser, "#replay-drawing .card .co")}
        assert flags and flags <= {"Y", "R", "G", "B"}, flags
    if game != "east_indiaman":  # East Indiaman has no hidden cards
        Select(by_css(browser, "#replay-view-as")).select_by_value("0")
        wait_for(browser, lambda d: all_css(d, "#replay-drawing .hand-cards"))
        assert "[object" not in by_css(browser, "#viewer").text
        screenshot(browser, f"viewer-{game}-seat0.png")
    # Every step draws (seat 0's view where there are hands): no exception, no stray objects.
    bad_steps = browser.execute_script("""
        var slider = document.getElementById('replay-step'), bad = [];
        for (var i = 0; i <= +slider.max; i++) {
          slider.value = i; slider.dispatchEvent(new Event('input'));
          var text = document.getElementById('viewer').textContent;
          if (text.indexOf('could not be drawn') >= 0 || text.indexOf('[object') >= 0) {
            bad.push(i);
          }
        }
        return bad;""")
    assert bad_steps == []
    assert script_errors(browser) == []


def test_viewer_on_a_phone_sized_screen(browser, live_server, site_world):
    browser.set_window_size(390, 844)
    try:
        browser.get(live_server.url + reverse("web:match", args=[site_world.matches["borneo"].pk]))
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 400, "the page must not scroll sideways on a phone"
        browser.execute_script(
            "var s = document.getElementById('replay-step'); s.value = 60;"
            "s.dispatchEvent(new Event('input'));"
        )
        screenshot(browser, "phone-match-borneo.png", width=390)
        browser.set_window_size(390, 844)
        browser.get(live_server.url + reverse("web:standings", args=["batavia", 3]))
        browser.save_screenshot(str(ARTIFACTS / "phone-standings.png"))
    finally:
        browser.set_window_size(1280, 1000)


def test_upload_a_bot_through_the_form(browser, live_server, site_world, tmp_path):
    browser.delete_all_cookies()
    log_in(browser, live_server, "alice", "alice-password-1")
    bot = site_world.bots["alice-packet-row"]
    browser.get(live_server.url + reverse("web:bot", args=[bot.name]))

    broken = tmp_path / "broken.py"
    broken.write_text("def oops(:\n")
    by_css(browser, "#id_artifact").send_keys(str(broken))
    by_css(browser, "#upload ~ form button[type=submit]").click()
    error = wait_for(browser, lambda d: all_css(d, ".field-errors"))[0].text
    assert "The upload was refused" in error
    assert bot.versions.count() == 1
    browser.get_log("browser")  # drop the console's note of that expected 400

    good = tmp_path / "good.py"
    good.write_text("import sys\nfor line in sys.stdin:\n    print(line)\n")
    by_css(browser, "#id_artifact").send_keys(str(good))
    by_css(browser, "#upload ~ form button[type=submit]").click()
    wait_for(browser, lambda d: "Uploaded version 2" in by_css(d, ".messages").text)
    assert bot.versions.get(number=2).status == BotVersion.Status.PENDING
    assert "pending validation" in by_css(browser, "#versions ~ .table-wrap").text
    screenshot(browser, "bot-page-after-upload.png")
    assert script_errors(browser) == []


def test_sign_up_create_a_bot_and_see_the_token(browser, live_server, site_world):
    browser.delete_all_cookies()
    browser.get(live_server.url + "/")
    assert "Running tournaments" in browser.page_source
    screenshot(browser, "home.png")
    browser.get(live_server.url + reverse("web:signup"))
    by_css(browser, "#id_username").send_keys("carol")
    by_css(browser, "#id_password1").send_keys("a-long-pass-phrase-1")
    by_css(browser, "#id_password2").send_keys("a-different-phrase-2")
    by_css(browser, "main form button[type=submit]").click()
    assert (
        "The two passwords differ."
        in wait_for(browser, lambda d: all_css(d, ".field-errors"))[0].text
    )
    screenshot(browser, "signup-error.png")
    by_css(browser, "#id_password1").send_keys("a-long-pass-phrase-1")
    by_css(browser, "#id_password2").send_keys("a-long-pass-phrase-1")
    by_css(browser, "main form button[type=submit]").click()
    wait_for(browser, lambda d: d.current_url.endswith(reverse("web:bot-new")))
    by_css(browser, "#id_name").send_keys("carols-bot")
    by_css(browser, "main form button[type=submit]").click()
    wait_for(browser, lambda d: d.current_url.endswith(reverse("web:bot", args=["carols-bot"])))
    assert "Upload a new version" in browser.page_source
    browser.get(live_server.url + reverse("web:token"))
    token = by_css(browser, "#api-token").get_attribute("value")
    assert len(token) == 40
    by_css(browser, "main form button[type=submit]").click()
    wait_for(browser, lambda d: by_css(d, "#api-token").get_attribute("value") != token)
    assert script_errors(browser) == []


def test_bot_page_rating_chart(browser, live_server, site_world):
    from tests.web.site import finished_match

    versions = [seat.bot_version for seat in site_world.matches["batavia"].seats.all()]
    for seed in range(30, 36):
        finished_match("batavia", versions, seed=seed)
    versions[0] = make_version(site_world.bots["alice-batavia"])  # v3 replaces v1
    for seed in range(36, 42):
        finished_match("batavia", versions, seed=seed)
    browser.get(live_server.url + reverse("web:bot", args=["alice-batavia"]))
    chart = by_css(browser, "svg.chart")
    assert len(chart.find_elements("css selector", "circle.dot")) == 13
    assert len(chart.find_elements("css selector", "line.version")) == 1
    screenshot(browser, "bot-page-chart.png")
    assert script_errors(browser) == []


def test_finished_tournament_page_and_a_round_match_replay(
    browser, live_server, site_world, olivia, bob, django_capture_on_commit_callbacks
):
    """A played round robin: standings and cross-table as stored, a round's match link opens
    the replay, and the page fits a phone screen (tables scroll inside their boxes)."""
    extra = make_bot(bob, "bob-batavia-2")
    make_version(extra)
    field = [
        site_world.bots[name] for name in ("alice-batavia", "bob-batavia", "olivia-batavia")
    ] + [extra]
    t = finished_tournament(
        olivia, field, django_capture_on_commit_callbacks, name="Monsoon Masters"
    )
    browser.get(live_server.url + reverse("web:tournament", args=[t.pk]))
    assert by_css(browser, "h1").text == "Monsoon Masters"
    total = t.planned_matches
    assert by_css(browser, "#progress-text").text == (f"{total} of {total} matches played (100%)")
    rows = all_css(browser, "#standings-table tbody tr")
    final_standings = present(t.final_standings, "the final standings")
    assert [r.find_element("css selector", "th a").text for r in rows] == [
        row["bot_name"] for row in final_standings
    ]
    first = final_standings[0]
    cells = rows[0].find_elements("css selector", "td")
    assert cells[-2].text == f"{100 * first['p_first']:.0f}%"
    assert cells[-1].text == f"{first['rank_low']}\u2013{first['rank_high']}"
    cross = all_css(browser, "#crosstable-table tbody tr")
    assert len(cross) == 4
    # Round robin at 3-player tables: every pair meets, so only the diagonal is empty.
    assert len(all_css(browser, "#crosstable-table td.self")) == 4
    assert all_css(browser, "#crosstable-table td.not-met") == []
    stored = {
        (r["entrant"], c["opponent"]): c
        for r in present(t.final_crosstable, "the final cross-table")["rows"]
        for c in r["cells"]
    }
    second = final_standings[1]["entrant"]
    cell = stored[(first["entrant"], second)]
    shown = cross[0].find_elements("css selector", "td")[1].text
    assert shown.startswith(f"{cell['ahead']}\u2013{cell['behind']}")
    screenshot(browser, "tournament.png")
    browser.set_window_size(390, 844)
    try:
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 400, "the tournament page must not scroll sideways on a phone"
        screenshot(browser, "phone-tournament.png", width=390)
    finally:
        browser.set_window_size(1280, 1000)
    # Follow round 1's first match to its replay, and the match page's way back.
    link = by_css(browser, "#round-1 ~ .table-wrap .match-links a")
    match_url = link.get_attribute("href")
    link.click()
    wait_for(browser, lambda d: d.current_url == match_url)
    position = by_css(browser, "#replay-position")
    assert position.text.startswith("0 / ")
    by_css(browser, '[data-action="forward"]').click()
    assert position.text.startswith("1 / ")
    back = by_css(browser, f'a[href^="{reverse("web:tournament", args=[t.pk])}#round-1"]')
    assert back.text == "Monsoon Masters"
    assert script_errors(browser) == []


# --- phones: no page scrolls sideways at 390 px ----------------------------------------------

PHONE = (390, 844)
OVERFLOW_SCRIPT = """
var width = window.innerWidth, wide = [];
document.querySelectorAll('body *').forEach(function (el) {
  var box = el.getBoundingClientRect();
  if (box.right > width + 0.5 && box.width > 0) {
    var inScroller = false;
    for (var p = el.parentElement; p; p = p.parentElement) {
      var o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') { inScroller = true; break; }
    }
    if (!inScroller) {
      wide.push(el.tagName.toLowerCase() + '.' + el.className + ' ' + Math.round(box.right));
    }
  }
});
return [document.documentElement.scrollWidth, width, wide.slice(0, 8)];
"""


def site_pages(world, tournaments) -> dict[str, str]:
    """Every page a visitor can open, by a readable name."""
    pages = {
        "home": reverse("web:home"),
        "tournaments": reverse("web:tournaments"),
        "login": reverse("web:login"),
        "signup": reverse("web:signup"),
        "password-reset": reverse("web:password-reset"),
        "bot": reverse("web:bot", args=["alice-batavia"]),
    }
    for game in TABLES_BY_GAME:
        pages[f"standings-{game}"] = reverse("web:standings", args=[game, 3])
        pages[f"match-{game}"] = reverse("web:match", args=[world.matches[game].pk])
    pages["match-queued"] = reverse("web:match", args=[world.queued.pk])
    for name, t in tournaments.items():
        pages[f"tournament-{name}"] = reverse("web:tournament", args=[t.pk])
    return pages


OWNER_PAGES = {
    "my-bots": "web:my-bots",
    "bot-new": "web:bot-new",
    "token": "web:token",
    "password-change": "web:password-change",
}
TABLES_BY_GAME = ("batavia", "east_indiaman", "borneo", "packet_row")


def overflowing_pages(browser, base: str, urls: dict[str, str]) -> dict[str, list]:
    found = {}
    for name, url in urls.items():
        browser.get(base + url)
        wait_for(browser, lambda d: d.execute_script("return document.readyState") == "complete")
        scroll_width, inner, wide = browser.execute_script(OVERFLOW_SCRIPT)
        if scroll_width > inner:
            found[name] = [scroll_width, inner, wide]
    return found


@pytest.mark.parametrize("who", ["visitor", "owner", "organiser"])
def test_no_page_scrolls_sideways_on_a_phone(
    browser, live_server, site_world, olivia, bob, who, django_capture_on_commit_callbacks
):
    from tests.web.site import open_tournament, started_tournament

    field = [site_world.bots[n] for n in ("alice-batavia", "bob-batavia", "olivia-batavia")]
    extra = make_bot(bob, "bob-batavia-2")
    make_version(extra)
    tournaments = {
        "finished": finished_tournament(
            olivia, [*field, extra], django_capture_on_commit_callbacks, name="Monsoon Masters"
        ),
        "running": started_tournament(olivia, field, name="Monsoon Weekly"),
        "open": open_tournament(olivia, name="Monsoon Open with a rather long name for phones"),
    }
    for bot in [*field, extra]:  # wide entrant tables (withdraw buttons for owner and organiser)
        tournament_services.register_entrant(tournaments["open"].pk, user=bot.owner, bot_id=bot.pk)
    urls = site_pages(site_world, tournaments)
    browser.delete_all_cookies()
    if who == "owner":
        log_in(browser, live_server, "alice", "alice-password-1")
    elif who == "organiser":
        log_in(browser, live_server, "olivia", "olivia-password-1")
    if who != "visitor":
        urls.update({name: reverse(view) for name, view in OWNER_PAGES.items()})
    browser.set_window_size(*PHONE)
    try:
        assert browser.execute_script("return window.innerWidth") == PHONE[0]
        found = overflowing_pages(browser, live_server.url, urls)
        for name in ("home", "standings-batavia", "tournament-finished", "match-borneo"):
            browser.get(live_server.url + urls[name])
            browser.save_screenshot(str(ARTIFACTS / f"phone-{who}-{name}.png"))
    finally:
        browser.set_window_size(1280, 1000)
    assert found == {}, f"pages wider than {PHONE[0]} px: {found}"


def test_home_and_standings_keep_their_columns_on_a_phone(browser, live_server, site_world):
    """Nothing essential sits off-screen in a scrolling box: every visible cell of the
    standings and the latest matches lies within the 390 px viewport."""
    browser.set_window_size(*PHONE)
    try:
        for url in (reverse("web:home"), reverse("web:standings", args=["batavia", 3])):
            browser.get(live_server.url + url)
            cut = browser.execute_script("""
                var w = window.innerWidth, cut = [];
                document.querySelectorAll('table.standings td, table.matches td').forEach(
                  function (td) {
                    var box = td.getBoundingClientRect();
                    if (box.width > 0 && box.right > w + 0.5) { cut.push(td.textContent.trim()); }
                  });
                return cut;""")
            assert cut == [], f"{url}: cells beyond the screen edge: {cut[:5]}"
        text = by_css(browser, "table.standings tbody tr").text
        assert "by alice" in text or "by olivia" in text or "by bob" in text
        assert "P" in text  # the provisional mark, beside the rating
    finally:
        browser.set_window_size(1280, 1000)


@pytest.mark.parametrize("game", ["batavia", "east_indiaman", "borneo", "packet_row"])
def test_replay_on_desktop_and_phone(browser, live_server, site_world, game):
    """The drawn board fits a phone, the controls stay on screen while the board scrolls, and
    each step reads as a sentence with what it changed; screenshots at 1366 and 390 px."""
    match = site_world.matches[game]
    try:
        for width in (1366, 390):
            browser.set_window_size(width, 900)
            browser.get(live_server.url + reverse("web:match", args=[match.pk]))
            total = int(by_css(browser, "#replay-position").text.split("/")[1])
            browser.execute_script(
                "var s = document.getElementById('replay-step'); s.value = arguments[0];"
                "s.dispatchEvent(new Event('input'));",
                total // 3,
            )
            assert_above_the_fold(browser)
            sentence = by_css(browser, "#replay-decision .sentence").text
            assert any(sentence.startswith(n) for n in seat_names(match)), sentence
            assert "plays '" not in sentence
            assert all_css(browser, "#replay-changes li")
            board = by_css(browser, "#replay-drawing svg.board-svg")
            assert 0 < board.size["width"] <= width
            assert browser.execute_script("return document.documentElement.scrollWidth") <= width
            browser.execute_script("document.getElementById('viewer').scrollIntoView()")
            browser.save_screenshot(str(ARTIFACTS / f"replay-{game}-{width}-top.png"))
            # Scroll down to the viewer's end (the board now starts near the top of the page,
            # so scrolling to the board alone may not move the page): the bar stays pinned.
            browser.execute_script(
                "document.getElementById('replay-clock').scrollIntoView({block: 'end'})"
            )
            top = browser.execute_script(
                "return document.querySelector('.viewer-bar').getBoundingClientRect().top"
            )
            assert abs(top) < 2, f"controls scrolled away (top {top}) at {width} px"
            by_css(browser, '[data-action="forward"]').click()  # and still work from there
            assert by_css(browser, "#replay-position").text == f"{total // 3 + 1} / {total}"
            browser.save_screenshot(str(ARTIFACTS / f"replay-{game}-{width}-scrolled.png"))
            screenshot(browser, f"replay-{game}-{width}.png", width=width)
    finally:
        browser.set_window_size(1280, 1000)
    assert script_errors(browser) == []


def test_owner_sees_stderr_of_each_step_and_the_forfeit_on_the_chart(
    browser, live_server, site_world
):
    match = site_world.matches["batavia"]  # alice owns seat 0; bob's seat 1 forfeited
    seat = match.seats.get(seat=0)
    first = next(i for i, d in enumerate(match_decisions(match), 1) if d["seat"] == 0)
    seat.stderr = f"warming up\n[monsoon step {first}]\nALICE thinks about step {first}\n"
    seat.save(update_fields=["stderr"])
    browser.delete_all_cookies()
    log_in(browser, live_server, "alice", "alice-password-1")
    browser.get(live_server.url + reverse("web:match", args=[match.pk]))
    assert by_css(browser, "#replay-stderr").text == "seat 0:\nwarming up"
    browser.execute_script(
        "var s = document.getElementById('replay-step'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('input'));",
        first,
    )
    assert by_css(browser, "#replay-stderr").text == f"seat 0:\nALICE thinks about step {first}"
    by_css(browser, '[data-action="forward"]').click()
    assert by_css(browser, "#replay-stderr").text == "(nothing written at this step)"
    # The chart marks bob's forfeit; clicking its right end jumps to the last step.
    assert "seat 1 forfeits" in by_css(browser, "#progress-chart").text
    chart = by_css(browser, "#progress-chart")
    browser.execute_script(
        "var c = arguments[0], b = c.getBoundingClientRect();"
        "c.dispatchEvent(new MouseEvent('click', {clientX: b.right - 2, clientY: b.top + 20,"
        " bubbles: true}));",
        chart,
    )
    total = by_css(browser, "#replay-position").text.split("/")[1].strip()
    assert by_css(browser, "#replay-position").text == f"{total} / {total}"
    assert "forfeited" in by_css(browser, "#replay-decision").text
    # Another visitor gets no stderr at all.
    browser.delete_all_cookies()
    browser.get(live_server.url + reverse("web:match", args=[match.pk]))
    assert all_css(browser, "#replay-stderr") == []
    assert "ALICE thinks" not in browser.page_source
    assert script_errors(browser) == []


def match_decisions(match) -> list[dict]:
    from ladder.matches import selectors as match_selectors

    log = present(match_selectors.match_log(match), "the match's stored log")
    return log["decisions"]


def test_smoke_match_replays_from_the_bot_page(browser, live_server, site_world):
    """Issue 18: the accepted smoke match is reached from the bot page and plays in the viewer."""
    bot = make_bot(site_world.bots["alice-packet-row"].owner, "alice-smoke", "packet_row")
    validated_with_smoke(bot)
    browser.get(live_server.url + reverse("web:bot", args=[bot.name]))
    by_css(browser, "#smoke a").click()
    wait_for(browser, lambda d: "Smoke match of alice-smoke v1" in d.title)
    position = by_css(browser, "#replay-position")
    total = int(position.text.split("/")[1])
    assert total > 10 and position.text == f"0 / {total}"
    by_css(browser, '[data-action="forward"]').click()
    assert position.text == f"1 / {total}"
    from selenium.webdriver.common.keys import Keys

    by_css(browser, "#replay-step").send_keys(Keys.END)
    assert "Result: 1st " in by_css(browser, "#replay-decision").text
    assert "[object" not in by_css(browser, "#viewer").text
    screenshot(browser, "smoke-match-end.png")
    assert script_errors(browser) == []
