"""Browser test of the replay as a spectator reads it (headless Chromium, the harness of
``test_browser.py``), at 1366 px and on a 390 px phone, both 900 px tall: the board and the
step's sentence are on screen without scrolling, ``#step=N`` opens at step N, the arrow keys
work without focusing the viewer (not while typing in a field), the move list and the jumps
go to their steps, and the last step gives the result.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser import (
    ARTIFACTS,
    BROWSER_MARKS,
    all_css,
    assert_above_the_fold,
    by_css,
    screenshot,
    script_errors,
    seat_names,
    wait_for,
)

pytestmark = BROWSER_MARKS


def position(driver) -> tuple[int, int] | None:
    """The viewer's "step / total"; None while the page (re)loads under our feet."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException

    try:
        step, total = by_css(driver, "#replay-position").text.split("/")
        return int(step), int(total)
    except (NoSuchElementException, StaleElementReferenceException, ValueError):
        return None


def here(driver) -> tuple[int, int]:
    found = position(driver)
    assert found is not None, "the viewer shows no position"
    return found


def at_step(step: int):
    return lambda d: (p := position(d)) is not None and p[0] == step


def press(driver, key: str) -> None:
    """A key pressed with nothing in particular focused (the page's body)."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def click(driver, element) -> None:
    """Click in the middle of the window: at its top the viewer's sticky bar covers things."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


@pytest.mark.parametrize("width", [1366, 390])
def test_a_spectator_reads_the_replay(browser, live_server, site_world, width):
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    match = site_world.matches["batavia"]
    names = seat_names(match)
    url = live_server.url + reverse("web:match", args=[match.pk])
    browser.delete_all_cookies()
    browser.set_window_size(width, 900)
    try:
        browser.get(url)
        wait_for(browser, lambda d: all_css(d, "#replay-drawing svg.board-svg"))
        wait_for(browser, lambda d: all_css(d, "#replay-moves li"))
        assert_above_the_fold(browser)
        browser.save_screenshot(str(ARTIFACTS / f"match-top-{width}.png"))
        # Batavia's ships start in Europe, said so (not "position -1").
        where = browser.execute_script(
            "var table = Array.from(document.querySelectorAll('#replay-drawing table'))"
            ".find(t => t.caption && t.caption.textContent === 'Players');"
            "var col = Array.from(table.tHead.rows[0].cells)"
            ".findIndex(c => c.textContent === 'Position');"
            "return Array.from(table.tBodies[0].rows).map(r => r.cells[col].textContent);"
        )
        assert where == ["Europe"] * len(names), where
        total = here(browser)[1]

        # A URL per step: a fresh page load at #step=40 opens there, its move marked.
        browser.get("about:blank")
        browser.get(url + "#step=40")
        wait_for(browser, at_step(40))
        current = by_css(browser, '#replay-moves [aria-current="step"]')
        assert current.get_attribute("data-step") == "40"
        sentence = by_css(browser, "#replay-decision .sentence")
        named = sentence.find_elements("css selector", ".seat-name")
        assert named and named[0].text in names and sentence.text.startswith(named[0].text)

        # Arrow keys with nothing focused; the address follows the step.
        press(browser, Keys.ARROW_RIGHT)
        wait_for(browser, at_step(41))
        wait_for(browser, lambda d: d.execute_script("return location.hash") == "#step=41")
        press(browser, Keys.ARROW_LEFT)
        press(browser, Keys.ARROW_LEFT)
        wait_for(browser, at_step(39))
        # ...but not while typing in a field.
        browser.execute_script(
            "var i = document.createElement('input'); i.id = 'typing';"
            "document.querySelector('main').prepend(i); i.focus();"
        )
        by_css(browser, "#typing").send_keys(Keys.ARROW_LEFT, "a", Keys.ARROW_RIGHT, Keys.END)
        assert here(browser)[0] == 39 and by_css(browser, "#typing").get_attribute("value")
        browser.execute_script("document.getElementById('typing').remove()")

        # The move list: a click goes to its step.
        click(browser, by_css(browser, '#replay-moves button[data-step="10"]'))
        wait_for(browser, at_step(10))

        # Jumps: the chosen seat's next turn, the next round.
        Select(by_css(browser, "#replay-jump-seat")).select_by_value("1")
        click(browser, by_css(browser, '[data-jump="turn-next"]'))
        wait_for(browser, lambda d: (position(d) or (-1, 0))[0] > 10)
        assert by_css(browser, "#replay-decision .sentence").text.startswith(names[1])
        before = here(browser)[0]
        click(browser, by_css(browser, '[data-jump="round-next"]'))
        wait_for(browser, lambda d: (position(d) or (-1, 0))[0] > before)
        assert "Round" in by_css(browser, "#replay-decision .sentence").text  # "Round N begins."

        # The end: the result, ranked, with scores and what made them, and names in colour.
        browser.execute_script("document.activeElement.blur()")
        press(browser, Keys.END)
        wait_for(browser, at_step(total))
        result = by_css(browser, "#replay-result")
        assert result.text.startswith("Result: 1st ") and "warehouses" in result.text
        assert {e.text for e in result.find_elements("css selector", ".seat-name")} == set(names)
        assert "Game over." not in by_css(browser, "#replay-decision").text
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width
        screenshot(browser, f"match-page-{width}.png", width=width)
        assert script_errors(browser) == []
    finally:
        browser.set_window_size(1280, 1000)
