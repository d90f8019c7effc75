"""The smoke match of a new bot version, and the sandboxed validator the worker task runs.

:func:`validate_bot` plays one match at the game's smallest table against the reference random
bot: the version is accepted only if it finishes without a forfeit. :func:`validate_artifact` is
what the ``monsoon.validate_bot_version`` task hands to ``ladder.bots.services.validate_version``:
it unpacks the artifact (plain data from the ladder) into the worker's artifact cache and plays
:func:`validate_bot` in the same sandbox as ladder matches. A forfeit rejects the version with
the reason and the end of the bot's stderr; a host that cannot sandbox raises, which leaves the
version pending for another try.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from engine.registry import get_game
from ladder.bots.services import ArtifactToValidate, ValidationOutcome
from workers.artifact_cache import ArtifactError
from workers.launch import BotProgram, Launcher, Limits
from workers.matches import job
from workers.matches.reference import reference_bot
from workers.matches.runner import DEFAULT_LIMITS, DEFAULT_TIME_CONTROLS, TimeControls, run_match


def validate_bot(
    game: str,
    program: BotProgram,
    *,
    launcher: Launcher,
    seed: int = 0,
    time_controls: TimeControls = DEFAULT_TIME_CONTROLS,
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[bool, str]:
    """A smoke match against random bots at the smallest table; ok only without a forfeit.

    The text is for the bot's owner: what went wrong (with the end of its stderr) or how the
    smoke match went.
    """
    ok, text, _log = smoke_match(
        game, program, launcher=launcher, seed=seed, time_controls=time_controls, limits=limits
    )
    return ok, text


def smoke_match(
    game: str,
    program: BotProgram,
    *,
    launcher: Launcher,
    seed: int = 0,
    time_controls: TimeControls = DEFAULT_TIME_CONTROLS,
    limits: Limits = DEFAULT_LIMITS,
) -> tuple[bool, str, dict[str, Any]]:
    """:func:`validate_bot` plus the match's public game log (no stderr), kept for its replay."""
    spec = get_game(game)
    others = [reference_bot("random")] * (spec.min_players - 1)
    outcome = run_match(
        spec.name,
        seed,
        [program, *others],
        launcher=launcher,
        time_controls=time_controls,
        limits=limits,
        names=[program.name, *(f"random{i}" for i in range(1, spec.min_players))],
    )
    reason = outcome.forfeits[0]
    if reason is not None:
        stderr = outcome.stderr[0].strip()
        tail = f"\nlast stderr:\n{stderr[-2000:]}" if stderr else ""
        return False, f"the smoke match against random bots failed: {reason}{tail}", outcome.log
    asked = sum(1 for d in outcome.log["decisions"] if d["seat"] == 0 and d.get("by") == "bot")
    text = (
        f"played a {spec.min_players}-player {spec.name} smoke match against random bots: "
        f"place {outcome.ranking[0]}, score {outcome.scores[0]}, {asked} decisions"
    )
    return True, text, outcome.log


def validate_artifact(artifact: ArtifactToValidate) -> ValidationOutcome:
    """The sandboxed smoke match of an uploaded version (the worker's validator)."""
    cache = job.worker_cache(str(settings.MONSOON_ARTIFACT_CACHE))
    try:
        directory = cache.directory(artifact.sha256, artifact.kind, lambda: artifact.data)
    except ArtifactError as exc:
        return ValidationOutcome(False, str(exc))
    program = BotProgram(directory, tuple(artifact.command), f"version {artifact.version_id}")
    ok, text, log = smoke_match(
        artifact.game,
        program,
        launcher=job.worker_launcher(settings.MONSOON_SANDBOX),
        seed=artifact.version_id,
        time_controls=TimeControls(wall_factor=settings.MONSOON_DECISION_WALL_FACTOR),
    )
    return ValidationOutcome(ok, "" if ok else text, log=dict(log))
