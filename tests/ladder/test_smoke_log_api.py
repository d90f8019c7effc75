"""``GET /api/v1/versions/{id}/smoke-log/``: the validation smoke match's log through the API.

Who may read it is who may watch the site's smoke page (``/bots/<name>/versions/<n>/smoke/``):
everyone for a validated version of a public bot, the owner and staff alone for a private bot's
or a rejected version. Personas from tests/conftest.py: alice owns the bots, bob is the other
user, sam is staff.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import zstandard
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from engine.log import replay
from ladder.accounts.models import User
from ladder.bots import services as bot_services
from ladder.bots.models import BotVersion
from tests.factories import GOOD_BOT, make_bot, smoke_log, validated_with_smoke

GAME = "packet_row"


def url(version: BotVersion) -> str:
    return f"/api/v1/versions/{version.pk}/smoke-log/"


@pytest.fixture
def cases(alice: User) -> dict[str, BotVersion]:
    """One version of each kind the visibility rules tell apart."""
    public = make_bot(alice, "alice-row", GAME)
    hidden = make_bot(alice, "alice-hidden", GAME, public=False)
    return {
        "public": validated_with_smoke(public, seed=3),
        "rejected": validated_with_smoke(public, ok=False, seed=4),
        "private": validated_with_smoke(hidden, seed=5),
    }


def test_the_owner_reads_the_log_and_it_replays(api_clients: dict[str, APIClient], cases) -> None:
    version = cases["public"]
    response = api_clients["owner"].get(url(version))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert f'filename="smoke-version-{version.pk}.json"' in response["Content-Disposition"]
    log = json.loads(response.content)
    assert log == smoke_log(GAME, 3)
    assert replay(log).ranking() == log["result"]["ranking"]


def test_the_version_links_to_its_smoke_log(api_clients: dict[str, APIClient], cases) -> None:
    version = cases["public"]
    body = api_clients["anonymous"].get(f"/api/v1/versions/{version.pk}/").json()
    assert body["smoke_log"] == f"http://testserver{url(version)}"
    listed = api_clients["owner"].get(f"/api/v1/bots/{version.bot_id}/versions/").json()
    assert {v["number"]: v["smoke_log"] is not None for v in listed} == {1: True, 2: True}


def test_a_client_accepting_zstd_gets_the_stored_bytes(
    api_clients: dict[str, APIClient], cases
) -> None:
    response = api_clients["other"].get(url(cases["public"]), HTTP_ACCEPT_ENCODING="zstd")
    assert response.status_code == 200 and response["Content-Encoding"] == "zstd"
    assert json.loads(zstandard.ZstdDecompressor().decompress(response.content)) == smoke_log(
        GAME, 3
    )


@pytest.mark.parametrize(
    ("case", "role", "code"),
    [
        ("public", "owner", 200),
        ("public", "other", 200),
        ("public", "anonymous", 200),
        ("public", "staff", 200),
        ("rejected", "owner", 200),
        ("rejected", "other", 404),
        ("rejected", "anonymous", 404),
        ("rejected", "staff", 200),
        ("private", "owner", 200),
        ("private", "other", 404),
        ("private", "anonymous", 404),
        ("private", "staff", 200),
    ],
)
def test_who_may_read_it_is_who_may_watch_the_smoke_page(
    api_clients: dict[str, APIClient],
    web_clients: dict[str, Client],
    cases,
    case: str,
    role: str,
    code: int,
) -> None:
    version = cases[case]
    answered = api_clients[role].get(url(version))
    assert answered.status_code == code
    if code == 404:  # answered like a missing version: nothing says it exists
        missing = api_clients[role].get(f"/api/v1/versions/{version.pk + 1000}/smoke-log/")
        assert answered.json() == missing.json()
    page = reverse("web:bot-smoke-match", args=[version.bot.name, version.number])
    assert web_clients[role].get(page).status_code == code


def test_a_version_without_a_smoke_log_is_404(alice: User, api_clients, web_clients) -> None:
    bot = make_bot(alice, "alice-old", GAME)
    version = validated_with_smoke(bot, log=False)
    assert version.status == BotVersion.Status.ACTIVE and not version.smoke_log
    response = api_clients["owner"].get(url(version))
    assert response.status_code == 404
    assert response.json()["detail"] == "this version has no stored smoke match"
    assert api_clients["owner"].get(f"/api/v1/versions/{version.pk}/").json()["smoke_log"] is None
    page = reverse("web:bot-smoke-match", args=[bot.name, version.number])
    assert web_clients["owner"].get(page).status_code == 404


def test_a_lost_log_object_is_a_503_with_the_reason(api_clients, cases, tmp_path: Path) -> None:
    version = cases["public"]
    (tmp_path / "match-logs" / version.smoke_log).unlink()
    response = api_clients["owner"].get(url(version))
    assert response.status_code == 503
    assert "cannot be read" in response.json()["detail"]


def test_a_pending_version_has_no_log_yet_and_only_its_owner_is_told_so(
    alice: User, api_clients: dict[str, APIClient]
) -> None:
    bot = make_bot(alice, "alice-new", GAME)
    version = bot_services.upload_version(bot, user=alice, filename="main.py", data=GOOD_BOT)
    assert version.status == BotVersion.Status.PENDING
    owner = api_clients["owner"].get(url(version))
    assert owner.status_code == 404
    assert owner.json()["detail"] == "this version has no stored smoke match"
    other = api_clients["other"].get(url(version))
    assert other.status_code == 404 and other.json()["detail"] != owner.json()["detail"]
