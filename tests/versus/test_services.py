"""Version tests through the services, with matches recorded by the real ``record_result``."""

from __future__ import annotations

from datetime import timedelta
from typing import TypedDict, Unpack

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from ladder.core.errors import Conflict, NotAllowed, RateLimited, ServiceError
from ladder.lifecycle import flow
from ladder.matches.models import Match
from ladder.ratings.models import Rating
from ladder.versus import selectors, services
from ladder.versus.models import VersionTest, VersionTestGame
from tests.factories import make_version
from tests.versus.play import bot_with_versions, engine_record, play_pending

pytestmark = pytest.mark.django_db
Status = VersionTest.Status


class StartOptions(TypedDict, total=False):
    players: int
    elo0: float
    elo1: float
    alpha: float
    beta: float
    max_games: int


def start(user, candidate, baseline, **options: Unpack[StartOptions]) -> VersionTest:
    return services.start_test(
        user=user, candidate_id=candidate.pk, baseline_id=baseline.pk, **options
    )


def test_a_test_starts_with_bounded_pairs_of_unranked_matches_on_shared_seeds(alice, settings):
    _, (baseline, candidate) = bot_with_versions(alice)
    test = start(alice, candidate, baseline)
    games = list(VersionTestGame.objects.filter(test=test).select_related("match"))
    assert len(games) == 2 * settings.MONSOON_VERSUS_PAIRS_IN_FLIGHT
    assert test.ladder.num_players == 2  # packet_row's smallest table
    for pair in {g.pair for g in games}:
        first, second = (g for g in games if g.pair == pair)
        assert first.match.seed == second.match.seed
        assert (first.candidate_seat, first.baseline_seat) == (
            second.baseline_seat,
            second.candidate_seat,
        )
    for game in games:
        match = game.match
        assert match.kind == Match.Kind.VERSUS and not match.ranked
        assert match.status == Match.Status.QUEUED
        seats = dict(match.seats.values_list("seat", "bot_version_id"))
        assert seats[game.candidate_seat] == candidate.pk
        assert seats[game.baseline_seat] == baseline.pk


def test_bigger_tables_fill_the_other_seats_with_the_baseline_and_rotate_seats(alice):
    _, (baseline, candidate) = bot_with_versions(alice, game="batavia")
    test = start(alice, candidate, baseline, max_games=40)
    assert test.ladder.num_players == 3  # batavia's smallest table
    match = VersionTestGame.objects.filter(test=test)[0].match
    versions = list(match.seats.order_by("seat").values_list("bot_version_id", flat=True))
    assert sorted(versions) == sorted([candidate.pk, baseline.pk, baseline.pk])
    assert {services._seats(p, 3) for p in range(3)} == {(0, 1), (0, 2), (1, 2)}


def test_strong_candidate_is_accepted_through_real_recording(
    alice, django_capture_on_commit_callbacks
):
    _, (baseline, candidate) = bot_with_versions(alice)
    test = start(alice, candidate, baseline)
    played = play_pending(
        django_capture_on_commit_callbacks, {candidate.pk: "greedy", baseline.pk: "random"}
    )
    test.refresh_from_db()
    assert test.status == Status.ACCEPTED, test.status_reason
    assert test.llr >= selectors.progress(test).upper_bound
    assert test.elo_low is not None and test.elo_low > 0
    # Matches still waiting when it stopped were cancelled, never played.
    assert played <= test.games_counted + 2 * 2
    assert not Match.objects.filter(kind=Match.Kind.VERSUS, status=Match.Status.QUEUED).exists()
    # Unranked: no rating ever moved, no match was rated.
    assert not Rating.objects.exists()
    assert not Match.objects.filter(kind=Match.Kind.VERSUS, rated=True).exists()


def test_weak_candidate_is_rejected(alice, django_capture_on_commit_callbacks):
    _, (baseline, candidate) = bot_with_versions(alice, game="batavia")
    test = start(alice, candidate, baseline)
    play_pending(
        django_capture_on_commit_callbacks, {candidate.pk: "random", baseline.pk: "greedy"}
    )
    test.refresh_from_db()
    assert test.status == Status.REJECTED
    assert test.elo_high is not None and test.elo_high < 0


def test_identical_deterministic_versions_split_every_pair_and_are_rejected(
    alice, django_capture_on_commit_callbacks
):
    # Same policy, same seed, seats swapped: the second game replays the first with the roles
    # exchanged, so every pair scores exactly one game each: the duplicate seeds cancel luck.
    _, (baseline, candidate) = bot_with_versions(alice)
    test = start(alice, candidate, baseline)
    play_pending(
        django_capture_on_commit_callbacks, {candidate.pk: "random", baseline.pk: "random"}
    )
    test.refresh_from_db()
    assert test.status == Status.REJECTED
    assert test.pairs[0] == test.pairs[1] == test.pairs[3] == test.pairs[4] == 0
    assert test.elo == 0.0


def test_equal_noisy_versions_are_not_accepted(alice, django_capture_on_commit_callbacks):
    _, (baseline, candidate) = bot_with_versions(alice)
    test = start(alice, candidate, baseline, max_games=160)
    play_pending(
        django_capture_on_commit_callbacks,
        {candidate.pk: "random", baseline.pk: "random"},
        own_randomness=True,
    )
    test.refresh_from_db()
    assert test.status in (Status.REJECTED, Status.INCONCLUSIVE)
    assert test.elo_low is not None and test.elo_high is not None
    assert test.elo_low < 0 < test.elo_high


def test_a_cap_ends_the_test_inconclusive(alice, django_capture_on_commit_callbacks):
    _, (baseline, candidate) = bot_with_versions(alice)
    test = start(alice, candidate, baseline, max_games=6)
    played = play_pending(
        django_capture_on_commit_callbacks, {candidate.pk: "greedy", baseline.pk: "random"}
    )
    test.refresh_from_db()
    assert test.status == Status.INCONCLUSIVE
    assert played == 6 and test.games_counted == 6


def test_recording_or_announcing_a_match_twice_counts_it_once(
    alice, django_capture_on_commit_callbacks
):
    _, (baseline, candidate) = bot_with_versions(alice)
    test = start(alice, candidate, baseline)
    first, second = VersionTestGame.objects.filter(test=test, pair=0).select_related("match")
    for game in (first, second):
        with django_capture_on_commit_callbacks(execute=True):
            outcome = flow.record_result(
                match_id=game.match_id, result=engine_record(game.match, _random(game.match))
            )
        assert outcome.recorded
    test.refresh_from_db()
    assert sum(test.pairs) == 1
    # The workers report the same result again, and the hook fires again: nothing changes.
    with django_capture_on_commit_callbacks(execute=True):
        again = flow.record_result(
            match_id=first.match_id, result=engine_record(first.match, _random(first.match))
        )
    assert not again.recorded
    services.match_over(match_id=first.match_id)
    services.match_over(match_id=second.match_id)
    test.refresh_from_db()
    assert sum(test.pairs) == 1
    assert VersionTestGame.objects.filter(test=test).count() == 2 * 3  # one pair replaced


def _random(match: Match) -> list:
    from bots.builtin import get_policy

    return [get_policy("random", match.game)] * match.ladder.num_players


def test_a_failed_match_voids_its_pair_and_a_new_pair_replaces_it(
    alice, settings, django_capture_on_commit_callbacks
):
    settings.MONSOON_MATCH_MAX_ATTEMPTS = 1
    _, (baseline, candidate) = bot_with_versions(alice)
    test = start(alice, candidate, baseline)
    first, second = VersionTestGame.objects.filter(test=test, pair=0)
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            flow.record_failure(match_id=first.match_id, reason="disk full") == Match.Status.FAILED
        )
    test.refresh_from_db()
    second.refresh_from_db()
    assert test.void_pairs == 1 and sum(test.pairs) == 0
    assert second.void and second.match.status == Match.Status.CANCELLED
    assert (
        VersionTestGame.objects.filter(test=test, counted=False).values("pair").distinct().count()
        == 2
    )


def test_cancel_stops_the_test_and_its_waiting_matches(alice, bob, sam):
    _, (baseline, candidate) = bot_with_versions(alice)
    test = start(alice, candidate, baseline)
    with pytest.raises(services.NotFound):
        services.cancel_test(user=bob, test_id=test.pk)
    cancelled = services.cancel_test(user=alice, test_id=test.pk)
    assert cancelled.status == Status.CANCELLED
    assert (
        not Match.objects.filter(kind=Match.Kind.VERSUS)
        .exclude(status=Match.Status.CANCELLED)
        .exists()
    )
    with pytest.raises(Conflict, match="already cancelled"):
        services.cancel_test(user=sam, test_id=test.pk)


def test_one_running_test_per_user_then_429(alice):
    _, (baseline, candidate) = bot_with_versions(alice)
    first = start(alice, candidate, baseline)
    with pytest.raises(RateLimited, match=f"test {first.pk} is still running") as refused:
        start(alice, candidate, baseline)
    assert refused.value.status_code == 429 and refused.value.retry_after == 60


def test_daily_budget_then_429_with_the_wait(alice, settings):
    settings.MONSOON_VERSUS_PER_DAY = 2
    _, (baseline, candidate) = bot_with_versions(alice)
    for _ in range(2):
        test = start(alice, candidate, baseline)
        services.cancel_test(user=alice, test_id=test.pk)
    # The oldest test of the window was made an hour ago: room again in 23 hours.
    VersionTest.objects.filter(pk=VersionTest.objects.order_by("id")[0].pk).update(
        created_at=timezone.now() - timedelta(hours=1)
    )
    with pytest.raises(RateLimited, match="at most 2 version tests a day") as refused:
        start(alice, candidate, baseline)
    wait = refused.value.retry_after
    assert wait is not None and 23 * 3600 - 60 <= wait <= 23 * 3600


def test_only_your_own_active_versions_of_one_bot(alice, bob):
    _, (baseline, candidate) = bot_with_versions(alice)
    _, (bobs,) = bot_with_versions(bob, name="bobs", count=1)
    _, (other_bot_version,) = bot_with_versions(alice, name="another", count=1)
    with pytest.raises(services.NotFound, match="no such version of yours"):
        start(alice, bobs, baseline)
    with pytest.raises(services.NotFound, match="no such version of yours"):
        start(bob, candidate, baseline)
    with pytest.raises(ServiceError, match="same bot"):
        start(alice, other_bot_version, baseline)
    with pytest.raises(ServiceError, match="different versions"):
        start(alice, candidate, candidate)
    rejected = make_version(candidate.bot, rejected_because="crashed")
    with pytest.raises(Conflict, match="is rejected; only validated"):
        start(alice, rejected, baseline)
    with pytest.raises(NotAllowed):
        services.start_test(
            user=AnonymousUser(), candidate_id=candidate.pk, baseline_id=baseline.pk
        )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"elo0": 10, "elo1": 5}, "greater than elo0"),
        ({"elo1": 5000}, "elo1 must be"),
        ({"alpha": 0.5}, "alpha must be"),
        ({"beta": 0}, "beta must be"),
        ({"max_games": 7}, "even number"),
        ({"max_games": 100_000}, "even number"),
        ({"players": 9}, "for 2-5 players, not 9"),
    ],
)
def test_bad_parameters_get_clear_errors(alice, options, message):
    _, (baseline, candidate) = bot_with_versions(alice)
    with pytest.raises(ServiceError, match=message):
        start(alice, candidate, baseline, **options)
    assert not VersionTest.objects.exists()


def test_visibility_owner_and_staff_only(alice, bob, sam):
    _, (baseline, candidate) = bot_with_versions(alice)
    test = start(alice, candidate, baseline)
    assert selectors.test_for(alice, test.pk) == test
    assert selectors.test_for(sam, test.pk) == test
    assert selectors.test_for(bob, test.pk) is None
    assert not selectors.visible_tests(AnonymousUser()).exists()


def test_sweep_counts_a_match_whose_hook_was_missed(alice):
    _, (baseline, candidate) = bot_with_versions(alice)
    test = start(alice, candidate, baseline)
    first, second = VersionTestGame.objects.filter(test=test, pair=0).select_related("match")
    for game in (first, second):
        # Recorded without running the on-commit hooks: as if the process died right after.
        flow.record_result(
            match_id=game.match_id, result=engine_record(game.match, _random(game.match))
        )
    test.refresh_from_db()
    assert sum(test.pairs) == 0
    assert services.sweep() == sorted([first.match_id, second.match_id])
    test.refresh_from_db()
    assert sum(test.pairs) == 1
    assert services.sweep() == []


def test_admin_lists_tests_for_superusers(alice, versions_admin_client):
    _, (baseline, candidate) = bot_with_versions(alice)
    start(alice, candidate, baseline)
    page = versions_admin_client.get("/admin/versus/versiontest/")
    assert page.status_code == 200
    assert "duel" in page.content.decode()


@pytest.fixture
def versions_admin_client(db):
    from tests.factories import make_user, web_client

    root = make_user("root", staff=True)
    root.is_superuser = True
    root.save(update_fields=["is_superuser"])
    return web_client(root)
