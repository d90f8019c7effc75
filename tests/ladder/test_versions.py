"""The bot version status machine with an injected validator."""

from __future__ import annotations

import re

import pytest

from ladder.bots import selectors, services
from ladder.bots.models import BotVersion
from ladder.core.errors import ServiceError
from ladder.core.seeded import seeded_random
from tests.factories import GOOD_BOT, accept, make_active_version, make_bot
from tests.helpers import present

Status = BotVersion.Status


def upload(bot, source=GOOD_BOT):
    return services.upload_version(bot, user=bot.owner, filename="main.py", data=source)


def test_upload_is_pending_with_hash_and_size(alice):
    bot = make_bot(alice, "clove")
    version = upload(bot)
    assert (version.number, version.status, version.size) == (1, Status.PENDING, len(GOOD_BOT))
    assert version.sha256 == __import__("hashlib").sha256(GOOD_BOT).hexdigest()
    assert selectors.artifact_bytes(version.pk) == GOOD_BOT
    assert version.command == ["python3", "main.py"]


def test_validation_activates_and_retires_the_previous_version(alice):
    bot = make_bot(alice, "clove")
    first = present(services.validate_version(upload(bot).pk, validator=accept))
    assert first.status == Status.ACTIVE
    second = present(
        services.validate_version(upload(bot, GOOD_BOT + b"# v2\n").pk, validator=accept)
    )
    first.refresh_from_db()
    assert (second.number, second.status, first.status) == (2, Status.ACTIVE, Status.RETIRED)


def test_rejection_keeps_the_reason_and_the_active_version(alice):
    bot = make_bot(alice, "clove")
    first = present(services.validate_version(upload(bot).pk, validator=accept))
    seen = []

    def reject(artifact):
        seen.append(artifact)
        return services.ValidationOutcome(False, "seat 0 forfeited: timeout after 2.0 s")

    second = present(
        services.validate_version(upload(bot, GOOD_BOT + b"# v2\n").pk, validator=reject)
    )
    first.refresh_from_db()
    assert second.status == Status.REJECTED
    assert second.failure_reason == "seat 0 forfeited: timeout after 2.0 s"
    assert first.status == Status.ACTIVE
    assert seen[0].data == GOOD_BOT + b"# v2\n" and seen[0].game == "batavia"


def test_validator_crash_returns_version_to_pending(alice):
    bot = make_bot(alice, "clove")
    version = upload(bot)

    def broken(artifact):
        raise ConnectionError("sandbox host unreachable")

    with pytest.raises(ConnectionError):
        services.validate_version(version.pk, validator=broken)
    version.refresh_from_db()
    assert version.status == Status.PENDING


def test_validating_twice_is_a_no_op(alice):
    bot = make_bot(alice, "clove")
    version = upload(bot)
    services.validate_version(version.pk, validator=accept)
    calls: list[object] = []

    def record_call(artifact: object) -> services.ValidationOutcome:
        calls.append(artifact)
        return services.ValidationOutcome(True, "")

    assert services.validate_version(version.pk, validator=record_call) is None
    assert calls == []


def test_late_validation_of_an_older_upload_does_not_supersede_a_newer_one(alice):
    bot = make_bot(alice, "clove")
    old, new = upload(bot), upload(bot, GOOD_BOT + b"# v2\n")
    services.validate_version(new.pk, validator=accept)
    old = present(services.validate_version(old.pk, validator=accept))
    new.refresh_from_db()
    assert (old.status, new.status) == (Status.RETIRED, Status.ACTIVE)


def test_an_upload_is_sent_to_the_validation_task_after_commit(
    alice, sent, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as pending:
        version = upload(make_bot(alice, "clove"))
    assert sent == []  # nothing reaches the workers before the row is visible to them
    for callback in pending:
        callback()
    assert sent == [("monsoon.validate_bot_version", version.pk)]
    assert present(services.validate_version(version.pk, validator=accept)).status == Status.ACTIVE


def test_only_the_owner_uploads(alice, bob):
    bot = make_bot(alice, "clove")
    with pytest.raises(ServiceError, match="owner"):
        services.upload_version(bot, user=bob, filename="main.py", data=GOOD_BOT)


def smoke_log(game: str = "batavia", seed: int = 7) -> dict:
    """A real game log of the game's smallest table, played by the built-in random policy."""
    from bots.builtin import get_policy
    from engine.match import play_match
    from engine.registry import get_game

    players = get_game(game).min_players
    _state, log = play_match(game, seed, [get_policy("random", game)] * players)
    return log


def test_the_smoke_match_log_is_stored_with_the_outcome(alice):
    from ladder.matches import logstore

    bot = make_bot(alice, "clove")
    log = smoke_log()
    version = present(
        services.validate_version(
            upload(bot).pk, validator=lambda artifact: services.ValidationOutcome(True, log=log)
        )
    )
    assert version.status == Status.ACTIVE
    assert version.smoke_log == logstore.smoke_object_name(version.pk)
    assert BotVersion.objects.get(pk=version.pk).smoke_log == version.smoke_log
    assert __import__("json").loads(logstore.read_json(version.smoke_log)) == log


def test_a_rejected_versions_smoke_log_is_kept_and_a_validation_without_one_stores_nothing(alice):
    bot = make_bot(alice, "clove")
    rejected = present(
        services.validate_version(
            upload(bot).pk,
            validator=lambda artifact: services.ValidationOutcome(
                False, "the smoke match failed: crash", log=smoke_log()
            ),
        )
    )
    assert rejected.status == Status.REJECTED and rejected.smoke_log
    plain = present(
        services.validate_version(upload(bot, GOOD_BOT + b"# v2\n").pk, validator=accept)
    )
    assert plain.smoke_log == ""


RANKED_NAME = re.compile(r"^[a-z0-9_-]+ v[0-9]+$")


def test_the_smoke_table_is_drawn_like_a_ranked_table(alice, bob):
    """Validation was easy to tell from ranked play: always seat 0 at the smallest table,
    opponents named random1...; a bot could behave only while it was validated."""
    from ladder.ladders.models import Ladder

    rivals = [make_active_version(make_bot(bob, f"rival-{i}", "packet_row")) for i in range(3)]
    make_active_version(make_bot(alice, "clove-old", "packet_row"))
    version = upload(make_bot(alice, "clove", "packet_row"))
    ladders = {
        ladder.num_players: ladder.variant
        for ladder in Ladder.objects.filter(game="packet_row", schedule_enabled=True)
    }
    assert len(ladders) >= 2  # else the player count is no draw at all
    seen_counts, seen_seats = set(), set()
    rng = seeded_random(24)  # fixed draws: the test cannot fail by chance
    for _ in range(60):
        table = selectors.smoke_table(version, rng)
        assert len(table.names) in ladders and table.variant == ladders[len(table.names)]
        assert table.names[table.seat] == "clove v1"  # as flow.spec names a ranked seat
        assert all(RANKED_NAME.match(name) for name in table.names), table.names
        assert len(set(table.names)) == len(table.names)
        others = set(table.names) - {"clove v1"}
        assert others <= {f"{v.bot.name} v{v.number}" for v in rivals} | {"clove-old v1"}
        seen_counts.add(len(table.names))
        seen_seats.add(table.seat)
    assert seen_counts == set(ladders) and seen_seats == set(range(max(ladders)))


def test_the_validator_is_handed_the_smoke_table(alice):
    bot = make_bot(alice, "clove", "packet_row")
    handed = []

    def validator(artifact: services.ArtifactToValidate) -> services.ValidationOutcome:
        handed.append(artifact.table)
        return services.ValidationOutcome(True)

    services.validate_version(upload(bot).pk, validator=validator)
    assert handed[0] is not None and handed[0].names[handed[0].seat] == "clove v1"


def _unique_bot_source() -> bytes:
    """Content of this test alone: artifacts are stored once per content, and these tests
    delete or hide the stored file."""
    import uuid

    return GOOD_BOT + f"# {uuid.uuid4()}\n".encode()


def test_a_missing_artifact_is_retried_then_rejected_with_its_reason(alice, settings):
    """It stayed pending forever (26 attempts in 8 minutes) and its owner saw no reason."""
    from tests.factories import api_client as client_for

    settings.MONSOON_VALIDATION_SAME_FAILURES = 3
    bot = make_bot(alice, "clove")
    version = upload(bot, _unique_bot_source())
    version.artifact.storage.delete(version.artifact.name)
    for _ in range(2):
        with pytest.raises(services.ArtifactMissing):
            services.validate_version(version.pk, validator=accept)
        version.refresh_from_db()
        assert version.status == Status.PENDING
    rejected = present(services.validate_version(version.pk, validator=accept))
    assert rejected.status == Status.REJECTED
    assert "missing from storage" in rejected.failure_reason
    assert "3 times" in rejected.failure_reason
    seen = client_for(alice).get(f"/api/v1/bots/{bot.pk}/versions/").json()
    assert "missing from storage" in seen[0]["failure_reason"]


def test_different_failures_in_a_row_keep_the_version_pending(alice, settings):
    settings.MONSOON_VALIDATION_SAME_FAILURES = 2
    version = upload(make_bot(alice, "clove"), _unique_bot_source())
    for n in range(4):

        def flaky(artifact, n=n):
            raise ConnectionError(f"broker hiccup {n}")

        with pytest.raises(ConnectionError):
            services.validate_version(version.pk, validator=flaky)
    version.refresh_from_db()
    assert version.status == Status.PENDING


def test_a_host_without_the_artifact_store_fails_itself_not_the_version(alice, settings, tmp_path):
    from ladder.fleet.models import WorkerNode
    from workers.fleet import _announce

    settings.MONSOON_VALIDATION_SAME_FAILURES = 2
    version = upload(make_bot(alice, "clove"), _unique_bot_source())
    settings.MEDIA_ROOT = str(tmp_path / "not-mounted")  # this host lacks the shared folder
    for _ in range(4):
        with pytest.raises(services.ArtifactStoreMissing, match="does not exist on this host"):
            services.validate_version(version.pk, validator=accept)
    version.refresh_from_db()
    assert version.status == Status.PENDING and version.validation_error_count == 0

    settings.MONSOON_SANDBOX = "none"
    _announce("w1@storeless", 2, ["validation"])
    node = WorkerNode.objects.get(name="w1@storeless")
    assert "does not exist on this host" in node.storage_problem


def test_outages_and_host_failures_never_reject_a_version(alice, settings):
    """A database or network outage, or a host without a sandbox, repeats its message too."""
    from django.db import OperationalError

    from workers.sandbox import SandboxUnavailable

    settings.MONSOON_VALIDATION_SAME_FAILURES = 2
    version = upload(make_bot(alice, "clove"))
    for error in (OperationalError, ConnectionError, SandboxUnavailable):
        for _ in range(3):

            def failing(artifact, error=error):
                raise error("the same message every time")

            with pytest.raises(error):
                services.validate_version(version.pk, validator=failing)
    version.refresh_from_db()
    assert version.status == Status.PENDING and version.validation_error_count == 0
