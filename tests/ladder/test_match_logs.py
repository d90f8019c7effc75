"""Game logs live in object storage as zstd objects; the database keeps only where they are."""

from __future__ import annotations

import gzip
import json

import pytest
import zstandard
from django.core.files.storage import storages
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from ladder.lifecycle import flow
from ladder.matches import logstore, selectors
from ladder.matches import services as match_services
from ladder.matches.models import Match, MatchLog
from tests.factories import engine_result, ladder_for, make_active_version, make_bot


@pytest.fixture
def finished(alice, bob, olivia) -> Match:
    versions = [
        make_active_version(make_bot(owner, name))
        for owner, name in ((alice, "saffron"), (bob, "cinnamon"), (olivia, "cardamom"))
    ]
    match = match_services.create_match(ladder_for(), versions, seed=11)
    assert flow.record_result(match_id=match.pk, result=engine_result(match)).recorded
    return match


def test_the_log_is_a_zstd_object_named_after_its_match(finished):
    row = MatchLog.objects.get(match=finished)
    assert row.name == logstore.object_name(finished.pk) and row.codec == "zstd"
    with storages["match_logs"].open(row.name, "rb") as handle:
        packed = handle.read()
    assert len(packed) == row.stored_size < row.size
    log = json.loads(zstandard.ZstdDecompressor().decompress(packed))
    assert log["seed"] == 11 and log["result"]["scores"] == selectors.scores_of(finished)
    # Nothing of the log itself is in the row: the table has no column left that could hold it.
    columns = {
        c.name
        for c in connection.introspection.get_table_description(
            connection.cursor(), MatchLog._meta.db_table
        )
    }
    assert columns == {"match_id", "name", "codec", "size", "stored_size"}


def test_recording_again_neither_rewrites_nor_duplicates_the_log(finished):
    row = MatchLog.objects.get(match=finished)
    again = flow.record_result(match_id=finished.pk, result=engine_result(finished))
    assert not again.recorded
    assert MatchLog.objects.filter(match=finished).count() == 1
    # A retried write (the task crashed after writing, before committing) overwrites in place.
    stored = logstore.store(finished.pk, {"seed": 11})
    assert stored.name == row.name
    assert storages["match_logs"].listdir(row.name.split("/")[0])[1] == [f"{finished.pk}.json.zst"]


def test_a_lost_object_is_a_clear_error_not_a_crash(finished):
    storages["match_logs"].delete(MatchLog.objects.get(match=finished).name)
    api = Client().get(f"/api/v1/matches/{finished.pk}/log/")
    assert api.status_code == 503 and "cannot be read" in api.json()["detail"]
    page = Client().get(f"/matches/{finished.pk}/")
    assert page.status_code == 200 and b"the stored log is unreadable" in page.content


def test_the_migration_moves_every_database_log_to_storage_and_back(migration_history, alice):
    log = {"seed": 5, "actions": ["pass"], "result": {"scores": [1, 2]}}
    executor = MigrationExecutor(connection)
    executor.migrate([("matches", "0002_match_sent_at")])
    old = executor.loader.project_state([("matches", "0002_match_sent_at")]).apps
    ladder = old.get_model("ladders", "Ladder").objects.get(game="batavia", num_players=3)
    match = old.get_model("matches", "Match").objects.create(
        ladder=ladder, game="batavia", seed=5, status="finished"
    )
    raw = json.dumps(log).encode()
    old.get_model("matches", "MatchLog").objects.create(
        match=match, data=gzip.compress(raw), size=len(raw)
    )

    executor = MigrationExecutor(connection)
    executor.migrate([("matches", "0003_match_logs_in_object_storage")])
    row = MatchLog.objects.get(match_id=match.pk)
    assert json.loads(logstore.read_json(row.name)) == log and row.size == len(raw)

    executor = MigrationExecutor(connection)
    executor.migrate([("matches", "0002_match_sent_at")])
    back = executor.loader.project_state([("matches", "0002_match_sent_at")]).apps
    restored = back.get_model("matches", "MatchLog").objects.get(match_id=match.pk)
    assert json.loads(gzip.decompress(bytes(restored.data))) == log
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
