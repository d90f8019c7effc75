"""Warm seats in the real sandbox: a bot that plays many matches keeps its process between them.

``warm_recorder`` reports at every ``start`` which process it is (a token drawn per process),
how many matches that process has played and every message it received in its earlier
matches, so the tests see from the bot's side what crossed from one match to the next.
"""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from engine.registry import get_game
from tests.workers.programs import BOTS
from tests.workers.sandbox_helpers import TEST_LIMITS, TEST_UID_BASE, needs_sandbox
from workers import cgroups
from workers.launch import BotProgram
from workers.matches.runner import MatchOutcome, TimeControls, run_match
from workers.sandbox import BwrapLauncher, kill_uid, processes_of
from workers.seats import SeatPool, SeatPoolConfig

pytestmark = needs_sandbox

GAME = "packet_row"
CLOCK = TimeControls(
    startup_ms=3_000,
    move_ms=1_000,
    bank_ms=2_000,
    max_decisions_per_seat=200,
    match_budget_ms=5_000,
)
"""Start-up and budget small enough that a seat's CPU rlimit (TEST_LIMITS) leaves room for
another match, so the runner offers to keep it."""


def recorder(version_id: int = 7, *, many: bool = True, **env: str) -> BotProgram:
    return BotProgram(
        BOTS, ("python3", "warm_recorder.py"), "recorder", env, many=many, version_id=version_id
    )


@pytest.fixture
def pool():
    seats = SeatPool(BwrapLauncher(uid_base=TEST_UID_BASE), SeatPoolConfig(max_seats=4))
    yield seats
    seats.close()


def play(
    pool: SeatPool, seed: int, bots: list[BotProgram], clock: TimeControls = CLOCK, **kwargs
) -> MatchOutcome:
    return run_match(
        GAME,
        seed,
        bots,
        launcher=pool.launcher,
        seats=pool,
        time_controls=clock,
        limits=TEST_LIMITS,
        **kwargs,
    )


def reported(outcome: MatchOutcome, seat: int, what: str) -> list[str]:
    return re.findall(rf"^{what} (.*)$", outcome.stderr[seat], re.MULTILINE)


def test_a_warm_seat_plays_the_next_match_in_the_same_process_after_a_fresh_start(pool):
    bot = recorder()

    first = play(pool, 1, [bot, bot], names=["a0", "a1"])
    second = play(pool, 2, [bot, bot], names=["b0", "b1"])

    assert first.forfeits == [None, None] and second.forfeits == [None, None]
    assert reported(first, 0, "END") == ["next=True"]
    first_procs = {reported(first, seat, "PROC")[0] for seat in (0, 1)}
    second_procs = {reported(second, seat, "PROC")[0] for seat in (0, 1)}
    assert len(first_procs) == 2  # two seats of one version: two processes
    assert second_procs == first_procs  # ... both kept for the next match
    assert [reported(second, seat, "MATCH") for seat in (0, 1)] == [["2"], ["2"]]
    assert (pool.counts.cold, pool.counts.warm) == (2, 2)
    assert pool.warm_versions() == {7}
    if cgroups.cgroup_tree()[0] is not None:  # idle seats' memory is counted by their cgroups
        assert pool.idle_memory_bytes() > 2 * 1024 * 1024
    # The next match's own start: its seat, its names, its clock.
    for seat in (0, 1):
        history = json.loads(reported(second, seat, "HISTORY")[0])
        assert [m["type"] for m in history][:1] == ["start"]
        assert history[0]["seats"] == ["a0", "a1"]
    assert second.startup_ms[0] is not None


def _observations_by_seat(outcome: MatchOutcome, seed: int) -> dict[int, list[object]]:
    """Replays a match: the observation each seat was sent at each decision it was asked."""
    state = get_game(GAME).new_state(seed, len(outcome.names), outcome.variant)
    seen: dict[int, list[object]] = {seat: [] for seat in range(len(outcome.names))}
    for decision in outcome.log["decisions"]:
        player = decision["seat"]
        if decision.get("by") == "bot":
            seen[player].append(json.loads(json.dumps(state.observation(player))))
        state.apply(_legal(state, decision["action"]))
    return seen


def _legal(state, action):
    wanted = json.dumps(action)
    return next(a for a in state.legal_actions() if json.dumps(a) == wanted)


def test_a_warm_seat_has_received_nothing_but_its_own_seats_messages(pool):
    bot = recorder()
    first = play(pool, 11, [bot, bot])
    second = play(pool, 12, [bot, bot])
    assert second.forfeits == [None, None]

    asked = _observations_by_seat(first, 11)
    carried_from = set()
    for seat in (0, 1):
        history = json.loads(reported(second, seat, "HISTORY")[0])
        kinds = [m["type"] for m in history]
        assert kinds[0] == "start" and kinds[-1] == "end"
        was = history[0]["seat"]
        carried_from.add(was)
        # Every message of its past names its own seat, and its requests carried exactly the
        # observations of that seat, no other's.
        assert {m["seat"] for m in history if "seat" in m} == {was}
        assert [m["observation"] for m in history if m["type"] == "request"] == asked[was]
    assert carried_from == {0, 1}  # one process per earlier seat, none shared


@pytest.mark.parametrize("misbehaviour", ["write", "exit", "grow"])
def test_a_seat_that_misbehaves_between_matches_is_ended_and_the_next_match_starts_cold(
    misbehaviour,
):
    pool = SeatPool(
        BwrapLauncher(uid_base=TEST_UID_BASE),
        SeatPoolConfig(max_seats=4, max_idle_memory_bytes=64 * 1024 * 1024),
    )
    try:
        bad, good = recorder(MISBEHAVE=misbehaviour), recorder(version_id=8)
        first = play(pool, 3, [bad, good])
        second = play(pool, 4, [bad, good])
    finally:
        pool.close()

    assert first.forfeits == [None, None]
    assert second.forfeits == [None, None]  # the misbehaviour costs the next match nothing
    assert reported(second, 0, "PROC") != reported(first, 0, "PROC")
    assert reported(second, 0, "MATCH") == ["1"]  # a fresh process
    assert reported(second, 1, "PROC") == reported(first, 1, "PROC")  # the other stays warm
    assert sum(pool.counts.ended.values()) >= 1


def test_the_thinking_budget_and_the_cpu_charge_are_per_match(pool):
    # 2 x 350 ms of CPU in each match against a 1 s budget: two matches' worth would forfeit.
    clock = dataclasses.replace(CLOCK, match_budget_ms=1_000, wall_factor=10)
    thinker = recorder(THINK_MS="350", THINK_DECISIONS="2")
    first = play(pool, 5, [thinker, recorder(version_id=8)], clock)
    second = play(pool, 6, [thinker, recorder(version_id=8)], clock)

    assert first.forfeits == [None, None]
    assert second.forfeits == [None, None]
    assert reported(second, 0, "MATCH") == ["2"]
    assert reported(second, 0, "BUDGET") == ["1000.0"]  # the full budget again
    first_cpu, second_cpu = first.seat_usage[0][1], second.seat_usage[0][1]
    if first_cpu is not None and second_cpu is not None:
        assert 0.7 <= second_cpu < 1.4  # this match's CPU, not both matches' (>= 1.4)


@pytest.mark.skipif(
    not isinstance(cgroups.cgroup_tree()[0], cgroups.V1Tree),
    reason="a seat's peak memory is reset per match on cgroup v1 only (docs/sandbox.md)",
)
def test_a_warm_seats_peak_memory_is_its_matchs(pool):
    hog = recorder(HOG_MB="120")
    first = play(pool, 13, [hog, recorder(version_id=8)])
    second = play(pool, 14, [hog, recorder(version_id=8)])
    assert reported(second, 0, "MATCH") == ["2"]
    first_peak, second_peak = first.seat_usage[0][0], second.seat_usage[0][0]
    assert first_peak is not None and first_peak > 120 * 1024 * 1024
    assert second_peak is not None and second_peak < 60 * 1024 * 1024


def test_a_bot_that_plays_one_match_a_process_is_ended_after_it(pool):
    bot = recorder(many=False)
    first = play(pool, 7, [bot, bot])
    second = play(pool, 8, [bot, bot])

    assert reported(first, 0, "END") == ["next=False"]
    assert reported(second, 0, "MATCH") == ["1"]
    assert (pool.counts.cold, pool.counts.warm) == (4, 0)
    assert pool.idle_count() == 0


def test_a_forfeited_seat_is_not_kept(pool):
    clock = dataclasses.replace(CLOCK, move_ms=50, bank_ms=0, wall_factor=10)
    slow = recorder(THINK_MS="400", THINK_DECISIONS="1")
    first = play(pool, 9, [slow, recorder(version_id=8)], clock)
    assert first.forfeits[0] is not None and first.forfeits[0].startswith("timeout")
    assert pool.warm_versions() == {8}


def test_a_frozen_seat_its_pool_never_ended_dies_when_its_uid_is_swept():
    # A warm seat waits frozen; when its pool is gone without ending it (a worker killed, a
    # pool dropped), the next launch on its uid sweeps it. A task frozen by the v1 freezer
    # does not act on SIGKILL: the sweep must thaw it first, or the uid is lost for good.
    abandoned = SeatPool(BwrapLauncher(uid_base=TEST_UID_BASE), SeatPoolConfig(max_seats=4))
    play(abandoned, 21, [recorder(), recorder(version_id=8)])
    uids = [TEST_UID_BASE + seat.slot for seat in abandoned._idle]
    assert len(uids) == 2 and all(processes_of(uid) for uid in uids)
    try:
        assert [kill_uid(uid, survivors=True) for uid in uids] == [[], []]
        assert [processes_of(uid) for uid in uids] == [[], []]
    finally:
        abandoned.close()
