"""Services with an injected clock: the start, freezing, failures, pause/resume/cancel."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

import pytest

from ladder.core.errors import Conflict, NotAllowed, ServiceError
from ladder.lifecycle import flow
from ladder.matches.models import Match
from ladder.matches.services import claim_match
from ladder.tournaments import selectors
from ladder.tournaments import services as ts
from ladder.tournaments.models import Entrant, Tournament, TournamentMatch
from ladder.tournaments.tournament_settings import TournamentSettings
from tests.factories import make_active_version, make_bot
from tests.helpers import present
from tests.tournaments.play import NOW, START, new_tournament, play_one, play_pending

OPEN = START - timedelta(hours=1)


def entered(olivia, bots, **overrides):
    t = new_tournament(olivia, **overrides)
    for bot in bots:
        ts.register_entrant(t.pk, user=bot.owner, bot_id=bot.pk, now=OPEN)
    return t


def test_nothing_happens_before_the_start_and_everything_at_it(olivia, field):
    t = entered(olivia, field)
    assert ts.tick(now=START - timedelta(microseconds=1)).started == []
    t.refresh_from_db()
    assert t.status == Tournament.Status.SCHEDULED and not t.round_set.exists()
    assert not Match.objects.exists()
    assert ts.tick(now=START).started == [t.pk]
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING and t.started_at == START
    assert t.current_round == 1
    # 7 entrants at 3-player tables: 2 tables and a bye.
    rnd = t.round_set.get()
    assert len(rnd.byes) == 1 and TournamentMatch.objects.filter(round=rnd).count() == 2
    assert Match.objects.filter(status=Match.Status.QUEUED, kind="tournament").count() == 2
    assert ts.tick(now=START).started == []  # idempotent


def test_registration_closes_exactly_at_its_time(olivia, alice, field):
    t = new_tournament(olivia)
    late = make_bot(alice, "late")
    make_active_version(late)
    closes = t.registration_closes_at
    ts.register_entrant(
        t.pk, user=alice, bot_id=field[0].pk, now=closes - timedelta(microseconds=1)
    )
    with pytest.raises(Conflict, match="registration closed"):
        ts.register_entrant(t.pk, user=alice, bot_id=late.pk, now=closes)
    with pytest.raises(Conflict, match="registration opens"):
        ts.register_entrant(t.pk, user=alice, bot_id=late.pk, now=NOW - timedelta(seconds=1))
    # The organiser may still invite until the start, not after.
    ts.register_entrant(t.pk, user=olivia, bot_id=late.pk, now=START - timedelta(microseconds=1))
    assert t.entrants.get(bot=late).invited_by == olivia


def test_versions_freeze_at_the_start_and_inactive_bots_drop(olivia, alice, field):
    t = entered(olivia, field[:4])
    pending_only = make_bot(alice, "no-version")
    ts.register_entrant(t.pk, user=alice, bot_id=pending_only.pk, now=OPEN)
    old = field[0].versions.get()
    ts.tick(now=START)
    newer = make_active_version(field[0])  # uploaded after the start: does not play
    entrant = Entrant.objects.get(tournament=t, bot=field[0])
    assert entrant.version == old and entrant.version != newer
    dropped = Entrant.objects.get(tournament=t, bot=pending_only)
    assert dropped.status == Entrant.Status.DROPPED
    assert dropped.dropped_reason == "no active version at the start"
    seats = {s.bot_version_id for m in Match.objects.all() for s in m.seats.all()}
    assert newer.pk not in seats
    seeds = Entrant.objects.filter(tournament=t, status="playing").values_list("seed", flat=True)
    assert sorted(present(seed) for seed in seeds) == [1, 2, 3, 4]


def test_too_few_entrants_cancel_the_tournament(olivia, field):
    t = entered(olivia, field[:2])
    report = ts.tick(now=START)
    t.refresh_from_db()
    assert report.cancelled == [t.pk] and t.status == Tournament.Status.CANCELLED
    assert "too few entrants: 2" in t.status_reason


def test_unregister_before_the_start_only(olivia, alice, bob, field):
    t = entered(olivia, field[:4])
    with pytest.raises(NotAllowed):
        ts.unregister_entrant(t.pk, user=bob, bot_id=field[0].pk, now=OPEN)  # alice's bot
    ts.unregister_entrant(t.pk, user=alice, bot_id=field[0].pk, now=OPEN)
    ts.unregister_entrant(
        t.pk, user=olivia, bot_id=field[1].pk, now=OPEN
    )  # the organiser removes one
    assert t.entrants.count() == 2
    ts.tick(now=START)
    with pytest.raises(Conflict):
        ts.unregister_entrant(t.pk, user=alice, bot_id=field[2].pk, now=START)


def test_only_public_bots_of_the_game_by_their_owners(olivia, alice, bob, field):
    t = new_tournament(olivia)
    with pytest.raises(NotAllowed):
        ts.register_entrant(t.pk, user=bob, bot_id=field[0].pk, now=OPEN)
    private = make_bot(alice, "secret", public=False)
    with pytest.raises(ServiceError, match="private"):
        ts.register_entrant(t.pk, user=alice, bot_id=private.pk, now=OPEN)
    other_game = make_bot(alice, "sailor", game="packet_row")
    with pytest.raises(ServiceError, match="plays packet_row"):
        ts.register_entrant(t.pk, user=alice, bot_id=other_game.pk, now=OPEN)
    ts.register_entrant(t.pk, user=alice, bot_id=field[0].pk, now=OPEN)
    with pytest.raises(Conflict, match="already"):
        ts.register_entrant(t.pk, user=alice, bot_id=field[0].pk, now=OPEN)


def test_failed_matches_are_rerun_then_the_tournament_pauses(
    olivia, field, settings, django_capture_on_commit_callbacks
):
    settings.MONSOON_TOURNAMENT_MATCH_RERUNS = 1
    settings.MONSOON_MATCH_MAX_ATTEMPTS = 1
    t = entered(olivia, field[:3], format="round_robin")
    ts.tick(now=START)
    first = selectors.pending_match_ids(t)[0]
    seed = Match.objects.get(pk=first).seed
    seats = list(Match.objects.get(pk=first).seats.values_list("bot_version", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        assert claim_match(first, worker="w")
        assert flow.record_failure(match_id=first, reason="worker died") == "failed"
    rerun = TournamentMatch.objects.get(tournament=t, superseded=False, attempt=1)
    assert rerun.match_id != first and rerun.match.seed == seed
    assert list(rerun.match.seats.values_list("bot_version", flat=True)) == seats
    with django_capture_on_commit_callbacks(execute=True):
        claim_match(rerun.match_id, worker="w")
        flow.record_failure(match_id=rerun.match_id, reason="worker died again")
    t.refresh_from_db()
    assert (
        t.status == Tournament.Status.PAUSED and "failed on the infrastructure" in t.status_reason
    )
    # Paused: the other queued matches are held back from the workers.
    assert selectors.pending_match_ids(t) == []
    ts.resume_tournament(t.pk, user=olivia, now=START)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
    play_pending(django_capture_on_commit_callbacks, t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert TournamentMatch.objects.filter(tournament=t, superseded=True).count() == 2


def test_bot_failures_are_forfeits_inside_the_result(
    olivia, field, django_capture_on_commit_callbacks
):
    t = entered(olivia, field[:3], format="round_robin")
    ts.tick(now=START)
    play_pending(django_capture_on_commit_callbacks, t, forfeit={"bot-0"})
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    rows = {row["bot_name"]: row for row in t.final_standings}
    assert rows["bot-0"]["forfeits"] == 3 and rows["bot-0"]["points"] == 0
    assert rows["bot-0"]["rank"] == 3


def test_pause_holds_resume_releases_and_tick_catches_up(
    olivia, field, django_capture_on_commit_callbacks
):
    t = entered(olivia, field[:6], format="swiss", rounds=2)
    ts.tick(now=START)
    queued = selectors.pending_match_ids(t)
    play_one(queued[0])  # finished before the pause: kept
    ts.pause_tournament(t.pk, user=olivia, reason="lunch")
    assert Match.objects.get(pk=queued[1]).status == Match.Status.NEW
    assert not claim_match(queued[1], worker="w")  # a worker that still had the id gets nothing
    assert ts.tick(now=START + timedelta(minutes=5)).advanced == []
    ts.resume_tournament(t.pk, user=olivia, now=START)
    assert Match.objects.get(pk=queued[1]).status == Match.Status.QUEUED
    # Results without the hook running: the beat tick advances the round.
    play_one(queued[1])
    report = ts.tick(now=START + timedelta(minutes=6))
    assert report.advanced == [t.pk]
    t.refresh_from_db()
    assert t.current_round == 2


def test_cancel_keeps_played_matches(olivia, field, django_capture_on_commit_callbacks):
    t = entered(olivia, field[:6], format="swiss", rounds=3)
    ts.tick(now=START)
    done, waiting = selectors.pending_match_ids(t)
    play_one(done)
    ts.cancel_tournament(t.pk, user=olivia, reason="venue flooded", now=START)
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED and t.status_reason == "venue flooded"
    assert Match.objects.get(pk=done).status == Match.Status.FINISHED
    assert Match.objects.get(pk=waiting).status == Match.Status.CANCELLED
    assert sum(row["games"] for row in t.final_standings) == 3
    with pytest.raises(Conflict):
        ts.resume_tournament(t.pk, user=olivia)
    with pytest.raises(Conflict):
        ts.cancel_tournament(t.pk, user=olivia)


def test_final_results_are_immutable(olivia, field, django_capture_on_commit_callbacks):
    t = entered(olivia, field[:3], format="round_robin")
    ts.tick(now=START)
    play_pending(django_capture_on_commit_callbacks, t)
    t.refresh_from_db()
    snapshot = t.final_standings
    with pytest.raises(Conflict):
        ts.update_tournament(
            t.pk, user=olivia, settings=replace(TournamentSettings.of(t), name="renamed")
        )
    with pytest.raises(Conflict):
        ts.pause_tournament(t.pk, user=olivia)
    # A late match_over or tick changes nothing.
    ts.match_over(match_id=present(Match.objects.filter(kind="tournament").first()).pk)
    ts.tick(now=START + timedelta(days=3))
    t.refresh_from_db()
    assert t.final_standings == snapshot and t.status == Tournament.Status.FINISHED


def test_only_the_organiser_or_staff_control_it(olivia, alice, sam, field):
    t = entered(olivia, field[:3])
    with pytest.raises(NotAllowed):
        ts.pause_tournament(t.pk, user=alice)
    ts.pause_tournament(t.pk, user=sam)
    ts.resume_tournament(t.pk, user=olivia)
    t.refresh_from_db()
    assert t.status == Tournament.Status.SCHEDULED  # paused before its start, back to waiting


def test_ranked_only_when_the_organiser_says_so(olivia, field):
    entered(olivia, field[:3], format="round_robin", ranked=True)
    ts.tick(now=START)
    assert all(m.ranked for m in Match.objects.filter(kind="tournament"))


@pytest.mark.parametrize(
    "changes,message",
    [
        ({"game": "chess"}, "unknown game"),
        ({"num_players": 9}, "batavia is for 3-5 players"),
        ({"format": "ladder"}, "unknown format"),
        ({"games_per_pairing": 0}, "games_per_pairing must be at least 1"),
        ({"variant": "nope"}, "no variant"),
        (
            {"registration_closes_at": START + timedelta(hours=1)},
            "cannot start before registration",
        ),
        (
            {"starts_at": NOW - timedelta(hours=1), "registration_closes_at": None},
            "must be in the future",
        ),
        ({"format": "elimination", "advance": 3}, "advance must be from 1 to 2"),
        ({"rounds": 0}, "at least 1"),
    ],
)
def test_bad_settings_are_refused_with_a_reason(olivia, changes, message):
    with pytest.raises(ServiceError, match=message):
        new_tournament(olivia, **changes)


def test_only_organisers_create(alice, sam):
    with pytest.raises(NotAllowed, match="only organisers and staff"):
        new_tournament(alice)
    assert new_tournament(sam).organiser == sam


def test_a_field_too_large_for_the_match_budget_cancels_at_the_start(olivia, field, settings):
    t = entered(olivia, field[:6], games_per_pairing=10)
    settings.MONSOON_TOURNAMENT_MAX_MATCHES = 19  # six entrants: 2 tables x 10 games a round
    ts.tick(now=START)
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED
    assert "6 entrants would play" in t.status_reason and "at most 19" in t.status_reason
