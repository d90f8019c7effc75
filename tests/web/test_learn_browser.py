"""Browser tests of the site's way in (headless system Chromium, tests/web/test_browser.py's
harness): every new page on a 390 px wide phone screen without sideways scrolling, the bot page
turning a pending version active by itself, and a challenge sent from the form.

Screenshots of the getting-started page and of "My bots" (phone and desktop) go to
``test-artifacts/`` for a person to look at.
"""

from __future__ import annotations

from django.urls import reverse

from engine.registry import all_games
from ladder.bots import services as bot_services
from ladder.matches.models import Match
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
from tests.factories import accept

pytestmark = BROWSER_MARKS

PHONE = (390, 844)


def new_pages() -> list[str]:
    return [
        reverse("web:start"),
        *[reverse("web:rules", args=[game]) for game in all_games()],
        reverse("web:protocol"),
        reverse("web:languages"),
        reverse("web:my-bots"),
        reverse("web:bot", args=["alice-batavia"]),
        reverse("web:bot", args=["alice-borneo"]),
        reverse("web:challenge"),
        reverse("web:bot-challenge", args=["alice-batavia"]),
    ]


def test_new_pages_fit_a_phone_screen(browser, live_server, site_world):
    browser.delete_all_cookies()
    log_in(browser, live_server, "alice", "alice-password-1")
    browser.set_window_size(*PHONE)
    try:
        overflowing = {}
        for url in new_pages():
            browser.get(live_server.url + url)
            assert by_css(browser, "h1").text, url
            if url.startswith("/games/"):
                # Each worked example is drawn by the replay's drawing of the game.
                boards = all_css(browser, "figure.rule-example .rule-example-board")
                assert boards, url
                for board in boards:
                    assert board.find_elements("css selector", "svg, table"), url
                    assert "could not be drawn" not in board.text, url
            scroll, client = browser.execute_script(
                "var e = document.documentElement; return [e.scrollWidth, e.clientWidth]"
            )
            assert client <= PHONE[0]
            if scroll > client:
                overflowing[url] = scroll
        assert overflowing == {}, "these pages scroll sideways at 390 px"
        for name, url in (("start", reverse("web:start")), ("my-bots", reverse("web:my-bots"))):
            browser.get(live_server.url + url)
            browser.save_screenshot(str(ARTIFACTS / f"phone-{name}-first-screen.png"))
            screenshot(browser, f"phone-{name}.png", width=PHONE[0])
            browser.set_window_size(*PHONE)
        browser.set_window_size(*PHONE)
        schema = reverse("web:rules", args=["batavia"]) + "#observation-and-action-schema"
        browser.get(live_server.url + schema)
        browser.save_screenshot(str(ARTIFACTS / "phone-rules-batavia-schema.png"))
        screenshot(browser, "phone-rules-batavia.png", width=PHONE[0])
    finally:
        browser.set_window_size(1280, 1000)
    browser.get(live_server.url + reverse("web:start"))
    screenshot(browser, "start.png")
    browser.get(live_server.url + reverse("web:my-bots"))
    screenshot(browser, "my-bots.png")
    browser.get(live_server.url + schema)
    browser.save_screenshot(str(ARTIFACTS / "rules-batavia-schema.png"))
    assert script_errors(browser) == []


def test_pending_version_turns_active_without_a_reload(browser, live_server, site_world):
    browser.delete_all_cookies()
    log_in(browser, live_server, "alice", "alice-password-1")
    bot = site_world.bots["alice-packet-row"]
    version = bot_services.upload_version(
        bot, user=bot.owner, filename="main.py", data=b"print(1)\n"
    )
    browser.get(live_server.url + reverse("web:bot", args=[bot.name]))
    status = '#versions ~ .table-wrap [data-version="2"]'
    # The page refreshes its versions table while it is read: wait_for reads it again if so.
    wait_for(browser, lambda d: by_css(d, status).text == "pending validation")
    browser.execute_script("window.stillTheSamePage = true")
    bot_services.validate_version(version.pk, validator=accept)
    wait_for(browser, lambda d: by_css(d, status).text == "active", timeout=20)
    assert browser.execute_script("return window.stillTheSamePage") is True
    wait_for(
        browser, lambda d: "Version 2 is now active." in by_css(d, "#version-status-note").text
    )
    assert all_css(browser, "#pending-note") == []
    # The record was refreshed from the page too: v2 is the one that plays now.
    record = by_css(browser, "#record-body").text
    assert "v2 active" in record and "v2 passed validation" in record
    assert "plays meanwhile" not in record
    screenshot(browser, "bot-page-version-turned-active.png")

    rejected = bot_services.upload_version(
        bot, user=bot.owner, filename="main.py", data=b"import numpyy\n"
    )
    browser.get(live_server.url + reverse("web:bot", args=[bot.name]))
    browser.execute_script("window.stillTheSamePage = true")
    bot_services.validate_version(
        rejected.pk,
        validator=lambda artifact: bot_services.ValidationOutcome(
            ok=False, reason="crash: ImportError numpyy"
        ),
    )
    status = '#versions ~ .table-wrap [data-version="3"]'
    wait_for(
        browser, lambda d: "crash: ImportError numpyy" in by_css(d, "#versions-table").text, 20
    )
    wait_for(browser, lambda d: by_css(d, status).text == "rejected")
    assert browser.execute_script("return window.stillTheSamePage") is True
    assert "v2 plays meanwhile" in by_css(browser, "#record-body").text
    assert script_errors(browser) == []


def test_send_a_challenge_from_the_form(browser, live_server, site_world):
    browser.delete_all_cookies()
    log_in(browser, live_server, "alice", "alice-password-1")
    browser.get(live_server.url + reverse("web:bot", args=["alice-batavia"]))
    by_css(browser, f'a[href="{reverse("web:bot-challenge", args=["alice-batavia"])}"]').click()
    for bot in ("bob-batavia", "olivia-batavia"):
        pk = site_world.bots[bot].pk
        by_css(browser, f'input[name="opponents"][value="{pk}"]').click()
    by_css(browser, "main form button[type=submit]").click()
    wait_for(browser, lambda d: "/matches/" in d.current_url)
    match = Match.objects.filter(kind=Match.Kind.CHALLENGE).latest("id")
    assert browser.current_url.endswith(reverse("web:match", args=[match.pk]))
    assert script_errors(browser) == []
