"""Browser test of the organiser's create form on a phone-sized screen (headless Chromium,
the harness of ``test_browser.py``): the browser's zone is offered, the preview renders, the
page never scrolls sideways at 390 px, and the local start time is stored in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime
from urllib.parse import urlsplit

from django.urls import reverse
from django.utils import timezone

from ladder.ladders.services import sync_ladders
from ladder.tournaments.models import Tournament
from tests.browser import BROWSER_MARKS, by_css, screenshot, script_errors, wait_for
from tests.factories import make_user

pytestmark = BROWSER_MARKS

PHONE = 390


def page_width(driver) -> int:
    return int(driver.execute_script("return document.documentElement.scrollWidth"))


def set_value(driver, selector: str, value: str) -> None:
    """datetime-local inputs take typed keys in a locale-dependent order; set them directly."""
    driver.execute_script("arguments[0].value = arguments[1];", by_css(driver, selector), value)


def test_create_a_tournament_on_a_phone(browser, live_server):
    from selenium.webdriver.support.ui import Select

    sync_ladders()  # a transactional test starts from an emptied database
    make_user("olivia", organiser=True)
    browser.delete_all_cookies()
    browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": "Europe/Amsterdam"})
    browser.set_window_size(PHONE, 844)
    try:
        browser.get(live_server.url + reverse("web:login") + "?next=" + reverse("web:tournaments"))
        by_css(browser, "#id_username").send_keys("olivia")
        by_css(browser, "#id_password").send_keys("olivia-password-1")
        by_css(browser, "main form button[type=submit]").click()
        # The login page's own URL ends with "?next=/tournaments/": wait for the path itself.
        wait_for(browser, lambda d: urlsplit(d.current_url).path == reverse("web:tournaments"))
        by_css(browser, f'main a[href="{reverse("web:tournament-new")}"]').click()
        wait_for(browser, lambda d: d.current_url.endswith(reverse("web:tournament-new")))
        # No zone chosen yet: the browser's own is offered.
        zone = Select(by_css(browser, "#id_time_zone"))
        wait_for(browser, lambda d: zone.first_selected_option.get_attribute("value") != "UTC")
        assert zone.first_selected_option.get_attribute("value") == "Europe/Amsterdam"
        assert page_width(browser) <= PHONE, "the empty form scrolls sideways"

        year = timezone.now().year + 1
        by_css(browser, "#id_name").send_keys("Phone Cup")
        Select(by_css(browser, "#id_game")).select_by_value("batavia")
        num = by_css(browser, "#id_num_players")
        num.clear()
        num.send_keys("3")
        Select(by_css(browser, "#id_format")).select_by_value("swiss")
        by_css(browser, "#id_rounds").send_keys("3")
        set_value(browser, "#id_registration_closes_at", f"{year}-01-15T17:00")
        set_value(browser, "#id_starts_at", f"{year}-01-15T18:00")
        entrants = by_css(browser, "#id_preview_entrants")
        entrants.clear()
        entrants.send_keys("7")
        by_css(browser, "button[name=preview]").click()
        total = wait_for(browser, lambda d: by_css(d, "#preview-total")).text
        assert total.startswith("6 matches in 3 rounds for 7 entrants"), total
        assert "Only round 1 is known in advance" in by_css(browser, ".preview-box").text
        assert not Tournament.objects.exists()
        assert page_width(browser) <= PHONE, "the form with its preview scrolls sideways"
        screenshot(browser, "phone-tournament-form.png", width=PHONE)
        browser.set_window_size(PHONE, 844)
        assert page_width(browser) <= PHONE

        by_css(browser, "button[name=save]").click()
        wait_for(browser, lambda d: "/tournaments/new/" not in d.current_url)
        t = Tournament.objects.get()
        assert (t.name, t.format, t.rounds) == ("Phone Cup", "swiss", 3)
        assert t.starts_at == datetime(year, 1, 15, 17, 0, tzinfo=UTC)
        assert f"15 Jan {year} 18:00 Europe/Amsterdam" in by_css(browser, "main").text
        assert page_width(browser) <= PHONE, "the new tournament's page scrolls sideways"
        screenshot(browser, "phone-tournament-created.png", width=PHONE)
        assert script_errors(browser) == []
    finally:
        browser.set_window_size(1280, 1000)
        browser.execute_cdp_cmd("Emulation.setTimezoneOverride", {"timezoneId": ""})
