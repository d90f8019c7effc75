"""A version test (``/api/v1/version-tests/``) run to its verdict by a real Celery worker.

Persona: alice uploads two versions of one East Indiaman bot through the API (v1 the reference
random bot, v2 the reference greedy one), a worker process validates both, and she asks whether
v2 beats v1. Nothing in this process plays a game: the worker plays each queued pair, and its
``ladder.lifecycle.flow.match_over`` call counts the pair, re-tests and queues the next pairs,
until the SPRT stops. bob, another programmer, and an anonymous visitor must not see the test or
its verdict.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from ladder.accounts.models import User
from ladder.bots.models import BotVersion
from ladder.matches.models import Match
from ladder.ratings.models import Rating
from ladder.versus.models import VersionTest, VersionTestGame
from tests.e2e.stack import Fleet, api_create_bot, api_upload, token_client, wait_for
from tests.factories import api_client, web_client
from tests.workers.sandbox_helpers import needs_sandbox

pytestmark = [
    needs_sandbox,
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
]
REFERENCE = Path(__file__).resolve().parents[2] / "bots" / "reference"
GAME = "east_indiaman"  # two seats; greedy wins nearly every pair (about 106 games at defaults)
URL = "/api/v1/version-tests/"


def upload_reference(api: APIClient, bot_id: int, reference: str) -> int:
    """Upload a reference bot as a new version and wait for the worker to accept it."""
    version = api_upload(api, bot_id, (REFERENCE / reference / "main.py").read_bytes(), "main.py")

    def status() -> str:
        return str(api.get(f"/api/v1/versions/{version['id']}/").json()["status"])

    wait_for(lambda: status() == BotVersion.Status.ACTIVE, 60, f"the worker to accept {reference}")
    return int(version["id"])


def assert_paired_matches_played_by_the_worker(
    test_id: int, *, candidate: int, baseline: int, folded: int
) -> None:
    """Every pair the SPRT counted was two finished matches on one seed with the versions'
    seats swapped, played by the worker; whatever was still in flight at the stop was
    cancelled. A pair can complete after the stop (both legs were already running), so the
    complete pairs are the counted ones plus at most the pairs in flight."""
    legs: dict[int, list[VersionTestGame]] = defaultdict(list)
    for game in VersionTestGame.objects.filter(test_id=test_id).select_related("match"):
        legs[game.pair].append(game)
    complete = {
        pair: games
        for pair, games in legs.items()
        if len(games) == 2 and all(g.match.status == Match.Status.FINISHED for g in games)
    }
    assert folded <= len(complete) <= folded + settings.MONSOON_VERSUS_PAIRS_IN_FLIGHT
    for pair in complete.values():
        first, second = sorted(pair, key=lambda g: g.leg)
        assert (first.leg, second.leg) == (0, 1)
        assert first.match.seed == second.match.seed
        assert (first.candidate_seat, first.baseline_seat) == (
            second.baseline_seat,
            second.candidate_seat,
        )
        for game in pair:
            match = game.match
            assert match.kind == Match.Kind.VERSUS and not match.ranked
            assert match.worker.startswith("w1@")  # played by the worker process
            seats = dict(match.seats.values_list("seat", "bot_version_id"))
            assert seats == {game.candidate_seat: candidate, game.baseline_seat: baseline}
    unfinished = [g.match for games in legs.values() for g in games if g.pair not in complete]
    for match in unfinished:  # the rest of the flight, cancelled when the test stopped
        assert match.status in (Match.Status.CANCELLED, Match.Status.FINISHED), match.pk
        if match.status == Match.Status.CANCELLED:
            assert f"version test {test_id} ended" in match.status_reason
    assert len(unfinished) <= 2 * settings.MONSOON_VERSUS_PAIRS_IN_FLIGHT


def test_a_version_test_is_played_by_the_worker_until_the_sprt_stops(
    fleet: Fleet, alice: User, bob: User
) -> None:
    fleet.worker("w1")
    api = token_client(alice.username)
    bot_id = api_create_bot(api, "duel", GAME)
    baseline = upload_reference(api, bot_id, "random")
    candidate = upload_reference(api, bot_id, "greedy")  # its acceptance retires the baseline

    started = api.post(URL, {"candidate": candidate, "baseline": baseline}, format="json")
    assert started.status_code == 201, started.content
    test_id = started.json()["id"]
    assert started.json()["status"] == "running" and started.json()["games"] == 0

    def verdict() -> str | None:
        body = api.get(f"{URL}{test_id}/").json()
        return None if body["status"] == "running" else str(body["status"])

    wait_for(verdict, 170, "the worker to play pairs until the SPRT stops")
    result = api.get(f"{URL}{test_id}/").json()
    assert result["status"] == "accepted", result
    assert result["llr"] >= result["upper_bound"]
    assert result["elo_low"] is not None and result["elo_low"] > 0  # better, with 95% confidence
    assert result["elo"] is None or result["elo_low"] <= result["elo"]
    assert result["games"] == 2 * sum(result["pairs"]) and result["games_in_flight"] == 0
    assert result["finished_at"] is not None

    fleet.stop_all()  # quiet: a match still running at the stop is settled before we look
    assert_paired_matches_played_by_the_worker(
        test_id, candidate=candidate, baseline=baseline, folded=sum(result["pairs"])
    )
    assert not Rating.objects.exists()  # version tests never touch the ladder
    assert not Match.objects.filter(kind=Match.Kind.VERSUS, status=Match.Status.QUEUED).exists()
    assert VersionTest.objects.get(pk=test_id).games_counted == result["games"]

    owner_page = web_client(alice).get(f"/version-tests/{test_id}/")
    assert owner_page.status_code == 200 and "accepted" in owner_page.content.decode()
    bobs = api_client(bob)  # another user's test is answered like a missing one
    assert bobs.get(f"{URL}{test_id}/").json() == bobs.get(f"{URL}{test_id + 1000}/").json()
    assert bobs.get(f"{URL}{test_id}/").status_code == 404
    assert bobs.get(URL).json()["results"] == []
    assert web_client(bob).get(f"/version-tests/{test_id}/").status_code == 404
    assert api_client().get(f"{URL}{test_id}/").status_code in (401, 403)
