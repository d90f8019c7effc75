"""Recording results: idempotent, validated, forfeits last, infrastructure failures re-queued."""

from __future__ import annotations

import copy
import hashlib
from datetime import timedelta

import pytest
from django.utils import timezone

from engine.log import replay
from ladder.lifecycle import flow
from ladder.lifecycle.types import InvalidResult, MatchResult
from ladder.matches import selectors
from ladder.matches import services as match_services
from ladder.matches.models import Match, MatchLog
from ladder.ratings.models import Rating, RatingPoint
from tests.factories import engine_json, engine_result, ladder_for, make_active_version, make_bot


@pytest.fixture
def table(alice, bob, olivia):
    versions = [
        make_active_version(make_bot(owner, f"spice-{owner.username}"))
        for owner in (alice, bob, olivia)
    ]
    return match_services.create_match(ladder_for(players=3), versions, seed=42)


def test_recording_twice_changes_nothing_and_says_so(table):
    record = engine_json(table, ["greedy", "random", "random"])
    first = flow.record_result(match_id=table.pk, result=MatchResult.from_json(record))
    table.refresh_from_db()
    snapshot = (table.finished_at, selectors.scores_of(table), selectors.ranking_of(table))
    ratings = list(Rating.objects.order_by("pk").values_list("rating", "games"))
    second = flow.record_result(
        match_id=table.pk, result=MatchResult.from_json(copy.deepcopy(record))
    )
    table.refresh_from_db()
    assert first.recorded and not second.recorded
    assert "already has a result" in second.message
    assert (table.finished_at, selectors.scores_of(table), selectors.ranking_of(table)) == snapshot
    assert list(Rating.objects.order_by("pk").values_list("rating", "games")) == ratings
    assert RatingPoint.objects.count() == 3


def test_recorded_result_keeps_scores_places_log_and_stderr(table):
    record = engine_json(table)
    record["stderr"] = ["", "debug: thinking\n", ""]
    flow.record_result(match_id=table.pk, result=MatchResult.from_json(record))
    table.refresh_from_db()
    assert table.status == Match.Status.FINISHED and table.rated
    seats = list(table.seats.order_by("seat"))
    assert [s.score for s in seats] == record["scores"]
    assert [s.place for s in seats] == record["ranking"]
    assert seats[1].stderr == "debug: thinking\n"
    log = selectors.match_log(table)
    assert log == record["log"]
    replay(log)  # the stored log still reproduces the game


def test_forfeit_is_last_place_for_ratings(table):
    record = engine_json(table)
    best = record["ranking"].index(1)
    record["forfeits"][best] = "illegal_action: 'bid:99'"
    flow.record_result(match_id=table.pk, result=MatchResult.from_json(record))
    seat = table.seats.get(seat=best)
    assert seat.place == 3 and seat.forfeit_reason == "illegal_action: 'bid:99'"
    assert seat.forfeit_code == "illegal_action"
    ratings = {r.bot_version_id: r.rating for r in Rating.objects.all()}
    assert ratings[seat.bot_version_id] == min(ratings.values())


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda r: r.update(scores=[1, 2]), "one entry per seat"),
        (lambda r: r.update(ranking=[1, 2, 7]), "places from 1 to 3"),
        (lambda r: r.update(scores=["a", 1, 2]), "numbers"),
        (lambda r: r.update(forfeits=[None, 3, None]), "reason or None"),
        (lambda r: r.update(log="not a log"), "game log"),
        (lambda r: r.update(forfeits=[None, "bored", None]), "must start with one of"),
    ],
)
def test_malformed_record_is_refused_and_nothing_changes(table, mutate, message):
    record = engine_json(table)
    mutate(record)
    with pytest.raises(InvalidResult, match=message):
        flow.record_result(match_id=table.pk, result=MatchResult.from_json(record))
    table.refresh_from_db()
    assert table.status == Match.Status.QUEUED and not Rating.objects.exists()


def test_cancelled_match_ignores_a_late_result(table):
    assert match_services.cancel_match(table.pk)
    outcome = flow.record_result(match_id=table.pk, result=engine_result(table))
    assert not outcome.recorded and "cancelled" in outcome.message
    assert not Rating.objects.exists()


def test_unranked_match_is_not_rated(alice, bob, olivia):
    versions = [
        make_active_version(make_bot(o, f"mace-{o.username}")) for o in (alice, bob, olivia)
    ]
    match = match_services.create_match(
        ladder_for(players=3), versions, ranked=False, kind=Match.Kind.CHALLENGE
    )
    assert flow.record_result(match_id=match.pk, result=engine_result(match)).recorded
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.rated
    assert not Rating.objects.exists()


def test_only_one_worker_claims_a_match(table):
    assert match_services.claim_match(table.pk, worker="worker-a")
    assert not match_services.claim_match(table.pk, worker="worker-b")
    table.refresh_from_db()
    assert table.worker == "worker-a" and table.status == Match.Status.RUNNING


def test_infrastructure_failure_requeues_then_fails(table, settings):
    settings.MONSOON_MATCH_MAX_ATTEMPTS = 2
    match_services.claim_match(table.pk, worker="worker-a")
    assert flow.record_failure(match_id=table.pk, reason="worker lost") == "queued"
    match_services.claim_match(table.pk, worker="worker-b")
    assert flow.record_failure(match_id=table.pk, reason="worker lost") == "failed"
    table.refresh_from_db()
    assert table.attempts == 2 and table.status_reason == "worker lost"
    assert not flow.record_result(match_id=table.pk, result=engine_result(table)).recorded


def test_expired_lease_is_requeued(table):
    match_services.claim_match(table.pk, worker="worker-a", lease_seconds=1)
    assert flow.reap_expired_leases(now=timezone.now() + timedelta(seconds=5)) == [table.pk]
    table.refresh_from_db()
    assert table.status == Match.Status.QUEUED and table.attempts == 1


def test_rerun_copies_seats_and_seed(table):
    again = match_services.rerun_match(table.pk)
    assert again.pk != table.pk and again.seed == table.seed
    assert list(again.seats.values_list("bot_version_id", flat=True)) == list(
        table.seats.values_list("bot_version_id", flat=True)
    )


def test_the_spec_names_each_seats_artifact_by_content(table):
    from ladder.bots.selectors import artifact_bytes

    spec = flow.spec(match_id=table.pk)
    assert (spec.game, spec.seed, spec.num_players) == ("batavia", 42, 3)
    first = spec.seats[0]
    assert first.name == "spice-alice v1" and first.command == ("python3", "main.py")
    data = artifact_bytes(first.version_id)
    assert hashlib.sha256(data).hexdigest() == first.sha256


def test_refit_all_ladders_and_command(table, capsys):
    from django.core.management import call_command

    from ladder.ratings.services import refit_all_ladders

    flow.record_result(match_id=table.pk, result=engine_result(table))
    fits = refit_all_ladders(samples=3)
    assert [(f.ladder.num_players, f.matches) for f in fits] == [(3, 1)]
    call_command("refit_ratings", samples=3)
    assert "1 matches, 3 versions" in capsys.readouterr().out


def test_a_failing_rating_rolls_the_whole_result_back(table, monkeypatch):
    """Ratings move in the recording transaction: if rating fails, no half-recorded result."""
    from ladder.ratings import services as rating_services

    def broken_rating(*, match, places):
        raise RuntimeError("rating store unavailable")

    monkeypatch.setattr(rating_services, "rate_match", broken_rating)
    with pytest.raises(RuntimeError):
        flow.record_result(match_id=table.pk, result=engine_result(table))
    table.refresh_from_db()
    assert table.status != Match.Status.FINISHED and selectors.scores_of(table) is None
    assert not table.seats.exclude(place=None).exists()
    assert not MatchLog.objects.filter(match=table).exists()
    assert not Rating.objects.exists()


def test_a_recorded_ranked_result_is_rated_and_its_consequences_follow_the_commit(
    table, monkeypatch, django_capture_on_commit_callbacks
):
    over: list[int] = []
    monkeypatch.setattr(flow, "match_over", lambda *, match_id: over.append(match_id))
    with django_capture_on_commit_callbacks(execute=False) as pending:
        flow.record_result(match_id=table.pk, result=engine_result(table))
    assert Rating.objects.filter(games=1).count() == 3
    assert over == []  # tournaments and version tests read the result once it is committed
    for callback in pending:
        callback()
    assert over == [table.pk]
