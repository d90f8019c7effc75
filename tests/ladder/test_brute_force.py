"""Guessing passwords is cut off per (address, user name) pair and, at a wider limit, per
address over many names, on every login form; a locked-out attempt is not counted."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.db.models import F, Sum
from django.test import Client

from ladder.accounts.services import create_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def victim(db, settings):
    settings.MONSOON_LOGIN_FAILURE_LIMIT = 5
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


PATHS = {"api": "/api/v1/auth/token/", "web": "/login/", "admin": "/admin/login/"}
OUTCOMES = {
    "api": {200: "in", 400: "wrong", 429: "locked"},
    "web": {302: "in", 200: "wrong", 429: "locked"},
    "admin": {302: "in", 200: "wrong", 429: "locked"},
}
RIGHT = "the-right-password-1"


@pytest.fixture(params=list(PATHS))
def login(request, victim, settings):
    """One login on the API, the site or the admin: "in", "wrong" or "locked" (429).

    A pair (address, user name) is locked after 5 failures, an address after 12 over any
    names, for 15 minutes."""
    settings.MONSOON_LOGIN_FAILURE_LIMIT = 5
    settings.MONSOON_LOGIN_ADDRESS_FAILURE_LIMIT = 12
    settings.AXES_COOLOFF_TIME = timedelta(minutes=15)
    form = request.param

    def attempt(address: str, username: str, password: str) -> str:
        answer = Client(REMOTE_ADDR=address).post(
            PATHS[form], {"username": username, "password": password}
        )
        return OUTCOMES[form].get(answer.status_code, f"status {answer.status_code}")

    return attempt


@pytest.fixture
def bystander(db):
    """Another account (staff, so the admin login lets her in too)."""
    user = create_user("bystander", password=RIGHT)
    user.is_staff = True
    user.save()
    return user


def test_the_pair_limit_locks_that_pair_only(login, bystander):
    wrong = [login("10.0.0.1", "victim", f"guess-{i}") for i in range(5)]
    assert wrong == ["wrong"] * 4 + ["locked"]
    assert login("10.0.0.1", "victim", RIGHT) == "locked"
    assert login("10.0.0.1", "bystander", RIGHT) == "in"  # the address is not locked
    assert login("10.0.0.2", "victim", RIGHT) == "in"  # nor the account


def test_someone_elses_failures_on_a_name_do_not_lock_its_owner_out(login):
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        wrong = [login(address, "victim", f"guess-{i}") for i in range(5)]
        assert wrong[-1] == "locked"
    assert login("10.0.9.9", "victim", RIGHT) == "in"


def test_guesses_at_many_names_lock_the_address_at_its_own_wider_limit(login):
    wrong = [login("10.1.1.1", f"someone-{i}", "guess") for i in range(11)]
    assert wrong == ["wrong"] * 11  # each name failed once: no pair is near its limit
    # Another user behind that address still gets in, and her login does not wipe the
    # address's count (a guesser with an account of his own could reset it so).
    assert login("10.1.1.1", "victim", RIGHT) == "in"
    assert login("10.1.1.1", "someone-11", "guess") == "locked"  # the 12th failure
    assert login("10.1.1.1", "victim", RIGHT) == "locked"
    assert login("10.1.1.2", "victim", RIGHT) == "in"


def test_a_success_forgets_the_pairs_failures_on_every_form(login):
    # The owner who mistyped four times and then got in starts afresh: four more typos later
    # she is still not locked out.
    assert [login("10.2.2.2", "victim", f"typo-{i}") for i in range(4)] == ["wrong"] * 4
    assert login("10.2.2.2", "victim", RIGHT) == "in"
    assert [login("10.2.2.2", "victim", f"typo-{i}") for i in range(4)] == ["wrong"] * 4
    assert login("10.2.2.2", "victim", RIGHT) == "in"


def age_attempts(minutes: int) -> None:
    """As if ``minutes`` had passed since every failed login recorded so far."""
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=minutes))


def counted_failures() -> int:
    return AccessAttempt.objects.aggregate(total=Sum("failures_since_start"))["total"] or 0


def test_a_refused_attempt_is_not_counted_and_does_not_prolong_the_lockout(login):
    assert [login("10.3.3.3", "victim", f"guess-{i}") for i in range(5)][-1] == "locked"
    age_attempts(10)
    for password in ("guess-again", RIGHT, "guess-once-more"):
        assert login("10.3.3.3", "victim", password) == "locked"
    assert counted_failures() == 5
    age_attempts(6)  # 16 minutes after the lockout, 6 after the refused attempts
    assert login("10.3.3.3", "victim", RIGHT) == "in"


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
