"""The sandboxed smoke test of a new bot version (``MONSOON_VERSION_VALIDATOR``).

``ladder.bots.services.validate_version`` hands over the artifact as plain data; this unpacks
it into the worker's artifact cache and plays ``workers.runner.validate_bot``: one match at the
game's smallest table against the reference random bot, in the same sandbox as ladder matches.
A forfeit rejects the version with the reason and the end of the bot's stderr; a host that
cannot sandbox raises, which leaves the version pending for another try.
"""

from __future__ import annotations

from django.conf import settings

from ladder.bots.services import ArtifactToValidate, ValidationOutcome
from workers import match_job
from workers.artifact_cache import ArtifactError
from workers.launch import BotProgram
from workers.runner import validate_bot


def validate_artifact(artifact: ArtifactToValidate) -> ValidationOutcome:
    cache = match_job.worker_cache(str(settings.MONSOON_ARTIFACT_CACHE))
    try:
        directory = cache.directory(artifact.sha256, artifact.kind, lambda: artifact.data)
    except ArtifactError as exc:
        return ValidationOutcome(False, str(exc))
    program = BotProgram(directory, tuple(artifact.command), f"version {artifact.version_id}")
    ok, text = validate_bot(
        artifact.game,
        program,
        launcher=match_job.worker_launcher(settings.MONSOON_SANDBOX),
        seed=artifact.version_id,
    )
    return ValidationOutcome(ok, "" if ok else text)
