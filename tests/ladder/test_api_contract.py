"""What a client reads from the API's answers: defaults, refusals and their headers (issue 27).

Each test is one of the problems a generated client or a curl user met: a form body that made a
private bot, a 429 without ``Retry-After``, a forged cursor answered with a page, a list filter
that made a detail action a 404, an empty filter value silently ignored, and an HTML 400.
"""

from __future__ import annotations

import base64
import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ladder.bots.models import Bot
from ladder.tournaments import services as tournament_services
from ladder.tournaments.tournament_settings import TournamentSettings
from tests.factories import api_client as client_for
from tests.factories import make_active_version, make_bot

pytestmark = pytest.mark.django_db


def _token_client(user) -> Client:
    """A client that authenticates as curl does: a token header, nothing forced."""
    key = Token.objects.get_or_create(user=user)[0].key
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


@pytest.mark.parametrize("body_type", ["form", "json"])
def test_a_new_bot_is_public_unless_asked_otherwise_whatever_the_body(alice, body_type):
    """``curl -d name=mybot -d game=borneo`` (a form body) made a private bot; JSON a public
    one. A private bot never plays ranked matches, so the documented example made a bot that
    silently never played."""
    client = _token_client(alice)
    body = {"name": f"mybot-{body_type}", "game": "borneo"}
    if body_type == "json":
        answer = client.post("/api/v1/bots/", body, content_type="application/json")
    else:
        answer = client.post("/api/v1/bots/", body)  # application/x-www-form-urlencoded
    assert answer.status_code == 201, answer.json()
    assert answer.json()["is_public"] is True
    assert Bot.objects.get(name=f"mybot-{body_type}").is_public


@pytest.mark.parametrize("value", ["false", "0"])
def test_a_form_body_can_still_make_a_private_bot(alice, value):
    answer = _token_client(alice).post(
        "/api/v1/bots/", {"name": "hidden", "game": "borneo", "is_public": value}
    )
    assert answer.status_code == 201 and answer.json()["is_public"] is False


def test_a_private_bots_page_says_it_plays_challenges_only(alice):
    make_bot(alice, "hidden", "borneo", public=False)
    make_bot(alice, "shown", "borneo")
    site = Client()
    site.force_login(alice)
    assert "plays challenges only" in site.get("/bots/hidden/").content.decode()
    assert "plays challenges only" not in site.get("/bots/shown/").content.decode()


def test_the_challenge_limit_answers_429_with_retry_after(alice, bob, settings):
    settings.MONSOON_CHALLENGES_PER_HOUR = 1
    mine = make_active_version(make_bot(alice, "saffron")).bot
    theirs = [make_active_version(make_bot(bob, name)).bot for name in ("cinnamon", "clove")]
    client = client_for(alice)
    table = {"bots": [mine.pk, *(bot.pk for bot in theirs)]}
    assert client.post("/api/v1/challenges/", table, format="json").status_code == 201
    refused = client.post("/api/v1/challenges/", table, format="json")
    assert refused.status_code == 429
    assert "at most 1 challenges an hour" in refused.json()["detail"]
    # The first challenge leaves the hour's window in at most an hour.
    assert 1 <= int(refused["Retry-After"]) <= 3600


def test_the_sites_challenge_limit_page_carries_retry_after_too(alice, bob, settings):
    settings.MONSOON_CHALLENGES_PER_HOUR = 1
    mine = make_active_version(make_bot(alice, "saffron")).bot
    theirs = [make_active_version(make_bot(bob, name)).bot for name in ("cinnamon", "clove")]
    site = Client()
    site.force_login(alice)
    form = {"opponents": [bot.pk for bot in theirs]}
    assert site.post(f"/bots/{mine.name}/challenge/", form).status_code == 302
    refused = site.post(f"/bots/{mine.name}/challenge/", form)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 3600


@pytest.mark.parametrize(
    "position",
    [b"p=abc", b"p=123", b"o=5", b"r=1&p=7", b""],
    ids=["not-an-id", "an-id", "an-offset", "reversed", "empty"],
)
def test_a_cursor_the_server_did_not_hand_out_is_a_404(position):
    """DRF decodes any base64 cursor; a well-formed forged one (``p=123``) answered a page."""
    cursor = base64.b64encode(position).decode()
    response = Client().get("/api/v1/matches/", {"cursor": cursor})
    assert response.status_code == 404, response.content
    assert "cursor" in response.json()["detail"].lower()


def test_the_next_link_of_a_page_still_works(alice, bob):
    mine = make_active_version(make_bot(alice, "saffron")).bot
    theirs = [make_active_version(make_bot(bob, name)).bot for name in ("cinnamon", "clove")]
    client = client_for(alice)
    for _ in range(3):
        table = {"bots": [mine.pk, *(bot.pk for bot in theirs)]}
        assert client.post("/api/v1/challenges/", table, format="json").status_code == 201
    first = client.get("/api/v1/challenges/", {"page_size": 2}).json()
    assert len(first["results"]) == 2 and first["next"]
    second = client.get(first["next"]).json()
    assert len(second["results"]) == 1
    seen = [m["id"] for m in first["results"] + second["results"]]
    assert len(set(seen)) == 3
    back = client.get(second["previous"]).json()
    assert [m["id"] for m in back["results"]] == [m["id"] for m in first["results"]]


def test_list_filters_do_not_apply_to_detail_actions(olivia, alice):
    """``tournaments/1/entrants/?game=batavia`` was a 404 for a Borneo tournament."""
    tournament = tournament_services.create_tournament(
        olivia,
        settings=TournamentSettings(
            name="cup",
            game="borneo",
            num_players=3,
            format="round_robin",
            starts_at=timezone.now() + timedelta(days=1),
        ),
    )
    client = Client()
    for suffix in ("", "entrants/", "standings/", "rounds/", "crosstable/", "matches/"):
        response = client.get(f"/api/v1/tournaments/{tournament.pk}/{suffix}", {"game": "batavia"})
        assert response.status_code == 200, (suffix, response.content)
    bot = make_bot(alice, "pepper", "borneo")
    assert client.get(f"/api/v1/bots/{bot.pk}/versions/", {"game": "batavia"}).status_code == 200
    # The list still filters.
    listed = client.get("/api/v1/tournaments/", {"game": "batavia"}).json()["results"]
    assert tournament.pk not in [t["id"] for t in listed]


@pytest.mark.parametrize(
    ("path", "field"),
    [
        ("/api/v1/bots/", "game"),
        ("/api/v1/bots/", "owner"),
        ("/api/v1/bots/", "is_public"),
        ("/api/v1/matches/", "status"),
        ("/api/v1/matches/", "ladder"),
        ("/api/v1/matches/", "bot"),
        ("/api/v1/matches/", "ranked"),
        ("/api/v1/ladders/", "num_players"),
        ("/api/v1/tournaments/", "pairing"),
    ],
)
def test_an_empty_filter_value_is_a_400_naming_the_filter(path, field):
    """``?game=`` was ignored: a client that meant to filter got every row."""
    response = Client().get(path, {field: ""})
    assert response.status_code == 400, response.content
    assert response.json()[field] == ["give a value or leave the filter out"]


@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/api/v1/matches/", {"bot": "-1"}),
        ("/api/v1/matches/", {"version": str(2**31)}),
        ("/api/v1/ladders/", {"num_players": "99999999999999999999"}),
    ],
)
def test_an_integer_filter_out_of_its_range_is_a_400(path, query):
    response = Client().get(path, query)
    assert response.status_code == 400
    assert set(response.json()) == set(query)


@pytest.mark.parametrize("path", ["/api/v1/auth/token/", "/api/v1/bots/"])
def test_a_form_of_5000_fields_is_a_json_400_under_the_api(path, alice, settings):
    body = "&".join(f"f{i}=x" for i in range(5000))
    key = Token.objects.get_or_create(user=alice)[0].key
    response = Client(raise_request_exception=False, HTTP_AUTHORIZATION=f"Token {key}").generic(
        "POST", path, body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
    assert f"too many fields (at most {limit} fields" in response.json()["detail"]


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("TRACE", "/api/v1/bots/", "GET, HEAD, OPTIONS, POST"),
        ("DELETE", "/api/v1/games/", "GET, HEAD, OPTIONS"),
        ("PUT", "/api/v1/auth/token/", "OPTIONS, POST"),
    ],
)
def test_a_method_an_endpoint_lacks_is_a_405_even_without_credentials(method, path, allow):
    """DRF asked for credentials first: ``TRACE /api/v1/bots/`` was a 401, as if the method
    existed and only a token were missing."""
    response = Client().generic(method, path)
    assert response.status_code == 405
    assert response["Allow"] == allow
    assert method in response.json()["detail"]


@pytest.fixture
def served_schema() -> dict:
    response = Client().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    return json.loads(response.content)


def _operations(schema: dict) -> list[tuple[str, str, dict]]:
    return [
        (method.upper(), path, operation)
        for path, operations in schema["paths"].items()
        for method, operation in operations.items()
    ]


def test_every_numeric_parameter_has_bounds(served_schema):
    unbounded = [
        (method, path, parameter["name"])
        for method, path, operation in _operations(served_schema)
        for parameter in operation.get("parameters", [])
        if parameter["schema"].get("type") in ("integer", "number")
        and not {"minimum", "maximum"} <= set(parameter["schema"])
    ]
    assert unbounded == []


def test_every_request_body_has_one_content_type(served_schema):
    """JSON, form and multipart with one shape made a generated client send each field thrice."""
    bodies = {
        (method, path): sorted(operation["requestBody"]["content"])
        for method, path, operation in _operations(served_schema)
        if "requestBody" in operation
    }
    assert bodies[("POST", "/api/v1/bots/{id}/upload/")] == ["multipart/form-data"]
    assert {key: types for key, types in bodies.items() if len(types) != 1} == {}
    assert {tuple(types) for types in bodies.values()} == {
        ("application/json",),
        ("multipart/form-data",),
    }


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/bots/{id}/versions/",
        "/api/v1/bots/{id}/head-to-head/",
        "/api/v1/bots/{id}/ratings/",
        "/api/v1/matches/{id}/stderr/",
        "/api/v1/tournaments/{id}/entrants/",
        "/api/v1/tournaments/{id}/standings/",
        "/api/v1/tournaments/{id}/rounds/",
    ],
)
def test_actions_that_answer_arrays_are_arrays_in_the_schema(served_schema, path):
    operation = served_schema["paths"][path]["get"]
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert body["type"] == "array"
    names = {parameter["name"] for parameter in operation.get("parameters", [])}
    assert not names & {"page", "cursor", "page_size", "limit", "offset", "game", "status"}


def test_public_reads_need_no_credentials_in_the_schema(served_schema):
    operations = {(m, p): op for m, p, op in _operations(served_schema)}
    for key in [
        ("GET", "/api/v1/bots/"),
        ("GET", "/api/v1/matches/{id}/live/"),
        ("GET", "/api/v1/ladders/{id}/standings/"),
        ("POST", "/api/v1/auth/token/"),
    ]:
        assert "security" not in operations[key], key
    assert operations[("POST", "/api/v1/bots/")]["security"]
    assert operations[("GET", "/api/v1/matches/{id}/stderr/")]["security"]


def test_ids_in_urls_are_integers_in_the_schema(served_schema):
    """A generated client takes ``id: int``, not a string of digits."""
    kinds = {
        (path, parameter["name"]): parameter["schema"]["type"]
        for _, path, operation in _operations(served_schema)
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "path"
    }
    assert {key for key, kind in kinds.items() if kind != "integer"} == {
        (path, "name") for path in served_schema["paths"] if "{name}" in path
    }
