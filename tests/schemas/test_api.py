"""GET /api/v1/games/<name>/schema/ serves each game's schema file, documented in OpenAPI."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from engine.registry import all_games
from engine.schemas import load_schema
from tests.schemas.helpers import problems


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(all_games()))
def test_the_api_serves_the_schema_of_every_game_to_anyone(game):
    response = APIClient().get(f"/api/v1/games/{game}/schema/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    served = response.json()
    assert served == load_schema(game)
    example = served["$defs"]["observation"]["examples"][0]
    assert problems(game, "observation", example) == []


@pytest.mark.django_db
def test_the_games_list_and_detail_link_each_game_to_its_schema():
    client = APIClient()
    for game in client.get("/api/v1/games/").json():
        assert game["schema"] == f"http://testserver/api/v1/games/{game['name']}/schema/"
        assert client.get(game["schema"]).json()["$id"] == f"urn:monsoon:game:{game['name']}"
    detail = client.get("/api/v1/games/borneo/").json()
    assert detail["schema"] == "http://testserver/api/v1/games/borneo/schema/"


@pytest.mark.django_db
def test_an_unknown_game_has_no_schema():
    response = APIClient().get("/api/v1/games/chess/schema/")
    assert response.status_code == 404
    assert "chess" in response.json()["detail"]


@pytest.mark.django_db
def test_the_schema_endpoint_is_in_the_openapi_document():
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    operation = response.json()["paths"]["/api/v1/games/{name}/schema/"]["get"]
    assert "$defs/observation" in operation["responses"]["200"]["description"]
    assert "404" in operation["responses"]
