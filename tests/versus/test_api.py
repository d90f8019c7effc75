"""``/api/v1/version-tests/``: start, follow, cancel; owner and staff only; 429 with Retry-After."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from ladder.matches.models import Match
from ladder.versus.models import VersionTest
from tests.versus.play import bot_with_versions, play_pending

pytestmark = pytest.mark.django_db
URL = "/api/v1/version-tests/"


@pytest.fixture
def versions(alice):
    _, (baseline, candidate) = bot_with_versions(alice)
    return candidate, baseline


def test_owner_starts_follows_and_sees_the_result(
    api_clients: dict[str, APIClient], versions, django_capture_on_commit_callbacks
):
    candidate, baseline = versions
    client = api_clients["owner"]
    response = client.post(URL, {"candidate": candidate.pk, "baseline": baseline.pk}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "running"
    assert body["elo0"] == 0.0 and body["elo1"] == 20.0 and body["alpha"] == 0.05
    assert body["games_in_flight"] == 4 and body["games"] == 0
    assert body["upper_bound"] == pytest.approx(2.944, abs=1e-3)
    play_pending(
        django_capture_on_commit_callbacks, {candidate.pk: "greedy", baseline.pk: "random"}
    )
    result = client.get(f"{URL}{body['id']}/").json()
    assert result["status"] == "accepted"
    assert result["llr"] >= result["upper_bound"]
    assert result["elo_low"] > 0
    assert sum(result["pairs"]) * 2 == result["games"]
    listed = client.get(URL).json()
    assert [t["id"] for t in listed["results"]] == [body["id"]]


@pytest.mark.parametrize(("role", "code"), [("other", 404), ("organiser", 404), ("staff", 200)])
def test_only_owner_and_staff_see_a_test(api_clients, versions, role, code, alice):
    candidate, baseline = versions
    created = api_clients["owner"].post(
        URL, {"candidate": candidate.pk, "baseline": baseline.pk}, format="json"
    )
    test_id = created.json()["id"]
    client = api_clients[role]
    assert client.get(f"{URL}{test_id}/").status_code == code
    missing = client.get(f"{URL}{test_id + 1000}/")
    assert missing.status_code == 404
    listed = [t["id"] for t in client.get(URL).json()["results"]]
    assert (test_id in listed) == (role == "staff")
    if code == 404:
        assert client.post(f"{URL}{test_id}/cancel/").status_code == 404
        assert VersionTest.objects.get(pk=test_id).status == "running"


def test_anonymous_is_asked_to_log_in(api_clients):
    assert api_clients["anonymous"].get(URL).status_code in (401, 403)
    assert api_clients["anonymous"].post(URL, {}, format="json").status_code in (401, 403)


def test_version_test_matches_are_hidden_from_others(api_clients, versions):
    candidate, baseline = versions
    api_clients["owner"].post(
        URL, {"candidate": candidate.pk, "baseline": baseline.pk}, format="json"
    )
    match_id = Match.objects.filter(kind=Match.Kind.VERSUS).values_list("pk", flat=True)[0]
    for role in ("owner", "staff", "other", "anonymous"):
        # The public (shared, cached) match list never shows them, like private challenges.
        kinds = [m["kind"] for m in api_clients[role].get("/api/v1/matches/").json()["results"]]
        assert "versus" not in kinds, role
        # By id: the owner and staff see the match; anyone else gets the 404 of a missing one.
        expected = 200 if role in ("owner", "staff") else 404
        assert api_clients[role].get(f"/api/v1/matches/{match_id}/").status_code == expected


def test_second_running_test_is_429_with_retry_after(api_clients, versions):
    candidate, baseline = versions
    payload = {"candidate": candidate.pk, "baseline": baseline.pk}
    assert api_clients["owner"].post(URL, payload, format="json").status_code == 201
    refused = api_clients["owner"].post(URL, payload, format="json")
    assert refused.status_code == 429
    assert refused["Retry-After"] == "60"
    assert "still running" in refused.json()["detail"]
    assert refused.json()["code"] == "rate_limited"


def test_cancel_then_cancel_again(api_clients, versions):
    candidate, baseline = versions
    client = api_clients["owner"]
    test_id = client.post(
        URL, {"candidate": candidate.pk, "baseline": baseline.pk}, format="json"
    ).json()["id"]
    cancelled = client.post(f"{URL}{test_id}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert client.post(f"{URL}{test_id}/cancel/").status_code == 409


@pytest.mark.parametrize(
    ("change", "code", "message"),
    [
        ({"elo1": -5}, 400, "greater than elo0"),
        ({"max_games": 3}, 400, "even number"),
        ({"candidate": 999999}, 404, "no such version of yours"),
        ({"players": 1}, 400, "players"),
        ({"alpha": "many"}, 400, "alpha"),
    ],
)
def test_bad_requests_are_clear(api_clients, versions, change, code, message):
    candidate, baseline = versions
    payload = {"candidate": candidate.pk, "baseline": baseline.pk, **change}
    response = api_clients["owner"].post(URL, payload, format="json")
    assert response.status_code == code
    assert message in json.dumps(response.json())
    assert not VersionTest.objects.exists()


def test_the_schema_documents_the_endpoints(api_clients):
    schema = api_clients["anonymous"].get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    )
    paths = json.loads(schema.content)["paths"]
    assert "/api/v1/version-tests/" in paths
    assert "/api/v1/version-tests/{id}/cancel/" in paths
    assert "429" in paths["/api/v1/version-tests/"]["post"]["responses"]
