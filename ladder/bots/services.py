"""Writes for bots and bot versions: creation, uploads and the validation status machine.

Version statuses move only forward::

    pending -> validating -> active -> retired
                          -> rejected

Each step is a conditional UPDATE on the current status, so two workers validating the same
version cannot both win, and a retried task finds the work already done.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from engine.registry import UnknownGame, get_game
from ladder.accounts.models import Visitor
from ladder.accounts.selectors import signed_in
from ladder.bots import selectors as bot_selectors
from ladder.bots.artifacts import UploadLimits, UploadRejected, inspect_upload, printable
from ladder.bots.models import Bot, BotVersion
from ladder.bots.selectors import SmokeTable, artifact_bytes, artifact_store_problem, smoke_table
from ladder.bots.source_check import RETRY_AFTER_SECONDS, CheckerUnavailable
from ladder.core.errors import Conflict, NotAllowed, ServiceError, Unavailable
from ladder.core.quotas import hold_quota
from ladder.core.resend import stamp_unsent
from ladder.lifecycle import queue
from ladder.matches import logstore

Status = BotVersion.Status


@dataclass(frozen=True)
class ArtifactToValidate:
    """Everything a validator needs, as plain data (validators know nothing of Django)."""

    version_id: int
    game: str
    kind: str
    command: list[str]
    sha256: str
    data: bytes
    table: SmokeTable | None = None
    """Where the version sits and who it seems to play (None: seat 0 at the smallest table)."""


@dataclass(frozen=True)
class ValidationOutcome:
    """What the smoke match decided, why, and its public game log (None when none was played).

    The log is kept (``BotVersion.smoke_log``) so the bot page can replay the smoke match: the
    owner learns how an accepted version played and where a rejected one forfeited.
    """

    ok: bool
    reason: str = ""
    log: dict[str, Any] | None = None


Validator = Callable[[ArtifactToValidate], ValidationOutcome]


def _check_game(game: str) -> str:
    try:
        return get_game(game).name
    except UnknownGame as exc:
        raise ServiceError(str(exc)) from None


def _check_owner(bot: Bot, user: Visitor) -> None:
    if not (user.is_staff or bot.owner_id == user.pk):
        raise NotAllowed("only the bot's owner may change it")


# Names the site's URLs use next to bot pages (``/bots/new/``): such a bot would have no page.
RESERVED_BOT_NAMES = frozenset({"new"})


def _check_name(name: str) -> None:
    if name.lower() in RESERVED_BOT_NAMES:
        raise ServiceError(f"{name!r} is reserved; choose another name")


def create_bot(
    owner: Visitor, *, name: str, game: str, description: str = "", is_public: bool = True
) -> Bot:
    user = signed_in(owner, to="create a bot")
    game = _check_game(game)
    _check_name(name)
    if Bot.objects.filter(name__iexact=name).exists():
        raise Conflict(f"a bot named {name!r} already exists")
    try:
        with transaction.atomic():
            hold_quota(
                user,
                Bot.objects.filter(owner=user),
                limit=settings.MONSOON_BOTS_PER_HOUR,
                window=timedelta(hours=1),
                what="new bots",
            )
            return Bot.objects.create(
                owner=user, name=name, game=game, description=description, is_public=is_public
            )
    except IntegrityError:
        raise Conflict(f"a bot named {name!r} already exists") from None


def update_bot(
    bot: Bot,
    *,
    user: Visitor,
    name: str | None = None,
    description: str | None = None,
    is_public: bool | None = None,
) -> Bot:
    """Rename, describe or hide a bot.  Its game never changes: versions were built for it.

    A name taken between the check and the save (two renames racing for one name) hits the
    unique index; that is answered like the check's own refusal, never as a server error.
    """
    _check_owner(bot, user)
    if name is not None and name != bot.name:
        _check_name(name)
        if Bot.objects.filter(name__iexact=name).exclude(pk=bot.pk).exists():
            raise Conflict(f"a bot named {name!r} already exists")
        bot.name = name
    if description is not None:
        bot.description = description
    hidden_now = bot.is_public and is_public is False
    if is_public is not None:
        bot.is_public = is_public
    try:
        with transaction.atomic():
            bot.save()
    except IntegrityError:
        raise Conflict(f"a bot named {bot.name!r} already exists") from None
    if hidden_now:
        # Answers cached for everyone (match lists, standings) may hold its name: start anew,
        # now and again once committed (a reader between the two may have cached the old row).
        _new_visibility_generation()
        transaction.on_commit(_new_visibility_generation)
    return bot


def _new_visibility_generation() -> None:
    cache.set(bot_selectors.VISIBILITY_GENERATION_KEY, uuid.uuid4().hex, None)


def upload_limits() -> UploadLimits:
    return UploadLimits(
        max_bytes=settings.MONSOON_UPLOAD_MAX_BYTES,
        max_files=settings.MONSOON_UPLOAD_MAX_FILES,
        max_unpacked_bytes=settings.MONSOON_UPLOAD_MAX_UNPACKED_BYTES,
    )


def read_upload(upload: UploadedFile) -> bytes:
    """The bytes of an uploaded file, refused before they are read when it is over the limit.

    The API and the site both call this, so a file too large is never read into memory and is
    refused with the same words. A file whose declared size lies is read one byte past the
    limit at most, and :func:`upload_version` refuses it.
    """
    limit = upload_limits().max_bytes
    if upload.size is not None and upload.size > limit:
        raise ServiceError(f"the upload is {upload.size} bytes; the limit is {limit} bytes")
    return upload.read(limit + 1)


def _store_once(version: BotVersion, filename: str, data: bytes) -> str | None:
    """Point ``version.artifact`` at the stored file named by the content's sha256, writing it
    only if it is not there yet; returns the name when this call wrote it.

    Identical uploads (a re-upload, the same bot under two names) share one stored file:
    storage kept a new copy with a random suffix each time (16 uploads, 16 copies). A name
    that exists with another size is not this content (a damaged copy): a fresh one is written.
    """
    name = version.artifact.field.generate_filename(version, filename)
    storage = version.artifact.storage
    if storage.exists(name) and storage.size(name) == len(data):
        version.artifact.name = name
        return None
    version.artifact.save(filename, ContentFile(data), save=False)
    return version.artifact.name


def upload_version(bot: Bot, *, user: Visitor, filename: str, data: bytes) -> BotVersion:
    """Check an upload and store it as the bot's next version, ``pending`` validation.

    Nothing is written (no file, no row) unless every check passes.  The artifact is stored
    once under its sha256 (identical uploads share the file), so workers cache it by content.
    A check the host could not run now (a busy machine) is
    :class:`~ladder.core.errors.Unavailable`, never a refusal.
    """
    if bot.owner_id != user.pk:
        raise NotAllowed("only the bot's owner may upload versions of it")
    try:
        info = inspect_upload(filename, data, upload_limits())
    except UploadRejected as exc:
        raise ServiceError(str(exc)) from None
    except CheckerUnavailable as exc:
        raise Unavailable(
            f"the upload could not be checked now ({exc}); nothing was stored or refused: "
            f"upload it again in {RETRY_AFTER_SECONDS} s",
            retry_after=RETRY_AFTER_SECONDS,
        ) from None
    if info.declared_game is not None and info.declared_game != bot.game:
        raise ServiceError(
            f"the manifest says the bot plays {info.declared_game!r} but {bot.name} is a "
            f"{bot.game} bot"
        )
    digest = hashlib.sha256(data).hexdigest()
    extension = {"py": "py", "zip": "zip", "tar.gz": "tar.gz"}[info.kind]
    with transaction.atomic():
        hold_quota(
            bot.owner,
            BotVersion.objects.filter(bot__owner_id=bot.owner_id),
            limit=settings.MONSOON_UPLOADS_PER_HOUR,
            window=timedelta(hours=1),
            what="uploads",
            field="uploaded_at",
        )
        Bot.objects.select_for_update().get(pk=bot.pk)  # serialise version numbers per bot
        number = (bot.versions.aggregate(top=Max("number"))["top"] or 0) + 1
        version = BotVersion(
            bot=bot,
            number=number,
            kind=info.kind,
            sha256=digest,
            size=len(data),
            command=info.command,
            file_count=info.file_count,
            unpacked_size=info.unpacked_size,
        )
        written = _store_once(version, f"{digest}.{extension}", data)
        try:
            version.save()
        except Exception:
            if written:  # a file only this upload wrote; a shared one stays for its versions
                version.artifact.storage.delete(written)
            raise
        queue.validation_after_commit(version.pk)
    return version


def begin_validation(version_id: int) -> bool:
    """pending -> validating; False when another worker took it or it is past that stage."""
    return bool(
        BotVersion.objects.filter(pk=version_id, status=Status.PENDING).update(
            status=Status.VALIDATING, validation_started_at=timezone.now()
        )
    )


@transaction.atomic
def finish_validation(version_id: int, *, outcome: ValidationOutcome) -> BotVersion:
    """validating -> active (retiring the bot's previous active version) or rejected."""
    version = BotVersion.objects.select_for_update().select_related("bot").get(pk=version_id)
    if version.status != Status.VALIDATING:
        raise Conflict(f"{version.label} is {version.status}, not validating")
    version.validated_at = timezone.now()
    if outcome.ok:
        version.status = Status.ACTIVE
        version.failure_reason = ""
        # Only the latest active version plays; an older upload validated late never supersedes
        # a newer active one.
        newer_active = BotVersion.objects.filter(
            bot=version.bot_id, status=Status.ACTIVE, number__gt=version.number
        ).exists()
        if newer_active:
            version.status = Status.RETIRED
        else:
            BotVersion.objects.filter(
                bot=version.bot_id, status=Status.ACTIVE, number__lt=version.number
            ).update(status=Status.RETIRED)
    else:
        version.status = Status.REJECTED
        version.failure_reason = outcome.reason[:4000] or "validation failed"
    fields = ["status", "failure_reason", "validated_at"]
    if outcome.log is not None:
        # Named after the version, so a retried validation overwrites the same object.
        version.smoke_log = logstore.store_smoke(version.pk, outcome.log).name
        fields.append("smoke_log")
    version.save(update_fields=fields)
    return version


def release_validation(version_id: int) -> None:
    """validating -> pending after an infrastructure failure, so the task can be retried."""
    BotVersion.objects.filter(pk=version_id, status=Status.VALIDATING).update(status=Status.PENDING)


class ArtifactStoreMissing(Exception):
    """This host cannot read the artifact store at all: the host's failure, retried elsewhere,
    never counted against the version (workers report it on the fleet: ``storage_problem``)."""


class ArtifactMissing(Exception):
    """The store is there but this version's artifact is not in it (the same on every try)."""


def _version_artifact(version: BotVersion) -> bytes:
    """The stored bytes of ``version``; :class:`ArtifactStoreMissing` or
    :class:`ArtifactMissing` when they cannot be had, saying which."""
    storage = version.artifact.storage
    problem = artifact_store_problem(storage)
    if problem:
        raise ArtifactStoreMissing(problem)
    if not version.artifact.name or not storage.exists(version.artifact.name):
        raise ArtifactMissing(
            f"the uploaded file of this version ({version.artifact.name or 'no name'}) is "
            "missing from storage; upload the bot again"
        )
    return artifact_bytes(version.pk)


# Failures of the machine or the network, whatever the version: a database or broker outage
# repeats the same message too, and must not reject a good version.
OUTAGES: tuple[type[BaseException], ...] = (
    ArtifactStoreMissing,
    DatabaseError,
    ConnectionError,
    TimeoutError,
)


def _is_host_or_outage(exc: BaseException) -> bool:
    """An outage, or an exception the worker layer marks as its host's (``host_failure``:
    e.g. the sandbox is unavailable there)."""
    return isinstance(exc, OUTAGES) or bool(getattr(exc, "host_failure", False))


def _failure_text(exc: BaseException) -> str:
    return printable(str(exc) or type(exc).__name__)[:2000]


def _counted_failure(version_id: int, exc: BaseException) -> bool:
    """Count the failure; True when it is time to reject (a database error here: not yet)."""
    try:
        return _same_failure_again(version_id, _failure_text(exc))
    except DatabaseError:
        return False


def _same_failure_again(version_id: int, error: str) -> bool:
    """Count a failure of validation that was not the bot's; True when it is the
    ``MONSOON_VALIDATION_SAME_FAILURES``-th identical one in a row (time to reject)."""
    with transaction.atomic():
        version = BotVersion.objects.select_for_update().get(pk=version_id)
        if version.validation_error == error:
            version.validation_error_count += 1
        else:
            version.validation_error, version.validation_error_count = error, 1
        version.save(update_fields=["validation_error", "validation_error_count"])
        return version.validation_error_count >= settings.MONSOON_VALIDATION_SAME_FAILURES


def validate_version(version_id: int, *, validator: Validator) -> BotVersion | None:
    """Run the smoke test of a pending version and record the outcome.

    ``validator`` is the sandboxed smoke match (the worker's task passes
    ``workers.matches.validation.validate_artifact``; tests pass a stand-in).  A validator that
    raises is an infrastructure failure: the version goes back to ``pending`` and the exception
    propagates for the task to retry.  Returns
    ``None`` when the version was not pending (already validated or being validated).
    """
    if not begin_validation(version_id):
        return None
    try:
        version = BotVersion.objects.select_related("bot").get(pk=version_id)
        artifact = ArtifactToValidate(
            version_id=version.pk,
            game=version.bot.game,
            kind=version.kind,
            command=list(version.command),
            sha256=version.sha256,
            data=_version_artifact(version),
            table=smoke_table(version),
        )
        if hashlib.sha256(artifact.data).hexdigest() != version.sha256:
            outcome = ValidationOutcome(False, "the stored artifact does not match its sha256")
        else:
            outcome = validator(artifact)
    except Exception as exc:
        # Not the bot's doing, so retried; but a failure that repeats identically (a missing
        # artifact, ...) would repeat forever: after enough of them the version is rejected
        # with the reason, which its owner sees. The host's own failures (no artifact store,
        # no sandbox) and outages (database, network) never count against the version.
        if _is_host_or_outage(exc) or not _counted_failure(version_id, exc):
            release_validation(version_id)
            raise
        error = _failure_text(exc)
        times = settings.MONSOON_VALIDATION_SAME_FAILURES
        outcome = ValidationOutcome(False, f"validation failed {times} times in a row: {error}")
    except BaseException:
        release_validation(version_id)
        raise
    return finish_validation(version_id, outcome=outcome)


def release_stale_validations(*, now: datetime | None = None) -> list[int]:
    """Versions left ``validating`` by a worker that died go back to ``pending``."""
    now = now or timezone.now()
    threshold = now - timedelta(seconds=settings.MONSOON_VALIDATION_LEASE_SECONDS)
    stale = list(
        BotVersion.objects.filter(
            status=Status.VALIDATING, validation_started_at__lt=threshold
        ).values_list("pk", flat=True)
    )
    BotVersion.objects.filter(pk__in=stale, status=Status.VALIDATING).update(status=Status.PENDING)
    return stale


def versions_to_resend(*, now: datetime | None = None) -> list[int]:
    """Pending versions whose validation message may have been lost, stamped as sent now.

    The broker can lose messages (a Redis restart without persistence); the database cannot.
    Validation claims the version conditionally, so a second message is harmless.
    """
    return stamp_unsent(
        BotVersion.objects.filter(status=Status.PENDING),
        sent_field="validation_sent_at",
        since_field="uploaded_at",
        now=now or timezone.now(),
    )
