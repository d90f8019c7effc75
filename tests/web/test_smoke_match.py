"""The validation smoke match of a bot version: stored with its outcome, replayed on the site."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from bots.builtin import get_policy
from engine.match import play_match
from engine.registry import get_game
from ladder.accounts.models import User
from ladder.bots import services as bot_services
from ladder.bots.models import Bot, BotVersion
from tests.factories import GOOD_BOT, make_bot, make_user, web_client
from tests.helpers import present

GAME = "packet_row"


@pytest.fixture(autouse=True)
def _log_storage(settings: Settings, tmp_path: Path) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "match_logs": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": tmp_path / "match-logs", "allow_overwrite": True},
        },
    }


def smoke_log(seed: int = 3) -> dict[str, Any]:
    players = get_game(GAME).min_players
    _state, log = play_match(GAME, seed, [get_policy("random", GAME)] * players)
    log["seats"] = ["version 0", *(f"random{i}" for i in range(1, players))]
    return log


def validated(bot: Bot, *, ok: bool, source: bytes = GOOD_BOT) -> BotVersion:
    version = bot_services.upload_version(bot, bot.owner, filename="main.py", data=source)
    outcome = bot_services.ValidationOutcome(
        ok, "" if ok else "the smoke match against random bots failed: crash", log=smoke_log()
    )
    return present(bot_services.validate_version(version.pk, validator=lambda _: outcome))


@pytest.fixture
def owner(db: None) -> User:
    return make_user("alice")


@pytest.fixture
def clients(owner: User) -> dict[str, Client]:
    return {
        "owner": web_client(owner),
        "other": web_client(make_user("bob")),
        "anonymous": web_client(None),
    }


def smoke_url(bot: Bot, version: BotVersion) -> str:
    return reverse("web:bot-smoke-match", args=[bot.name, version.number])


def test_owner_sees_the_link_and_the_smoke_page_replays_it(owner: User, clients) -> None:
    bot = make_bot(owner, "alice-row", GAME)
    version = validated(bot, ok=True)
    page = clients["owner"].get(reverse("web:bot", args=[bot.name])).content.decode()
    record = page.split('id="record"')[1].split("</section>")[0]
    assert f'href="{smoke_url(bot, version)}"' in record and "Watch the smoke match" in record
    response = clients["owner"].get(smoke_url(bot, version))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="replay-data"' in html and '"frames": [' in html and 'id="viewer"' in html
    assert "does not replay" not in html
    assert "alice-row v1" in html and "random1" in html


def test_an_accepted_public_smoke_match_is_public(owner: User, clients) -> None:
    bot = make_bot(owner, "alice-row", GAME)
    version = validated(bot, ok=True)
    assert clients["anonymous"].get(smoke_url(bot, version)).status_code == 200
    assert clients["other"].get(smoke_url(bot, version)).status_code == 200


def test_a_private_bots_smoke_match_is_the_owners_only(owner: User, clients) -> None:
    bot = make_bot(owner, "alice-hidden", GAME, public=False)
    version = validated(bot, ok=True)
    assert clients["owner"].get(smoke_url(bot, version)).status_code == 200
    assert clients["other"].get(smoke_url(bot, version)).status_code == 404
    assert clients["anonymous"].get(smoke_url(bot, version)).status_code == 404


def test_a_rejected_versions_smoke_match_is_the_owners_only(owner: User, clients) -> None:
    bot = make_bot(owner, "alice-row", GAME)
    validated(bot, ok=True)
    rejected = validated(bot, ok=False, source=GOOD_BOT + b"# v2\n")
    assert rejected.status == BotVersion.Status.REJECTED
    url = smoke_url(bot, rejected)
    owner_page = clients["owner"].get(reverse("web:bot", args=[bot.name])).content.decode()
    assert f'href="{url}"' in owner_page
    response = clients["owner"].get(url)
    assert response.status_code == 200
    assert (
        "failed: crash" in response.content.decode()
        and 'id="replay-data"' in response.content.decode()
    )
    other_page = clients["other"].get(reverse("web:bot", args=[bot.name])).content.decode()
    assert f'href="{url}"' not in other_page
    assert clients["other"].get(url).status_code == 404
    assert clients["anonymous"].get(url).status_code == 404


def test_a_version_validated_without_a_log_has_no_smoke_page(owner: User, clients) -> None:
    bot = make_bot(owner, "alice-row", GAME)
    version = bot_services.upload_version(bot, owner, filename="main.py", data=GOOD_BOT)
    bot_services.validate_version(
        version.pk, validator=lambda _: bot_services.ValidationOutcome(True)
    )
    assert clients["owner"].get(smoke_url(bot, version)).status_code == 404
    page = clients["owner"].get(reverse("web:bot", args=[bot.name])).content.decode()
    assert "no replay of its smoke match" in page
