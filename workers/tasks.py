"""The beat tasks that keep the ladder turning: ids in, state in the database, safe to run twice.

The matchmaker fills the queue, the reaper re-queues matches of dead workers and re-sends ids the
broker may have lost, the ratings are refit and tournaments advance. The tasks that play matches
and smoke-test new versions are in :mod:`workers.matches.tasks`.
"""

from __future__ import annotations

import logging

from workers.celery_app import app

logger = logging.getLogger(__name__)


@app.task(name="monsoon.matchmake", ignore_result=True)
def matchmake() -> int:
    from ladder.ratings.matchmaking import fill_queue

    return len(fill_queue())


@app.task(name="monsoon.refit_ratings", ignore_result=True, soft_time_limit=900, time_limit=960)
def refit_ratings() -> int:
    from ladder.ratings.services import refit_all_ladders

    return len(refit_all_ladders())


@app.task(name="monsoon.tournaments_tick", ignore_result=True)
def tournaments_tick() -> dict[str, list[int]]:
    """Start tournaments that are due and advance those whose round is complete.

    Rounds also advance the moment their last match is recorded (``ladder.lifecycle.flow``
    ``match_over``); this is the clock that starts tournaments and the backstop for a missed call.
    """
    from ladder.tournaments.services import tick

    report = tick()
    return {
        name: list(getattr(report, name))
        for name in ("started", "advanced", "finished", "cancelled")
    }


@app.task(name="monsoon.reap", ignore_result=True)
def reap() -> dict[str, list[int]]:
    """Re-queue the matches of dead workers and send again what the broker may have lost."""
    from ladder.bots.services import release_stale_validations, versions_to_resend
    from ladder.lifecycle import flow, queue
    from ladder.matches.services import matches_to_resend

    report = {
        "expired": flow.reap_expired_leases(),
        "stale_validations": release_stale_validations(),
        "matches_resent": matches_to_resend(),
        "versions_resent": versions_to_resend(),
    }
    for match_id in report["matches_resent"]:
        queue.send(queue.RUN_MATCH, match_id)
    for version_id in report["versions_resent"]:
        queue.send(queue.VALIDATE_VERSION, version_id)
    if any(report.values()):
        logger.info("reaper: %s", report)
    return report


@app.task(name="monsoon.versus_sweep", ignore_result=True)
def versus_sweep() -> list[int]:
    """Count version-test matches whose ``match_over`` call was missed (the backstop)."""
    from ladder.versus.services import sweep

    return sweep()
