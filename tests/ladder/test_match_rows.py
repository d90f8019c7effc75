"""Lean match rows: the seats are the one record of a result (docs/scale.md, database size).

The match row no longer repeats its seats' places and scores as JSON; the API shows the same
``ranking`` and ``scores`` as before, read from the seats, and migration 0006 moves the data
both ways.
"""

from __future__ import annotations

import importlib
from types import SimpleNamespace

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.matches import selectors
from ladder.matches import services as match_services
from ladder.matches.models import Match, MatchSeat
from tests.factories import engine_json, ladder_for, make_active_version, make_bot

BEFORE = [("matches", "0005_match_progress")]
AFTER = [("matches", "0006_lean_match_rows")]
LATEST = [("matches", "0007_forfeit_code")]


@pytest.fixture
def versions(alice, bob, olivia):
    return [
        make_active_version(make_bot(owner, name))
        for owner, name in ((alice, "mace"), (bob, "clove"), (olivia, "nutmeg"))
    ]


def test_the_match_row_keeps_no_copy_of_its_seats_results(db):
    columns = {
        c.name
        for c in connection.introspection.get_table_description(
            connection.cursor(), Match._meta.db_table
        )
    }
    assert not columns & {"scores", "ranking"}


def test_the_api_shows_ranking_and_scores_from_the_seats(versions):
    match = match_services.create_match(ladder_for(), versions, seed=3)
    record = engine_json(match)
    record["forfeits"] = [None, "timeout: slow", None]
    waiting = Client().get(f"/api/v1/matches/{match.pk}/").json()
    assert waiting["ranking"] is None and waiting["scores"] is None
    assert flow.record_result(match_id=match.pk, result=MatchResult.from_json(record)).recorded
    places = MatchResult.from_json(record).places
    assert places[1] == 3  # the forfeit ranks last, in the seats and in the ranking alike

    detail = Client().get(f"/api/v1/matches/{match.pk}/").json()
    listed = Client().get("/api/v1/matches/").json()["results"]
    row = next(r for r in listed if r["id"] == match.pk)
    for shown in (detail, row):
        assert shown["ranking"] == places == [s["place"] for s in shown["seats"]]
        assert shown["scores"] == record["scores"]
        assert all(isinstance(s, int) for s in shown["scores"])  # as the workers report them
    assert list(row) == [
        "id",
        "game",
        "variant",
        "seed",
        "kind",
        "ranked",
        "status",
        "created_at",
        "queued_at",
        "started_at",
        "finished_at",
        "ranking",
        "scores",
        "rated",
        "ladder",
        "seats",
    ]


def test_fractional_scores_stay_fractional():
    assert selectors.result_scores([2.5, 1.0, None]) is None
    assert selectors.result_scores([2.5, 1.0, 0.0]) == [2.5, 1, 0]
    assert selectors.result_ranking([1, None]) is None and selectors.result_ranking([]) is None


class _OtherDatabase:
    """A schema editor as the migration sees it, on a database that is not PostgreSQL."""

    connection = SimpleNamespace(vendor="sqlite")


def test_the_migration_moves_results_into_the_seats_and_back(migration_history, alice, bob, olivia):
    versions = three_versions(alice, bob, olivia)
    old_match, old_seat, ladder = migrated_to(BEFORE)

    def match_with(status: str, ranking, scores, seat_places, seat_scores) -> int:
        match = old_match.objects.create(
            ladder=ladder, game="batavia", seed=1, status=status, ranking=ranking, scores=scores
        )
        for seat, version in enumerate(versions):
            old_seat.objects.create(
                match=match,
                seat=seat,
                bot_version_id=version.pk,
                place=seat_places[seat],
                score=seat_scores[seat],
            )
        return match.pk

    whole = match_with("finished", [2, 1, 3], [7, 9, 1.5], [2, 1, 3], [7.0, 9.0, 1.5])
    # Seats without their result (never written so by the services, but the JSON must not be
    # the only copy that the migration drops).
    only_json = match_with("finished", [3, 1, 2], [0, 4, 2], [None, None, None], [None] * 3)
    waiting = match_with("queued", None, None, [None] * 3, [None] * 3)

    executor = MigrationExecutor(connection)
    executor.migrate(LATEST)  # the current models read the seats' later columns too
    for pk, places, scores in (
        (whole, [2, 1, 3], [7, 9, 1.5]),
        (only_json, [3, 1, 2], [0, 4, 2]),
        (waiting, None, None),
    ):
        match = Match.objects.get(pk=pk)
        assert selectors.ranking_of(match) == places and selectors.scores_of(match) == scores
    assert MatchSeat.objects.filter(match_id=only_json, place=None).count() == 0

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    back = executor.loader.project_state(BEFORE).apps.get_model("matches", "Match")
    expected = {
        whole: ([2, 1, 3], [7, 9, 1.5]),
        only_json: ([3, 1, 2], [0, 4, 2]),
        waiting: (None, None),
    }
    assert {m.pk: (m.ranking, m.scores) for m in back.objects.all()} == expected
    # PostgreSQL went back in one statement; other databases (the SQLite demo) row by row.
    back.objects.update(ranking=None, scores=None)
    migration = importlib.import_module("ladder.matches.migrations.0006_lean_match_rows")
    migration.json_from_seats(executor.loader.project_state(BEFORE).apps, _OtherDatabase())
    assert {m.pk: (m.ranking, m.scores) for m in back.objects.all()} == expected
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_the_forfeit_code_migration_reads_each_stored_reason_once(
    migration_history, alice, bob, olivia
):
    versions = three_versions(alice, bob, olivia)
    old_match, old_seat, ladder = migrated_to(AFTER)
    match = old_match.objects.create(ladder=ladder, game="batavia", seed=1, status="finished")
    reasons = ["", "timeout after 2.0 s", "illegal action 'bid:99'"]
    for seat, (version, reason) in enumerate(zip(versions, reasons, strict=True)):
        old_seat.objects.create(
            match=match, seat=seat, bot_version_id=version.pk, place=seat + 1, forfeit_reason=reason
        )
    MigrationExecutor(connection).migrate(LATEST)
    codes = list(MatchSeat.objects.filter(match_id=match.pk).order_by("seat"))
    # A reason that names no runner code (none came from a runner) counts as a crash.
    assert [seat.forfeit_code for seat in codes] == ["", "timeout", "crash"]
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def three_versions(alice, bob, olivia):
    """One active version each of three owners' bots, for a three-seat table."""
    return [
        make_active_version(make_bot(owner, name))
        for owner, name in ((alice, "mace"), (bob, "clove"), (olivia, "nutmeg"))
    ]


def migrated_to(target):
    """The database migrated back to ``target``: its Match and MatchSeat models and the
    three-player Batavia ladder, as they were then."""
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    old = executor.loader.project_state(target).apps
    ladder = old.get_model("ladders", "Ladder").objects.get(game="batavia", num_players=3)
    return old.get_model("matches", "Match"), old.get_model("matches", "MatchSeat"), ladder
