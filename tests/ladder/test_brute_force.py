"""Guessing passwords is cut off per address and per account, on every login form."""

from __future__ import annotations

import pytest
from django.test import Client

from ladder.accounts.services import create_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def victim(db, settings):
    settings.AXES_FAILURE_LIMIT = 5
    user = create_user("victim", password="the-right-password-1")
    user.is_staff = True
    user.save()
    return user


def _api(client, password, username="victim"):
    return client.post("/api/v1/auth/token/", {"username": username, "password": password})


def _web(client, password, path="/login/", username="victim"):
    return client.post(path, {"username": username, "password": password})


def test_the_api_token_endpoint_refuses_a_guesser_with_429(victim):
    client = Client()
    # The fifth wrong password reaches the limit: from then on even the right one is refused.
    assert [_api(client, f"guess-{i}").status_code for i in range(5)] == [400] * 4 + [429]
    refused = _api(client, "the-right-password-1")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Too many failed logins" in refused.json()["detail"]


@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
def test_the_web_and_admin_logins_show_a_clear_page(victim, path):
    client = Client()
    for i in range(4):
        assert _web(client, f"guess-{i}", path).status_code == 200  # the form again
    assert _web(client, "guess-4", path).status_code == 429
    refused = _web(client, "the-right-password-1", path)
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many failed logins" in refused.content.decode()


def test_an_account_is_protected_from_many_addresses(victim):
    for i in range(5):
        _api(Client(REMOTE_ADDR=f"10.0.0.{i + 1}"), f"guess-{i}")
    assert _api(Client(REMOTE_ADDR="10.0.9.9"), "the-right-password-1").status_code == 429


def test_an_address_is_cut_off_across_accounts(victim):
    client = Client(REMOTE_ADDR="10.1.1.1")
    for i in range(5):
        _api(client, "guess", username=f"someone-{i}")
    assert _api(client, "the-right-password-1").status_code == 429
    assert _api(Client(REMOTE_ADDR="10.1.1.2"), "the-right-password-1").status_code == 200


LONG_NAME = "x" * 300  # longer than the login-attempt record's 255-character column


def test_a_very_long_username_is_an_ordinary_failed_login_on_the_api(victim):
    answer = _api(Client(), "guess", username=LONG_NAME)
    assert answer.status_code == 400
    assert "non_field_errors" in answer.json() or "detail" in answer.json()


@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
def test_a_very_long_username_is_an_ordinary_failed_login_on_the_site(victim, path):
    ordinary = _web(Client(), "guess", path, username="nobody")
    answer = _web(Client(), "guess", path, username=LONG_NAME)
    assert answer.status_code == ordinary.status_code == 200  # the form again, with its error
    assert "correct username and password" in ordinary.content.decode()
    assert "correct username and password" in answer.content.decode()


def test_very_long_usernames_still_count_towards_a_lockout(victim):
    client = Client(REMOTE_ADDR="10.2.2.2")
    statuses = [_api(client, f"guess-{i}", username=LONG_NAME).status_code for i in range(5)]
    assert statuses == [400] * 4 + [429]
