"""The seat pool's bookkeeping (plain processes): bounds, idle time, versions, the manifest.

The sandbox's side of warm seats (separate processes, what crosses a match boundary,
misbehaviour, limits per match) is ``test_warm_seats.py``.
"""

from __future__ import annotations

import json

import pytest

from bots.manifest import UploadRejected, manifest_command, manifest_matches
from tests.workers.programs import BOTS
from workers import seats as seats_module
from workers.launch import BotProgram, LocalLauncher
from workers.matches import job, protocol
from workers.matches.runner import TimeControls, run_match
from workers.seats import POOL_SLOTS, SeatPool, SeatPoolConfig

CLOCK = TimeControls(startup_ms=5_000, move_ms=1_000, bank_ms=2_000, match_budget_ms=5_000)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def recorder(version_id: int, directory=BOTS) -> BotProgram:
    return BotProgram(
        directory, ("python3", "warm_recorder.py"), "rec", many=True, version_id=version_id
    )


def play(pool: SeatPool, *bots: BotProgram) -> None:
    outcome = run_match(
        "packet_row", 1, list(bots), launcher=pool.launcher, seats=pool, time_controls=CLOCK
    )
    assert outcome.forfeits == [None] * len(bots)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def make_pool(clock: Clock, **config) -> SeatPool:
    return SeatPool(LocalLauncher(), SeatPoolConfig(**config), clock=clock)


def test_the_pool_keeps_at_most_max_seats_idle_ending_the_least_recently_used(clock):
    pool = make_pool(clock, max_seats=2)
    try:
        play(pool, recorder(1), recorder(2))
        clock.now += 1
        play(pool, recorder(3), recorder(2))
        assert pool.warm_versions() == {2, 3}
        assert pool.counts.ended == {"evicted": 1}
        assert seats_module.warm_versions() >= {2, 3}
    finally:
        pool.close()
    assert pool.idle_count() == 0 and pool.warm_versions() == set()


def test_idle_seats_end_after_idle_seconds_and_seats_after_max_matches(clock):
    pool = make_pool(clock, max_seats=4, idle_seconds=60, max_matches=2)
    try:
        play(pool, recorder(1), recorder(2))
        clock.now += 61
        pool.sweep()
        assert pool.idle_count() == 0 and pool.counts.ended == {"idle": 2}
        play(pool, recorder(1), recorder(2))
        play(pool, recorder(1), recorder(2))  # each seat's second match: its last
        assert pool.idle_count() == 0 and pool.counts.ended["matches"] == 2
        assert (pool.counts.cold, pool.counts.warm) == (4, 2)
    finally:
        pool.close()


def test_a_version_ended_or_played_from_another_artifact_loses_its_warm_seats(clock, tmp_path):
    pool = make_pool(clock, max_seats=4)
    try:
        play(pool, recorder(1), recorder(2))
        assert pool.end_version(1) == 1
        assert pool.warm_versions() == {2}
        other = tmp_path / "v2-new-artifact"
        other.mkdir()
        (other / "warm_recorder.py").write_bytes((BOTS / "warm_recorder.py").read_bytes())
        play(pool, recorder(2, other), recorder(3))
        assert pool.counts.ended == {"version": 2}
        assert pool.counts.warm == 0
    finally:
        pool.close()


def test_no_warm_seats_when_max_seats_is_zero(clock):
    pool = make_pool(clock, max_seats=0)
    play(pool, recorder(1), recorder(1))
    assert pool.idle_count() == 0 and not pool.keeps(recorder(1))


def test_the_pool_numbers_its_own_seats_above_a_plain_runners(clock):
    assert POOL_SLOTS.start >= 8  # a plain runner's slot is the seat index
    from workers.sandbox import SLOTS_PER_BLOCK

    assert POOL_SLOTS.stop <= SLOTS_PER_BLOCK


class SlotRecorder(LocalLauncher):
    """A plain launcher that notes every seat slot it is asked to start."""

    def __init__(self) -> None:
        super().__init__()
        self.slots: list[int] = []

    def launch(self, program, *, slot, limits):
        self.slots.append(slot)
        return super().launch(program, slot=slot, limits=limits)


def test_two_pools_of_one_process_never_hand_out_the_same_seat_slot(clock):
    # Seat uids are the process's block plus the slot: two pools that both started at the
    # first slot would sweep (kill) each other's warm seats at launch.
    first, second = SlotRecorder(), SlotRecorder()
    pools = [
        SeatPool(first, SeatPoolConfig(max_seats=4), clock=clock),
        SeatPool(second, SeatPoolConfig(max_seats=4), clock=clock),
    ]
    try:
        play(pools[0], recorder(1), recorder(2))
        play(pools[1], recorder(3), recorder(4))
        assert len(first.slots) == len(second.slots) == 2
        assert not set(first.slots) & set(second.slots)
        assert set(first.slots + second.slots) <= set(POOL_SLOTS)
    finally:
        for pool in pools:
            pool.close()
    play(pools[0], recorder(1), recorder(2))  # closed: the slots came back and are taken again
    pools[0].close()
    assert pools[0].idle_count() == 0


def test_settings_come_from_the_environment():
    config = SeatPoolConfig.from_environment(
        {
            "MONSOON_WARM_SEATS": "3",
            "MONSOON_WARM_SEAT_MATCHES": "9",
            "MONSOON_WARM_SEAT_IDLE_SECONDS": "30",
            "MONSOON_WARM_SEAT_MEMORY_MB": "100",
        }
    )
    assert config == SeatPoolConfig(3, 9, 30.0, 100 * 1024 * 1024)


@pytest.mark.parametrize(
    ("manifest", "expected"),
    [({"command": "x"}, "one"), ({"command": "x", "matches": "many"}, "many")],
)
def test_the_manifest_says_how_many_matches_a_process_plays(manifest, expected):
    assert manifest_matches(manifest) == expected


@pytest.mark.parametrize("value", ["Many", "", 2, True, None, ["many"]])
def test_a_bad_matches_value_is_refused_with_the_command(value):
    with pytest.raises(UploadRejected, match='"matches" must be "one" or "many"'):
        manifest_command({"command": ["python3", "main.py"], "matches": value})


def test_the_worker_reads_many_from_the_unpacked_artifacts_manifest(tmp_path):
    many, one, broken = (tmp_path / name for name in ("many", "one", "broken"))
    for folder in (many, one, broken):
        folder.mkdir()
    (many / "monsoon.json").write_text(json.dumps({"command": ["x"], "matches": "many"}))
    (one / "main.py").write_text("")
    (broken / "monsoon.json").write_text("{")
    assert [job.plays_many(folder) for folder in (many, one, broken)] == [True, False, False]


def test_the_end_message_offers_the_next_match_and_only_done_accepts_it():
    end = protocol.end_message(scores=[1], ranking=[1], forfeits=[None], seat=0, next_match=True)
    assert end["next"] is True
    assert "next" not in protocol.end_message(scores=[1], ranking=[1], forfeits=[None], seat=0)
    assert protocol.parse_done(b'{"done": true}')
    assert not protocol.parse_done(b'{"done": true, "x": 1}')
    assert not protocol.parse_done(b'{"ready": true}')
    assert not protocol.parse_done(b"done")


def test_the_demo_uploads_its_reference_bots_as_bots_that_play_many_matches():
    import io
    import zipfile

    from ladder.ladders.demo import _reference_source

    archive = zipfile.ZipFile(io.BytesIO(_reference_source("random")))
    assert json.loads(archive.read("monsoon.json"))["matches"] == "many"
    assert _reference_source("random") == _reference_source(
        "random"
    )  # a re-seed re-uploads nothing


def test_the_process_reports_its_idle_warm_seats_and_their_memory(clock):
    pool = make_pool(clock, max_seats=4)
    try:
        play(pool, recorder(1), recorder(2))
        assert seats_module.idle_count() >= 2
    finally:
        pool.close()
    assert pool.idle_count() == 0
