"""Browser test of live watching (headless Chromium, the harness of ``test_browser.py``): a
spectator opens a running match, the worker publishes more moves, the page shows them without
a reload and follows the latest; when the result is recorded the page turns into the replay
and keeps the spectator's step (at 1366 px the spectator stepped back), or goes to the result
when they were following the latest move (on a 390 px phone). The page must not scroll
sideways.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from ladder.ladders.services import sync_ladders
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.web.replay import build_live_replay
from tests.browser import BROWSER_MARKS, by_css, screenshot, script_errors, wait_for
from tests.factories import engine_json, make_user
from tests.web.replays import running_match

pytestmark = BROWSER_MARKS


def heading(driver) -> str:
    """The replay section's heading; "" while the page reloads under our feet."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    try:
        return by_css(driver, "#replay-heading").text
    except (NoSuchElementException, StaleElementReferenceException):
        return ""


def position(driver) -> tuple[int, int] | None:
    """The viewer's "step / total"; None while the page reloads under our feet."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    try:
        step, total = by_css(driver, "#replay-position").text.split("/")
        return int(step), int(total)
    except (NoSuchElementException, StaleElementReferenceException, ValueError):
        return None


def text_of(driver, selector: str) -> str:
    """An element's text; "" while the page reloads under our feet."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    try:
        return by_css(driver, selector).text
    except (NoSuchElementException, StaleElementReferenceException):
        return ""


@pytest.mark.parametrize("width", [1366, 390])
def test_a_spectator_watches_a_match_being_played(browser, live_server, width):
    sync_ladders()  # a transactional test starts from an emptied database
    owners = [make_user(name) for name in ("alice", "bob", "olivia")]
    live = running_match(owners, game="borneo", seed=7)
    live.publish(6)
    browser.delete_all_cookies()
    browser.set_window_size(width, 900)
    try:
        browser.get(live_server.url + reverse("web:match", args=[live.match.pk]))
        assert "Live" in heading(browser)
        assert position(browser) == (6, 6)  # a spectator arrives at the latest move
        assert "Game over" not in by_css(browser, "#replay-decision").text

        live.publish(20)  # the worker's next publish: the page follows without a reload
        wait_for(browser, lambda d: position(d) == (20, 20), timeout=10)
        header = {k: v for k, v in live.log.items() if k not in ("decisions", "result")}
        names = [s.bot_version.label for s in live.match.seats.order_by("seat")]
        frames = build_live_replay(header, live.log["decisions"][:20], seat_names=names)
        sentence = frames.frames[20]["decision"]["text"]
        assert sentence in by_css(browser, "#replay-decision").text  # the latest move, narrated
        assert "20 moves played so far" in by_css(browser, "#live-status").text
        assert int(browser.execute_script("return document.documentElement.scrollWidth")) <= width
        screenshot(browser, f"live-match-{width}.png", width=width)

        follow = width == 390
        if follow:  # the phone's spectator follows the latest move
            live.publish(30)
            wait_for(browser, lambda d: position(d) == (30, 30), timeout=10)
        else:  # step back: the page keeps the spectator's place while new moves arrive
            by_css(browser, '[data-action="back"]').click()
            live.publish(30)
            wait_for(browser, lambda d: (position(d) or (0, 0))[1] == 30, timeout=10)
            assert (position(browser) or (-1, 0))[0] == 19
            assert "Press End" in by_css(browser, "#live-status").text

        record = engine_json(live.match)
        record["log"] = live.log
        flow.record_result(match_id=live.match.pk, result=MatchResult.from_json(record))
        wait_for(browser, lambda d: "Replay" in heading(d), timeout=10)
        total = len(live.log["decisions"])
        if follow:  # the result, at the end of the whole replay
            wait_for(browser, lambda d: position(d) == (total, total), timeout=10)
            wait_for(browser, lambda d: text_of(d, "#replay-result").startswith("Result: 1st"))
            assert browser.execute_script("return location.hash") == "#step=end"
        else:  # the whole replay, hands included, at the step the spectator was reading
            wait_for(browser, lambda d: position(d) == (19, total), timeout=10)
            assert browser.execute_script("return location.hash") == "#step=19"
        screenshot(browser, f"live-ended-{width}.png", width=width)
        assert script_errors(browser) == []
    finally:
        browser.set_window_size(1280, 1000)
