"""The version-test pages in a real browser (system Chromium, as tests/web/test_browser.py):
the owner goes from the bot page to the form, starts a test, and reads the result once the
matches are played.  Screenshots go to ``test-artifacts/`` for a person to look at."""

from __future__ import annotations

import contextlib

from django.urls import reverse

from ladder.ladders.services import sync_ladders
from ladder.versus.models import VersionTest
from tests.browser import BROWSER_MARKS, by_css, log_in, screenshot, script_errors, wait_for
from tests.factories import make_user
from tests.versus.play import bot_with_versions, play_pending

pytestmark = BROWSER_MARKS


def no_capture(**_: bool) -> contextlib.nullcontext[None]:
    """Outside a test transaction the on-commit hooks run by themselves."""
    return contextlib.nullcontext()


def test_owner_starts_a_test_in_the_browser_and_reads_the_result(browser, live_server):
    sync_ladders()  # a transactional (browser) test starts from an emptied database
    alice = make_user("alice")
    bot, (baseline, candidate) = bot_with_versions(alice)
    browser.delete_all_cookies()
    log_in(browser, live_server, "alice", "alice-password-1")
    browser.get(live_server.url + reverse("web:bot", args=[bot.name]))
    browser.find_element(
        "link text", "Is a new version better than the current one? Test it"
    ).click()
    wait_for(browser, lambda d: d.current_url.endswith(f"/bots/{bot.name}/version-tests/"))
    # The form proposes the newest version against the one before it.
    assert by_css(browser, "#id_candidate option:checked").text.startswith("v2")
    assert by_css(browser, "#id_baseline option:checked").text.startswith("v1")
    screenshot(browser, "version-test-form.png")
    by_css(browser, "main form button[type=submit]").click()
    test = wait_for(browser, lambda d: VersionTest.objects.first())
    wait_for(browser, lambda d: d.current_url.endswith(f"/version-tests/{test.pk}/"))
    assert "running" in by_css(browser, "main").text
    screenshot(browser, "version-test-running.png")

    play_pending(no_capture, {candidate.pk: "greedy", baseline.pk: "random"})
    browser.refresh()
    text = by_css(browser, "main").text
    assert "better (H1 accepted)" in text
    assert "Cancel the test" not in text
    screenshot(browser, "version-test-accepted.png")
    browser.get(live_server.url + reverse("web:bot-version-tests", args=[bot.name]))
    assert "better (H1 accepted)" in by_css(browser, "#tests ~ .table-wrap").text
    assert script_errors(browser) == []
