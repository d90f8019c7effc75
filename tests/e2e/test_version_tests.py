"""A version test (``/api/v1/version-tests/``) run to its verdict by a real Celery worker.

Persona: alice uploads two versions of one East Indiaman bot through the API (v1 the reference
random bot, v2 the reference greedy one), a worker process validates both, and she asks whether
v2 beats v1. Nothing in this process plays a game: the worker plays each queued pair, and its
``MONSOON_MATCH_OVER`` hook counts the pair, re-tests and queues the next pairs, until the SPRT
stops. bob, another programmer, and an anonymous visitor must not see the test or its verdict.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from ladder.accounts.models import User
from ladder.bots.models import BotVersion
from ladder.matches.models import Match
from ladder.ratings.models import Rating
from ladder.versus.models import VersionTest, VersionTestGame
from tests.e2e.conftest import Fleet, api_create_bot, api_upload, wait_for
from tests.factories import api_client, web_client
from tests.workers.sandbox_helpers import needs_sandbox

pytestmark = [
    needs_sandbox,
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
]
REFERENCE = Path(__file__).resolve().parents[2] / "bots" / "reference"
GAME = "east_indiaman"  # two seats: the quickest pairs of the four games
URL = "/api/v1/version-tests/"


def upload_reference(api, bot_id: int, reference: str) -> int:
    """Upload a reference bot as a new version and wait for the worker to accept it."""
    version = api_upload(api, bot_id, (REFERENCE / reference / "main.py").read_bytes(), "main.py")

    def status() -> str:
        return str(api.get(f"/api/v1/versions/{version['id']}/").json()["status"])

    wait_for(lambda: status() == BotVersion.Status.ACTIVE, 60, f"the worker to accept {reference}")
    return int(version["id"])


def test_a_version_test_is_played_by_the_worker_until_the_sprt_stops(
    fleet: Fleet, alice: User, bob: User
) -> None:
    fleet.worker("w1")
    api = api_client(alice)
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

    games = VersionTestGame.objects.filter(test_id=test_id, counted=True, void=False)
    legs = defaultdict(list)
    for game in games.select_related("match"):
        legs[game.pair].append(game)
    assert len(legs) == sum(result["pairs"])
    for pair in legs.values():  # both legs on one seed, the versions' seats swapped
        assert sorted(g.leg for g in pair) == [0, 1]
        first, second = sorted(pair, key=lambda g: g.leg)
        assert first.match.seed == second.match.seed
        assert (first.candidate_seat, first.baseline_seat) == (
            second.baseline_seat,
            second.candidate_seat,
        )
        for game in pair:
            match = game.match
            assert match.status == Match.Status.FINISHED, (match.pk, match.status_reason)
            assert match.kind == Match.Kind.VERSUS and not match.ranked
            assert match.worker.startswith("w1@")  # played by the worker process
            seats = dict(match.seats.values_list("seat", "bot_version_id"))
            assert seats == {game.candidate_seat: candidate, game.baseline_seat: baseline}
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
