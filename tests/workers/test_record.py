"""The worker's side of the ladder boundary: the typed spec read from the ladder's JSON, and
the runner's record, which record_result accepts (forfeits last)."""

from __future__ import annotations

import json
import re

import pytest

from engine.log import replay
from ladder.matches import selectors
from ladder.matches import services as match_services
from ladder.matches.models import Match
from tests.factories import ladder_for, make_active_version, make_bot
from tests.workers.programs import FAST, program, random_bot
from workers.matches.records import MatchRecord, MatchSpec, SpecError
from workers.matches.runner import run_match

pytestmark = pytest.mark.usefixtures("isolated_media")


@pytest.fixture
def table(alice, bob, olivia):
    versions = [
        make_active_version(make_bot(owner, f"runner-{owner.username}"))
        for owner in (alice, bob, olivia)
    ]
    return match_services.create_match(ladder_for(players=3), versions, seed=11)


def test_record_result_accepts_the_runners_record_with_a_forfeit(table, launcher):
    outcome = run_match(
        table.game,
        table.seed,
        [random_bot(), program("crash_midgame"), random_bot()],
        variant=table.variant,
        launcher=launcher,
        time_controls=FAST,
    )
    result = match_services.record_result(table.pk, outcome.record().to_json())
    assert result.recorded, result.message
    table.refresh_from_db()
    assert table.status == Match.Status.FINISHED
    seats = list(table.seats.order_by("seat"))
    assert [s.score for s in seats] == outcome.scores
    assert seats[1].place == 3 and seats[1].forfeit_reason.startswith("crash:")
    assert "bug in my bot" in seats[1].stderr
    stored = selectors.match_log(table)
    assert stored == outcome.log and "stderr" not in stored["result"]
    replay(stored)


def test_the_ladders_spec_reads_into_the_typed_spec_and_back(table):
    raw = selectors.match_spec(table.pk)
    spec = MatchSpec.from_json(raw)
    assert spec.match_id == table.pk and spec.game == table.game and spec.seed == table.seed
    assert [seat.seat for seat in spec.seats] == [0, 1, 2]
    assert spec.seats[0].command == ("python3", "main.py")
    assert spec.names == [seat["name"] for seat in raw["seats"]]
    assert spec.to_json() == raw  # nothing is lost on the way in


def test_the_spec_is_read_in_one_query(table, django_assert_num_queries):
    """Each match's spec is read in the worker after the claim: one round trip, not two."""
    with django_assert_num_queries(1):
        raw = selectors.match_spec(table.pk)
    assert [seat["seat"] for seat in raw["seats"]] == [0, 1, 2]
    with pytest.raises(Match.DoesNotExist):
        selectors.match_spec(table.pk + 1000)


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda raw: raw.pop("seed"), "spec has no 'seed'"),
        (lambda raw: raw.update(seed="7"), "spec.seed must be int, not str"),
        (lambda raw: raw.update(seed=True), "spec.seed must be int, not bool"),
        (lambda raw: raw["seats"][1].pop("sha256"), "seats[1] has no 'sha256'"),
        (lambda raw: raw["seats"][0].update(command=[]), "seats[0].command must be a non-empty"),
        (lambda raw: raw["seats"].reverse(), "in seat order"),
        (lambda raw: raw.update(seats=[None]), "seats[0] must be an object"),
    ],
)
def test_a_malformed_spec_is_refused_naming_the_field(table, damage, message):
    raw = selectors.match_spec(table.pk)
    damage(raw)
    with pytest.raises(SpecError, match=re.escape(message)):
        MatchSpec.from_json(raw)


def test_an_illegal_action_forfeit_survives_the_wire_into_the_ladder(table, launcher):
    outcome = run_match(
        table.game,
        table.seed,
        [random_bot(), program("illegal"), random_bot()],
        variant=table.variant,
        launcher=launcher,
        time_controls=FAST,
    )
    record = outcome.record()
    assert (record.forfeits[1] or "").startswith("illegal_action:")
    wire = json.loads(json.dumps(record.to_json()))  # what crosses the network, as JSON
    result = match_services.record_result(table.pk, wire)
    assert result.recorded, result.message
    seat = table.seats.get(seat=1)
    assert seat.forfeit_reason.startswith("illegal_action:") and seat.place == 3
    with pytest.raises(SpecError, match="for every seat"):
        MatchRecord(scores=(1, 2), ranking=(1,), forfeits=(None, None), stderr=("", ""), log={})
