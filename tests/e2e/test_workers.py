"""The ladder on real workers: Celery worker and beat processes, a real Redis, PostgreSQL and
bots in the sandbox, through the API, and the faults a deployment meets.

Personas: alice uploads bots through the REST API; the workers and beat are the operators'.
Every fault test checks the same invariant: each match ends ``finished`` exactly once, its
seats rated once (one rating point per seat, ``games`` equal to the matches played).
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

import pytest

from engine.log import replay
from ladder.accounts.services import create_user
from ladder.bots.models import BotVersion
from ladder.ladders.models import Ladder
from ladder.matches import services as match_services
from ladder.matches.models import Match
from ladder.matches.selectors import match_log
from tests.e2e.stack import (
    REFERENCE,
    Status,
    api_create_bot,
    api_upload,
    assert_recorded_exactly_once,
    finished_count,
    queue_matches,
    steady_versions,
    wait_for,
)
from tests.factories import api_client as client_for
from tests.factories import ladder_for
from tests.workers.sandbox_helpers import needs_sandbox
from workers.cgroups import cgroup_tree
from workers.sandbox import children_of, processes_of

# Serialized rollback: the rows the migrations made (ladders, the organisers group, content
# types) are restored after each test's flush, as the other transactional tests expect.
pytestmark = [
    needs_sandbox,
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
]


def test_upload_validation_matchmaking_results_and_standings(fleet):
    """alice uploads through the API; the beat's matchmaker and the workers do the rest."""
    Ladder.objects.exclude(game="packet_row", num_players=2).update(schedule_enabled=False)
    alice = create_user("alice", password="alice-password-1")
    api = client_for(alice)
    fleet.worker("w1", MONSOON_QUEUE_TARGET="4")  # the worker runs the beat's matchmaker
    fleet.beat()
    bot_ids = []
    for name, reference in (
        ("pr-random", "random"),
        ("pr-greedy", "greedy"),
        ("pr-random-b", "random"),
    ):
        bot_ids.append(api_create_bot(api, name, "packet_row"))
        source = (REFERENCE / reference / "main.py").read_bytes()
        api_upload(api, bot_ids[-1], source, "main.py")
    crasher_id = api_create_bot(api, "pr-crasher", "packet_row")
    api_upload(api, crasher_id, b"raise SystemExit('I was never going to work')\n", "main.py")

    def versions_settled():
        statuses = dict(BotVersion.objects.values_list("bot__name", "status"))
        return all(s in ("active", "rejected") for s in statuses.values()) and len(statuses) == 4

    wait_for(versions_settled, 90, "validation of the four uploads")
    statuses = dict(BotVersion.objects.values_list("bot__name", "status"))
    assert statuses == {
        "pr-random": "active",
        "pr-greedy": "active",
        "pr-random-b": "active",
        "pr-crasher": "rejected",
    }
    rejected = api.get(f"/api/v1/bots/{crasher_id}/versions/").json()
    assert "never going to work" in rejected[0]["failure_reason"]

    wait_for(lambda: finished_count() >= 6, 120, "six ranked matches played by the workers")
    ladder = ladder_for("packet_row", 2)
    standings = api.get(f"/api/v1/ladders/{ladder.pk}/standings/").json()
    rows = standings["results"] if isinstance(standings, dict) else standings
    assert {row["bot_name"] for row in rows} == {"pr-random", "pr-greedy", "pr-random-b"}
    assert sum(row["games"] for row in rows) >= 12

    match = Match.objects.filter(status=Status.FINISHED).first()
    assert match is not None
    assert match.kind == Match.Kind.LADDER and match.ranked
    detail = api.get(f"/api/v1/matches/{match.pk}/").json()
    assert detail["status"] == "finished"
    log = api.get(f"/api/v1/matches/{match.pk}/log/").json()
    assert replay(log).ranking() == log["result"]["ranking"]
    assert not Match.objects.filter(status=Status.FAILED).exists()
    workers = client_for(_staff()).get("/api/v1/workers/").json()
    assert [(w["slots"], w["alive"], w["sandbox"]) for w in workers] == [(2, True, "bwrap")]


def _staff():
    staff = create_user("sam", password="sam-password-1")
    staff.is_staff = True
    staff.save()
    return staff


def test_a_worker_killed_mid_match_loses_nothing_and_counts_nothing_twice(fleet):
    alice = create_user("alice", password="alice-password-1")
    matches = queue_matches(steady_versions(alice), 6)
    fleet.worker("doomed")
    fleet.beat()
    wait_for(
        lambda: Match.objects.filter(status=Status.RUNNING).count() == 2,
        60,
        "two matches running on the doomed worker",
    )
    doomed_pgid = fleet.procs["doomed"].pid
    fleet.kill("doomed")
    interrupted = list(Match.objects.filter(status=Status.RUNNING).values_list("pk", flat=True))
    assert interrupted, "the kill should have interrupted running matches"
    wait_for(
        lambda: not fleet.session_alive(doomed_pgid),
        10,
        "every process of the killed worker (bots included) to be gone",
    )

    fleet.worker("rescuer")
    wait_for(lambda: finished_count() == 6, 120, "all six matches to be played")
    assert_recorded_exactly_once(matches)
    for match_id in interrupted:
        match = Match.objects.get(pk=match_id)
        assert match.attempts == 1 and "lease expired" in match.status_reason
        assert match.worker.startswith("rescuer@")


def _frozen(group: Path) -> bool:
    """Whether seat group ``group`` is frozen (v1 ``freezer.state``, v2 ``cgroup.freeze``)."""
    for control, frozen in (("freezer.state", "FROZEN"), ("cgroup.freeze", "1")):
        with contextlib.suppress(OSError):
            return (group / control).read_text().strip() == frozen
    return False


def _seat_groups(owner: int) -> list[Path]:
    """The seat cgroups (every hierarchy) that worker process ``owner`` made."""
    tree, why = cgroup_tree()
    assert tree is not None, why
    return [group for base in tree.bases for group in base.glob(f"seat-{owner}-*")]


def test_a_pool_process_killed_with_frozen_seats_leaves_nothing_behind(fleet):
    """kill -9 of a pool process while a seat was frozen left its bwrap and bot frozen in their
    cgroup, and its replacement reused their uids at once."""
    alice = create_user("alice", password="alice-password-1")
    matches = queue_matches(steady_versions(alice), 1)
    fleet.worker("w1", concurrency=1)
    fleet.beat()
    main = fleet.procs["w1"].pid

    def frozen_seat() -> tuple[int, list[Path]] | None:
        for pool in children_of(main):
            groups = _seat_groups(pool)
            if any(_frozen(group) for group in groups):
                return pool, groups
        return None

    found = wait_for(frozen_seat, 90, "a seat of the match frozen between its turns")
    assert isinstance(found, tuple)
    pool, groups = found
    uids = {
        int(_status_uid(pid))
        for group in groups
        for pid in (group / "cgroup.procs").read_text().split()
        if _status_uid(pid)
    }
    os.kill(pool, signal.SIGKILL)
    assert uids, "the frozen seats should have had processes"

    def nothing_left() -> bool:
        alive = [uid for uid in uids if processes_of(uid, zombies=True)]
        return not alive and not any(group.exists() for group in groups)

    wait_for(nothing_left, 90, "the dead pool process's seats, groups and uids to be gone")
    wait_for(lambda: finished_count() == 1, 120, "the interrupted match to be played again")
    assert_recorded_exactly_once(matches)
    log = match_log(Match.objects.get(pk=matches[0].pk))
    assert log is not None
    assert replay(log).ranking() == log["result"]["ranking"]


def _status_uid(pid: str) -> str:
    """The real uid of ``pid`` ("" when it is gone)."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("Uid:"):
                return line.split()[1]
    return ""


def test_a_redis_restart_loses_no_queued_match_and_workers_reconnect(fleet, redis_server):
    alice = create_user("alice", password="alice-password-1")
    fleet.worker("w1")
    fleet.beat()
    matches = queue_matches(steady_versions(alice), 8)
    wait_for(lambda: finished_count() >= 1, 60, "the first match to finish")
    waiting = Match.objects.filter(status=Status.QUEUED).count()
    assert waiting > 0, "matches should still be waiting in the broker"
    redis_server.restart(down_seconds=2)  # no persistence: the queued messages are gone

    def all_played() -> bool:
        fleet.supervise()  # a worker that gave up on the broker is restarted, as in production
        return finished_count() == 8

    wait_for(all_played, 150, "all eight matches after the restart")
    assert_recorded_exactly_once(matches)
    assert "Connection to broker lost" in fleet.log("w1")


def test_a_task_delivered_twice_records_one_result(fleet):
    from workers.matches.tasks import run_match

    alice = create_user("alice", password="alice-password-1")
    versions = steady_versions(alice)
    match = match_services.create_match(ladder_for("packet_row", 2), versions, seed=5, queue=False)
    assert match_services.enqueue_match(match.pk)  # sends it once, on commit
    run_match.apply_async(args=(match.pk,))  # and a duplicate delivery
    fleet.worker("w1")
    wait_for(lambda: finished_count() == 1, 60, "the match to finish")
    wait_for(
        lambda: "was not queued; nothing to do" in fleet.log("w1"),
        60,
        "the duplicate delivery to be consumed",
    )
    assert_recorded_exactly_once([match])


def test_a_brief_database_outage_retries_the_match_instead_of_failing_it(fleet, flaky_database):
    alice = create_user("alice", password="alice-password-1")
    matches = queue_matches(steady_versions(alice), 6)
    db_url = fleet.env["DATABASE_URL"].rsplit("@", 1)
    host_db = db_url[1].split("/", 1)
    through_proxy = f"{db_url[0]}@127.0.0.1:{flaky_database.port}/{host_db[1]}"
    # The outage lasts until the worker has met it twice, which takes minutes on a loaded
    # machine. A lease shorter than that runs out while the database is away, and the reaper
    # then rightly counts the match's run as failed (attempts + 1): what this test is not
    # about (a CI run under load failed that way). The lease outlasts any outage here.
    fleet.worker("w1", DATABASE_URL=through_proxy, MONSOON_MATCH_LEASE_SECONDS="900")
    wait_for(lambda: finished_count() >= 1, 60, "the first match to finish")
    flaky_database.go_down()

    def outage_met() -> int:
        """How often the worker found the database away: to record a match or to claim one."""
        log = fleet.log("w1")
        return log.count("the database is unreachable") + log.count("Retry in")

    try:  # down until the worker has needed it, and has tried again while it was still down
        wait_for(outage_met, 60, "the worker to meet the outage")
        met = outage_met()
        wait_for(lambda: outage_met() > met, 60, "the worker to try again during the outage")
    finally:
        flaky_database.come_back()

    wait_for(lambda: finished_count() == 6, 150, "all six matches after the outage")
    assert_recorded_exactly_once(matches)
    assert not Match.objects.filter(attempts__gt=0).exists()
