"""Each language's starter, uploaded through the API, passes validation and plays ranked.

The upload is the kit's documented artifact (``bots.starters.upload_archive``: the manifest
plus the program, a prebuilt binary for compiled languages, as ``tar czf`` makes it).
Validation is the real one (``workers.validation``): the artifact is unpacked into the worker's
cache, executable bits kept, and a smoke match is played in the sandbox.
"""

from __future__ import annotations

import io

import pytest

from bots.starters import LANGUAGES, upload_archive
from ladder.accounts.services import create_user
from ladder.bots.models import BotVersion
from ladder.matches import services as match_services
from ladder.matches.models import Match
from ladder.ratings.models import Rating
from tests.factories import api_client as client_for
from tests.factories import ladder_for
from tests.workers.sandbox_helpers import needs_sandbox
from workers.matches import tasks

# One game per language, so the five uploads between them validate in all four games.
GAME_OF = {
    "python": "batavia",
    "javascript": "east_indiaman",
    "cpp": "borneo",
    "rust": "packet_row",
    "java": "batavia",
}


@pytest.fixture(autouse=True)
def _worker_dirs(settings, tmp_path):
    """Own storage and artifact cache; validation and matches are run by the test itself."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.MONSOON_ARTIFACT_CACHE = tmp_path / "cache"


@pytest.fixture
def alice(db):
    return create_user("alice", password="alice-password-1")


def upload_starter(client, kit_for, language: str, game: str) -> dict:
    """Create a bot and upload the language's starter through the API; the version's JSON."""
    created = client.post("/api/v1/bots/", {"name": f"{language}-{game}", "game": game})
    assert created.status_code == 201, created.content
    artifact = io.BytesIO(upload_archive(kit_for(language), language))
    artifact.name = "mybot.tar.gz"
    uploaded = client.post(
        f"/api/v1/bots/{created.json()['id']}/upload/", {"artifact": artifact}, format="multipart"
    )
    assert uploaded.status_code == 201, uploaded.content
    return uploaded.json()


def validate(client, version: dict) -> dict:
    tasks.validate_bot_version.apply(args=(version["id"],))
    return client.get(f"/api/v1/versions/{version['id']}/").json()


@needs_sandbox
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_uploaded_starter_is_accepted_by_sandboxed_validation(alice, kit_for, language):
    client = client_for(alice)
    version = upload_starter(client, kit_for, language, GAME_OF[language])
    assert version["status"] == "pending"

    checked = validate(client, version)

    assert checked["status"] == "active", checked["failure_reason"]


@needs_sandbox
def test_the_five_languages_play_a_ranked_match_together(alice, kit_for):
    """Packet Row seats five: one ranked match with a starter of every language in it."""
    client = client_for(alice)
    versions = []
    for language in LANGUAGES:
        checked = validate(client, upload_starter(client, kit_for, language, "packet_row"))
        assert checked["status"] == "active", (language, checked["failure_reason"])
        versions.append(checked)

    seated = [BotVersion.objects.get(pk=v["id"]) for v in versions]
    match = match_services.create_match(ladder_for("packet_row", len(seated)), seated, seed=5)

    tasks.run_match.apply(args=(match.pk,))

    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED, match.status_reason
    assert match.rated
    forfeits = {s.bot_version.bot.name: s.forfeit_reason for s in match.seats.all()}
    assert forfeits == {f"{language}-packet_row": "" for language in LANGUAGES}
    assert Rating.objects.filter(games=1).count() == len(LANGUAGES)
