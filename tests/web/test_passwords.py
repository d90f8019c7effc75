"""Password change and reset on the site, as a bot author who forgot theirs would use them.

Personas: dana has an account with an e-mail address; a stranger types addresses at the reset
form. Users are made through the accounts service, as sign-up does.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from ladder.accounts.services import create_user
from tests.factories import web_client
from tests.helpers import search

OLD = "tea-clipper-1869"
NEW = "packet-row-harbour-77"


@pytest.fixture(autouse=True)
def _fresh_throttle_counts():
    cache.clear()  # the reset form is throttled per address through the cache
    yield
    cache.clear()


@pytest.fixture
def dana(db):
    return create_user("dana", password=OLD, email="dana@example.org")


def can_log_in(username: str, password: str) -> bool:
    return Client().login(username=username, password=password)


def test_change_needs_the_old_password_and_keeps_the_session(dana):
    client = web_client(dana)
    wrong = client.post(
        "/me/password/",
        {"old_password": "guess", "new_password1": NEW, "new_password2": NEW},
    )
    assert wrong.status_code == 200
    assert "Your old password was entered incorrectly" in wrong.content.decode()
    assert can_log_in("dana", OLD)

    done = client.post(
        "/me/password/",
        {"old_password": OLD, "new_password1": NEW, "new_password2": NEW},
    )
    assert done.status_code == 302 and done["Location"] == "/me/password/done/"
    assert can_log_in("dana", NEW) and not can_log_in("dana", OLD)
    assert client.get("/me/bots/").status_code == 200  # still logged in here


def test_change_is_for_logged_in_users_only(db):
    response = Client().get("/me/password/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_reset_mails_a_link_that_sets_a_new_password_once(dana):
    client = Client()
    sent = client.post("/password-reset/", {"email": "dana@example.org"})
    assert sent.status_code == 302 and sent["Location"] == "/password-reset/sent/"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["dana@example.org"]
    link = search(r"http://testserver(/password-reset/\S+/)", str(mail.outbox[0].body)).group(1)

    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    set_url = form.redirect_chain[-1][0]
    done = client.post(set_url, {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == "/password-reset/complete/"
    assert can_log_in("dana", NEW) and not can_log_in("dana", OLD)

    again = Client().get(link, follow=True)
    assert "This link no longer works" in again.content.decode()


def test_reset_does_not_tell_who_has_an_account(dana):
    known = Client().post("/password-reset/", {"email": "dana@example.org"})
    unknown = Client().post("/password-reset/", {"email": "nobody@example.org"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]
    assert [m.to for m in mail.outbox] == [["dana@example.org"]]


def test_reset_requests_are_throttled_per_address(dana, monkeypatch):
    rates = {**ScopedRateThrottle.THROTTLE_RATES, "password_resets": "2/hour"}
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", rates)
    client = Client()
    codes = [
        client.post("/password-reset/", {"email": "dana@example.org"}).status_code for _ in range(3)
    ]
    assert codes == [302, 302, 429]
    refused = client.post("/password-reset/", {"email": "dana@example.org"})
    assert "Too many reset requests from your address" in refused.content.decode()
    assert int(refused["Retry-After"]) > 0
    assert len(mail.outbox) == 2  # the refused requests sent nothing


def test_login_page_links_to_the_reset_form(db):
    page = Client().get("/login/").content.decode()
    assert 'href="/password-reset/"' in page
