"""The smoke match of a new bot version, and the sandboxed validator the worker task runs.

:func:`validate_bot` plays one match against reference random bots: the version is accepted
only if it finishes without a forfeit. The worker's validator plays it at a table the ladder drew
to look like a ranked one (``ladder.bots.selectors.smoke_table``): seat count, seat, variant and
seat names as in ranked play, and a seed as random as a ranked match's. :func:`validate_artifact` is
what the ``monsoon.validate_bot_version`` task hands to ``ladder.bots.services.validate_version``:
it unpacks the artifact (plain data from the ladder) into the worker's artifact cache and plays
:func:`validate_bot` in the same sandbox as ladder matches. A forfeit rejects the version with
the reason and the end of the bot's stderr; a host that cannot sandbox raises, which leaves the
version pending for another try.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings

from engine.registry import get_game
from ladder.bots.services import ArtifactToValidate, SmokeTable, ValidationOutcome
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
    table: SmokeTable | None = None,
) -> tuple[bool, str, dict[str, Any]]:
    """:func:`validate_bot` plus the match's public game log (no stderr), kept for its replay.

    With a ``table`` (the worker's validator always has one) the version plays at that seat
    under the seat names and variant of a ranked table, so nothing it sees tells it apart from
    ranked play; without one it sits at seat 0 of the smallest table. The log returned names
    the seats as they really were: the version by ``program.name``, the others ``random``.
    """
    spec = get_game(game)
    if table is None:
        names = [program.name, *(f"random{i}" for i in range(1, spec.min_players))]
        table = SmokeTable(seat=0, names=tuple(names))
    me = table.seat
    bots = [reference_bot("random")] * len(table.names)
    bots[me] = program
    outcome = run_match(
        spec.name,
        seed,
        bots,
        variant=table.variant,
        launcher=launcher,
        time_controls=time_controls,
        limits=limits,
        names=table.names,
    )
    log = dict(outcome.log)
    log["seats"] = ["random"] * len(table.names)
    log["seats"][me] = program.name
    reason = outcome.forfeits[me]
    if reason is not None:
        stderr = outcome.stderr[me].strip()
        tail = f"\nlast stderr:\n{stderr[-2000:]}" if stderr else ""
        return False, f"the smoke match against random bots failed: {reason}{tail}", log
    asked = sum(1 for d in log["decisions"] if d["seat"] == me and d.get("by") == "bot")
    text = (
        f"played a {len(table.names)}-player {spec.name} smoke match against random bots "
        f"from seat {me}: place {outcome.ranking[me]}, score {outcome.scores[me]}, "
        f"{asked} decisions"
    )
    return True, text, log


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
        seed=secrets.randbits(31),
        table=artifact.table,
        time_controls=TimeControls(wall_factor=settings.MONSOON_DECISION_WALL_FACTOR),
    )
    return ValidationOutcome(ok, "" if ok else text, log=dict(log))
