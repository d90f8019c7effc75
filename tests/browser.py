"""Browser tests' shared parts: the Chromium driver fixture, the marks every browser module
carries (in CI a skip fails the run: tests/conftest.py), and small waiting and reading helpers.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from django.urls import reverse

from tests.helpers import present

ROOT = Path(__file__).resolve().parents[1]


ARTIFACTS = ROOT / "test-artifacts"


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


CHROMEDRIVER = shutil.which("chromedriver")


BROWSER_MARKS = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not (CHROMIUM and CHROMEDRIVER),
        reason="no system chromium/chromedriver: run scripts/ensure-services.sh",
    ),
]


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = present(CHROMIUM, "chromium")  # the module is skipped without it
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--window-size=1280,1000",
        "--lang=en-GB",
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    yield driver
    driver.quit()


RERENDERED = "does not belong to the document"
"""Chrome's words when an element was replaced between finding and reading it during a
navigation (a page that reloads itself): the same race as a stale element, sent as a generic
WebDriverException."""


def wait_for(driver, condition, timeout: float = 10):
    """``condition`` true within ``timeout``; an element the page's script re-rendered (or a
    reload replaced) between finding and reading it is found again at the next poll, not a
    failure."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    def polled(d):
        try:
            return condition(d)
        except StaleElementReferenceException:
            return False
        except WebDriverException as exc:
            if RERENDERED in str(exc.msg):
                return False
            raise

    return WebDriverWait(driver, timeout).until(polled)


def by_css(driver, selector):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, selector)


def all_css(driver, selector):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, selector)


def script_errors(driver) -> list[str]:
    """The errors the browser logged for the page open now (since its navigation started).

    The browser's log is one for the whole session, not per page, and it reaches chromedriver
    asynchronously: on a busy machine an entry of an earlier page (an expected 400, a request
    cut short by leaving the page) can arrive after the test moved on, even after the test
    drained the log. Entries are stamped by the browser's clock, as ``performance.timeOrigin``
    (the open page's navigation start) is, so the earlier page's entries are told apart by
    their time, whenever they arrive.
    """
    since = driver.execute_script("return performance.timeOrigin")
    return [
        entry["message"]
        for entry in driver.get_log("browser")
        if entry["level"] == "SEVERE" and entry["timestamp"] >= since
    ]


def screenshot(driver, name: str, width: int = 1280) -> Path:
    """The whole page, by growing the window to the document's height first."""
    ARTIFACTS.mkdir(exist_ok=True)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    driver.set_window_size(width, min(max(height + 120, 600), 6000))
    driver.execute_script("window.scrollTo(0, 0)")
    path = ARTIFACTS / name
    driver.save_screenshot(str(path))
    driver.set_window_size(1280, 1000)
    return path


def log_in(browser, live_server, username: str, password: str) -> None:
    browser.get(live_server.url + reverse("web:login"))
    by_css(browser, "#id_username").send_keys(username)
    by_css(browser, "#id_password").send_keys(password)
    by_css(browser, "main form button[type=submit]").click()
    wait_for(browser, lambda d: d.current_url.endswith(reverse("web:my-bots")))


def assert_above_the_fold(driver) -> None:
    """The step's sentence and the top of the drawn board (150 px of it at least) show on
    the first screen of the page, without scrolling."""
    fold, board_top, sentence_bottom = driver.execute_script(
        "window.scrollTo(0, 0); return [window.innerHeight,"
        " document.querySelector('#replay-drawing svg.board-svg').getBoundingClientRect().top,"
        " document.getElementById('replay-decision').getBoundingClientRect().bottom]"
    )
    assert sentence_bottom < fold and board_top < fold - 150, (sentence_bottom, board_top, fold)


def seat_names(match) -> list[str]:
    return [s.bot_version.label for s in match.seats.order_by("seat")]
