"""The validation smoke match of a bot version: stored with its outcome, replayed on the site."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from ladder.accounts.models import User
from ladder.bots.models import Bot, BotVersion
from tests.factories import make_bot, make_user, validated_with_smoke, web_client
from tests.helpers import use_match_log_folder

GAME = "packet_row"


@pytest.fixture(autouse=True)
def _log_storage(settings: Settings, tmp_path: Path) -> None:
    use_match_log_folder(settings, tmp_path / "match-logs")


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
    version = validated_with_smoke(bot)
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
    version = validated_with_smoke(bot)
    assert clients["anonymous"].get(smoke_url(bot, version)).status_code == 200
    assert clients["other"].get(smoke_url(bot, version)).status_code == 200


def test_a_private_bots_smoke_match_is_the_owners_only(owner: User, clients) -> None:
    bot = make_bot(owner, "alice-hidden", GAME, public=False)
    version = validated_with_smoke(bot)
    assert clients["owner"].get(smoke_url(bot, version)).status_code == 200
    assert clients["other"].get(smoke_url(bot, version)).status_code == 404
    assert clients["anonymous"].get(smoke_url(bot, version)).status_code == 404


def test_a_rejected_versions_smoke_match_is_the_owners_only(owner: User, clients) -> None:
    bot = make_bot(owner, "alice-row", GAME)
    validated_with_smoke(bot)
    rejected = validated_with_smoke(bot, ok=False)
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
    version = validated_with_smoke(bot, log=False)
    assert clients["owner"].get(smoke_url(bot, version)).status_code == 404
    page = clients["owner"].get(reverse("web:bot", args=[bot.name])).content.decode()
    assert "no replay of its smoke match" in page


def test_a_smoke_match_with_the_version_in_a_later_seat_replays_with_the_right_names(
    owner: User, settings: Settings
) -> None:
    """The smoke table is drawn like a ranked one, so the version is not always in seat 0."""
    from ladder.bots import services as bot_services
    from ladder.web.smoke import smoke_replay
    from tests.factories import smoke_log

    bot = make_bot(owner, "alice-row", GAME)
    log = smoke_log(GAME, 5)
    log["seats"] = ["random", "version 0"]
    version = bot_services.upload_version(bot, user=owner, filename="main.py", data=b"print(1)\n")
    rejected = bot_services.validate_version(
        version.pk,
        validator=lambda _: bot_services.ValidationOutcome(
            False, "the smoke match against random bots failed: crash", log=log
        ),
    )
    assert rejected is not None
    replay = smoke_replay(rejected)
    assert replay.error == ""
    assert replay.seats == ["random", "alice-row v1"]
    assert replay.forfeits == [None, "the smoke match against random bots failed: crash"]
