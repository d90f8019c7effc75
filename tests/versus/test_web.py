"""The version-test pages: the owner starts and follows a test; anyone else gets a 404."""

from __future__ import annotations

import pytest
from django.test import Client

from ladder.versus import services
from ladder.versus.models import VersionTest
from tests.versus.play import bot_with_versions

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(alice):
    bot, (baseline, candidate) = bot_with_versions(alice)
    return bot, candidate, baseline


def test_owner_finds_the_link_starts_a_test_and_sees_it(web_clients: dict[str, Client], duel):
    bot, candidate, baseline = duel
    client = web_clients["owner"]
    bot_page = client.get(f"/bots/{bot.name}/").content.decode()
    assert f"/bots/{bot.name}/version-tests/" in bot_page
    form_page = client.get(f"/bots/{bot.name}/version-tests/")
    assert form_page.status_code == 200
    assert "Start the test" in form_page.content.decode()
    response = client.post(
        f"/bots/{bot.name}/version-tests/",
        {
            "candidate": candidate.pk,
            "baseline": baseline.pk,
            "players": 2,
            "elo1": 20,
            "max_games": 100,
        },
    )
    test = VersionTest.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/version-tests/{test.pk}/"
    page = client.get(f"/version-tests/{test.pk}/").content.decode()
    assert "v2 against v1" in page and "running" in page and "Cancel the test" in page
    assert test.max_games == 100 and test.ladder.num_players == 2


def test_a_second_test_while_one_runs_is_refused_with_429(web_clients, duel):
    bot, candidate, baseline = duel
    data = {
        "candidate": candidate.pk,
        "baseline": baseline.pk,
        "players": 2,
        "elo1": 20,
        "max_games": 100,
    }
    client = web_clients["owner"]
    client.post(f"/bots/{bot.name}/version-tests/", data)
    refused = client.post(f"/bots/{bot.name}/version-tests/", data)
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert "still running" in refused.content.decode()


def test_odd_game_cap_is_a_form_error(web_clients, duel):
    bot, candidate, baseline = duel
    response = web_clients["owner"].post(
        f"/bots/{bot.name}/version-tests/",
        {
            "candidate": candidate.pk,
            "baseline": baseline.pk,
            "players": 2,
            "elo1": 20,
            "max_games": 7,
        },
    )
    assert response.status_code == 400
    assert "even number" in response.content.decode()
    assert not VersionTest.objects.exists()


@pytest.mark.parametrize("role", ["other", "organiser"])
def test_others_get_404_everywhere(web_clients, duel, role, alice):
    bot, candidate, baseline = duel
    test = services.start_test(user=alice, candidate_id=candidate.pk, baseline_id=baseline.pk)
    client = web_clients[role]
    assert client.get(f"/bots/{bot.name}/version-tests/").status_code == 404
    assert client.get(f"/version-tests/{test.pk}/").status_code == 404
    assert client.post(f"/version-tests/{test.pk}/cancel/").status_code == 404
    assert (
        f"/bots/{bot.name}/version-tests/" not in client.get(f"/bots/{bot.name}/").content.decode()
    )
    test.refresh_from_db()
    assert test.status == VersionTest.Status.RUNNING


def test_owner_cancels_from_the_page(web_clients, duel, alice):
    _, candidate, baseline = duel
    test = services.start_test(user=alice, candidate_id=candidate.pk, baseline_id=baseline.pk)
    response = web_clients["owner"].post(f"/version-tests/{test.pk}/cancel/")
    assert response.status_code == 302
    test.refresh_from_db()
    assert test.status == VersionTest.Status.CANCELLED
