"""Sign-up and bot creation are rate limited (429 with Retry-After), on the site and the API."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from rest_framework.throttling import ScopedRateThrottle

from tests.factories import GOOD_BOT, make_bot, zip_bytes
from tests.factories import api_client as client_for

pytestmark = pytest.mark.django_db


def _rates(monkeypatch, **rates):
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {**ScopedRateThrottle.THROTTLE_RATES, **rates}
    )


def test_sign_ups_are_limited_per_address(monkeypatch):
    _rates(monkeypatch, signups="3/hour")
    statuses = []
    for i in range(4):
        response = Client().post(
            "/signup/",
            {
                "username": f"newcomer-{i}",
                "email": f"n{i}@example.org",
                "password1": "a-long-password-1",
                "password2": "a-long-password-1",
            },
        )
        statuses.append(response.status_code)
    assert statuses == [302, 302, 302, 429]
    assert int(response["Retry-After"]) > 0
    assert "Too many sign-ups from your address" in response.content.decode()


def test_bot_creation_is_limited_per_user_through_the_api(monkeypatch, alice):
    _rates(monkeypatch, bots="2/hour")
    client = client_for(alice)
    answers = [
        client.post("/api/v1/bots/", {"name": f"spam-{i}", "game": "batavia"}, format="json")
        for i in range(3)
    ]
    assert [a.status_code for a in answers] == [201, 201, 429]
    assert int(answers[-1]["Retry-After"]) > 0


def test_the_site_and_the_api_share_one_bot_budget(monkeypatch, alice):
    _rates(monkeypatch, bots="1/hour")
    assert (
        client_for(alice)
        .post("/api/v1/bots/", {"name": "first", "game": "batavia"}, format="json")
        .status_code
        == 201
    )
    site = Client()
    site.force_login(alice)
    refused = site.post("/bots/new/", {"name": "second", "game": "batavia", "is_public": "on"})
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "Too many new bots in the last hour" in refused.content.decode()


def test_the_exact_bot_budget_answers_429_on_the_site_and_the_api(alice, settings):
    """The row-counted budget (MONSOON_BOTS_PER_HOUR) behind the request throttle."""
    settings.MONSOON_BOTS_PER_HOUR = 1
    api = client_for(alice)
    assert (
        api.post("/api/v1/bots/", {"name": "one", "game": "batavia"}, format="json").status_code
        == 201
    )
    refused = api.post("/api/v1/bots/", {"name": "two", "game": "batavia"}, format="json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "at most 1 new bots an hour" in refused.json()["detail"]
    site = Client()
    site.force_login(alice)
    page = site.post("/bots/new/", {"name": "three", "game": "batavia", "is_public": "on"})
    assert page.status_code == 429 and int(page["Retry-After"]) > 0
    assert "Too many new bots" in page.content.decode()


def _file(data: bytes, name: str = "main.py") -> io.BytesIO:
    upload = io.BytesIO(data)
    upload.name = name
    return upload


BAD_MANIFEST = zip_bytes({"main.py": GOOD_BOT, "monsoon.json": b'{"command": ["python3"'})


def test_a_refused_upload_does_not_use_up_the_upload_rate(monkeypatch, alice):
    """Three bad files, then the two uploads the rate allows: the refusals cost nothing of it."""
    _rates(monkeypatch, uploads="2/hour")
    bot = make_bot(alice, "saffron")
    client = client_for(alice)
    url = f"/api/v1/bots/{bot.pk}/upload/"
    refused = [
        client.post(url, {"artifact": _file(BAD_MANIFEST, "bot.zip")}, format="multipart")
        for _ in range(3)
    ]
    assert [r.status_code for r in refused] == [400, 400, 400]
    assert "monsoon.json" in refused[0].json()["detail"]
    codes = [
        client.post(url, {"artifact": _file(GOOD_BOT)}, format="multipart").status_code
        for _ in range(3)
    ]
    assert codes == [201, 201, 429]
    assert bot.versions.count() == 2


def test_the_site_refunds_a_refused_upload_too(monkeypatch, alice):
    _rates(monkeypatch, uploads="1/hour")
    bot = make_bot(alice, "saffron")
    site = Client()
    site.force_login(alice)
    url = f"/bots/{bot.name}/"
    refused = site.post(url, {"artifact": _file(BAD_MANIFEST, "bot.zip")})
    assert refused.status_code == 400
    assert site.post(url, {"artifact": _file(GOOD_BOT)}).status_code == 302
    again = site.post(url, {"artifact": _file(GOOD_BOT)})
    assert again.status_code == 429 and "Too many uploads" in again.content.decode()


def test_every_attempt_counts_against_the_wider_attempt_budget(monkeypatch, alice):
    """A stream of bad files is still bounded: each one costs the checks that refuse it."""
    _rates(monkeypatch, uploads="5/hour", upload_attempts="3/hour")
    bot = make_bot(alice, "saffron")
    client = client_for(alice)
    url = f"/api/v1/bots/{bot.pk}/upload/"
    codes = [
        client.post(
            url, {"artifact": _file(BAD_MANIFEST, "bot.zip")}, format="multipart"
        ).status_code
        for _ in range(3)
    ]
    assert codes == [400, 400, 400]
    last = client.post(url, {"artifact": _file(GOOD_BOT)}, format="multipart")
    assert last.status_code == 429 and int(last["Retry-After"]) > 0
    assert not bot.versions.exists()
