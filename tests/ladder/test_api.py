"""Every endpoint of /api/v1/, with the permission matrix for the five api_clients."""

from __future__ import annotations

import gzip
import io
import json
import re

import pytest
import zstandard
from django.core.cache import cache
from django.db.models import QuerySet
from rest_framework.test import APIClient

from ladder.bots import services as bot_services
from ladder.bots.models import Bot, BotVersion
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.matches import services as match_services
from ladder.matches.models import Match
from ladder.ratings.services import refit_ladder
from tests.factories import (
    GOOD_BOT,
    engine_json,
    ladder_for,
    make_active_version,
    make_bot,
)
from tests.factories import api_client as client_for

PERSONAS = ["anonymous", "owner", "other", "organiser", "staff"]


def expect(matrix: dict[str, int]) -> list[tuple[str, int]]:
    assert set(matrix) == set(PERSONAS)
    return list(matrix.items())


def upload_file(data: bytes = GOOD_BOT, name: str = "main.py") -> io.BytesIO:
    handle = io.BytesIO(data)
    handle.name = name
    return handle


@pytest.fixture
def world(alice, bob, olivia, sam):
    """alice's public 'saffron' and private 'vanilla', bob's 'cinnamon', a finished match."""
    saffron = make_active_version(make_bot(alice, "saffron")).bot
    vanilla = make_bot(alice, "vanilla", public=False)
    cinnamon = make_active_version(make_bot(bob, "cinnamon")).bot
    house = make_active_version(make_bot(sam, "house-bot")).bot
    rejected = bot_services.upload_version(
        saffron, user=alice, filename="main.py", data=GOOD_BOT + b"# v2\n"
    )
    bot_services.validate_version(
        rejected.pk,
        validator=lambda artifact: bot_services.ValidationOutcome(False, "crashed on turn 3"),
    )
    versions = [b.versions.filter(status="active").get() for b in (saffron, cinnamon, house)]
    finished = match_services.create_match(ladder_for(players=3), versions, seed=11)
    record = engine_json(finished)
    record["stderr"] = ["alice's secret debug", "bob's secret debug", "house debug"]
    flow.record_result(match_id=finished.pk, result=MatchResult.from_json(record))
    waiting = match_services.create_match(ladder_for(players=3), versions, seed=12)
    return {
        "saffron": saffron,
        "vanilla": vanilla,
        "cinnamon": cinnamon,
        "house": house,
        "rejected": rejected,
        "finished": finished,
        "waiting": waiting,
    }


# --- games ----------------------------------------------------------------------------------


def test_games_list_and_detail(api_clients, world):
    client = api_clients["anonymous"]
    games = client.get("/api/v1/games/").json()
    batavia = next(g for g in games if g["name"] == "batavia")
    assert (batavia["min_players"], batavia["max_players"]) == (3, 5)
    assert len(batavia["ladders"]) == 3
    assert client.get("/api/v1/games/batavia/").json()["title"] == batavia["title"]
    assert client.get("/api/v1/games/chess/").status_code == 404


# --- bots -----------------------------------------------------------------------------------


def test_bot_list_shows_public_bots_and_your_own(api_clients, world):
    def names(persona, query=""):
        response = api_clients[persona].get(f"/api/v1/bots/{query}")
        assert response.status_code == 200
        return {b["name"] for b in response.json()["results"]}

    public = {"saffron", "cinnamon", "house-bot"}
    assert names("anonymous") == public
    assert names("other") == public
    assert names("owner") == public | {"vanilla"}
    assert names("staff") == public | {"vanilla"}
    assert names("anonymous", "?owner=bob") == {"cinnamon"}


@pytest.mark.parametrize(
    "persona, status",
    expect({"anonymous": 404, "owner": 200, "other": 404, "organiser": 404, "staff": 200}),
)
def test_private_bot_detail(api_clients, world, persona, status):
    assert api_clients[persona].get(f"/api/v1/bots/{world['vanilla'].pk}/").status_code == status


@pytest.mark.parametrize(
    "persona, status",
    expect({"anonymous": 401, "owner": 201, "other": 201, "organiser": 201, "staff": 201}),
)
def test_create_bot(api_clients, world, persona, status):
    response = api_clients[persona].post(
        "/api/v1/bots/",
        {"name": f"nutmeg-{persona}", "game": "batavia", "description": "a careful trader"},
        format="json",
    )
    assert response.status_code == status, response.content
    if status == 201:
        assert (
            response.json()["owner"]
            == {"owner": "alice", "other": "bob", "organiser": "olivia", "staff": "sam"}[persona]
        )


def test_create_bot_with_a_taken_name_is_a_conflict(api_clients, world):
    response = api_clients["other"].post("/api/v1/bots/", {"name": "SAFFRON", "game": "batavia"})
    assert response.status_code == 409
    assert "already exists" in response.json()["detail"]


def test_rename_racing_for_a_taken_name_is_a_conflict_not_a_crash(api_clients, world, monkeypatch):
    """Two renames to one free name: the loser passes every check, then hits the unique index."""
    cinnamon = world["cinnamon"]
    # Blind the "already exists" checks (the serializer's and the service's) to the other bot,
    # as if it took the name between our check and our save: only the database can refuse now.
    monkeypatch.setattr(QuerySet, "exists", lambda self: False)
    response = api_clients["other"].patch(
        f"/api/v1/bots/{cinnamon.pk}/", {"name": "saffron"}, format="json"
    )
    monkeypatch.undo()
    assert response.status_code == 409, response.content
    assert response.json()["detail"] == "a bot named 'saffron' already exists"
    cinnamon.refresh_from_db()
    assert cinnamon.name == "cinnamon"
    assert Bot.objects.filter(name="saffron").count() == 1


@pytest.mark.parametrize(
    "persona, status",
    expect({"anonymous": 401, "owner": 200, "other": 403, "organiser": 403, "staff": 200}),
)
def test_update_bot(api_clients, world, persona, status):
    bot = world["saffron"]
    response = api_clients[persona].patch(
        f"/api/v1/bots/{bot.pk}/", {"description": "now with pepper"}, format="json"
    )
    assert response.status_code == status, response.content
    bot.refresh_from_db()
    assert (bot.description == "now with pepper") == (status == 200)


def test_bot_game_cannot_be_changed(api_clients, world):
    bot = world["saffron"]
    api_clients["owner"].patch(f"/api/v1/bots/{bot.pk}/", {"game": "borneo"}, format="json")
    bot.refresh_from_db()
    assert bot.game == "batavia"


# --- versions and uploads -------------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, status",
    expect({"anonymous": 401, "owner": 201, "other": 403, "organiser": 403, "staff": 403}),
)
def test_upload_version(api_clients, world, persona, status):
    bot = world["saffron"]
    before = BotVersion.objects.count()
    response = api_clients[persona].post(
        f"/api/v1/bots/{bot.pk}/upload/", {"artifact": upload_file()}, format="multipart"
    )
    assert response.status_code == status, response.content
    assert BotVersion.objects.count() == before + (status == 201)
    if status == 201:
        body = response.json()
        assert (body["number"], body["status"], body["size"]) == (3, "pending", len(GOOD_BOT))


def test_upload_without_a_file_is_a_clear_400(api_clients, world):
    response = api_clients["owner"].post(
        f"/api/v1/bots/{world['saffron'].pk}/upload/", {}, format="multipart"
    )
    assert response.status_code == 400
    assert "artifact" in response.json()


def test_uploads_are_throttled(api_clients, world, monkeypatch):
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(
        ScopedRateThrottle,
        "THROTTLE_RATES",
        {**ScopedRateThrottle.THROTTLE_RATES, "uploads": "2/hour", "challenges": "2/hour"},
    )
    cache.clear()
    url = f"/api/v1/bots/{world['saffron'].pk}/upload/"
    codes = [
        api_clients["owner"].post(url, {"artifact": upload_file()}, format="multipart").status_code
        for _ in range(3)
    ]
    assert codes == [201, 201, 429]
    cache.clear()


@pytest.mark.parametrize(
    "persona, sees_rejected, sees_reason",
    [
        ("anonymous", False, False),
        ("owner", True, True),
        ("other", False, False),
        ("organiser", False, False),
        ("staff", True, True),
    ],
)
def test_version_list_and_failure_reason(api_clients, world, persona, sees_rejected, sees_reason):
    response = api_clients[persona].get(f"/api/v1/bots/{world['saffron'].pk}/versions/")
    assert response.status_code == 200
    by_number = {v["number"]: v for v in response.json()}
    assert (2 in by_number) == sees_rejected
    if sees_rejected:
        assert by_number[2]["status"] == "rejected"
        assert (by_number[2]["failure_reason"] == "crashed on turn 3") == sees_reason
    assert by_number[1]["failure_reason"] in (None, "")


@pytest.mark.parametrize(
    "persona, status",
    expect({"anonymous": 404, "owner": 200, "other": 404, "organiser": 404, "staff": 200}),
)
def test_rejected_version_detail(api_clients, world, persona, status):
    response = api_clients[persona].get(f"/api/v1/versions/{world['rejected'].pk}/")
    assert response.status_code == status
    if status == 200:
        assert response.json()["failure_reason"] == "crashed on turn 3"


def test_active_version_detail_is_public(api_clients, world):
    version = world["cinnamon"].versions.get()
    body = api_clients["anonymous"].get(f"/api/v1/versions/{version.pk}/").json()
    assert body["status"] == "active" and body["sha256"] == version.sha256
    assert body["failure_reason"] is None


# --- ladders, standings, rating history -----------------------------------------------------


def test_ladders_and_standings(api_clients, world):
    client = api_clients["anonymous"]
    ladders = client.get("/api/v1/ladders/?game=batavia").json()
    assert [lad["num_players"] for lad in ladders] == [3, 4, 5]
    ladder = ladder_for(players=3)
    refit_ladder(ladder.pk, samples=10)
    assert client.get(f"/api/v1/ladders/{ladder.pk}/").json()["game"] == "batavia"
    body = client.get(f"/api/v1/ladders/{ladder.pk}/standings/").json()
    assert body["count"] == 3
    table = body["results"]
    assert [row["rank"] for row in table] == [1, 2, 3]
    assert {row["bot_name"] for row in table} == {"saffron", "cinnamon", "house-bot"}
    for row in table:
        assert row["low"] <= row["rating"] <= row["high"]
        assert row["games"] == 1 and row["provisional"] is True
    assert table[0]["rating"] >= table[1]["rating"] >= table[2]["rating"]
    page = client.get(f"/api/v1/ladders/{ladder.pk}/standings/?limit=1&offset=1").json()
    assert [(r["rank"], r["bot_name"]) for r in page["results"]] == [(2, table[1]["bot_name"])]


def test_rating_history(api_clients, world):
    refit_ladder(ladder_for(players=3).pk, samples=5)
    points = api_clients["anonymous"].get(f"/api/v1/bots/{world['cinnamon'].pk}/ratings/").json()
    assert [p["kind"] for p in points] == ["live", "fit"]
    assert points[0]["match"] == world["finished"].pk
    other_ladder = ladder_for(players=4).pk
    assert (
        api_clients["anonymous"]
        .get(f"/api/v1/bots/{world['cinnamon'].pk}/ratings/?ladder={other_ladder}")
        .json()
        == []
    )


# --- matches ----------------------------------------------------------------------------------


def ids(response):
    assert response.status_code == 200, response.content
    return [m["id"] for m in response.json()["results"]]


def test_match_list_filters_and_pagination(api_clients, world, django_assert_max_num_queries):
    client = api_clients["anonymous"]
    finished, waiting = world["finished"].pk, world["waiting"].pk
    with django_assert_max_num_queries(4):
        assert ids(client.get("/api/v1/matches/")) == [waiting, finished]
    assert ids(client.get("/api/v1/matches/?status=finished")) == [finished]
    assert ids(client.get(f"/api/v1/matches/?bot={world['cinnamon'].pk}")) == [waiting, finished]
    assert ids(client.get(f"/api/v1/matches/?bot={world['vanilla'].pk}")) == []
    assert ids(client.get("/api/v1/matches/?game=borneo")) == []
    assert ids(client.get(f"/api/v1/matches/?ladder={ladder_for(players=4).pk}")) == []
    assert ids(client.get("/api/v1/matches/?since=2000-01-01T00:00:00Z")) == [waiting, finished]
    assert ids(client.get("/api/v1/matches/?until=2000-01-01T00:00:00Z")) == []
    page = client.get("/api/v1/matches/?page_size=1").json()
    assert [m["id"] for m in page["results"]] == [waiting]
    assert ids(client.get(page["next"])) == [finished]
    assert client.get("/api/v1/matches/?status=bogus").status_code == 400


def test_match_detail_hides_the_seed_until_the_end(api_clients, world):
    client = api_clients["anonymous"]
    done = client.get(f"/api/v1/matches/{world['finished'].pk}/").json()
    assert done["seed"] == 11 and done["status"] == "finished"
    assert [s["bot_name"] for s in done["seats"]] == ["saffron", "cinnamon", "house-bot"]
    assert all(s["place"] in (1, 2, 3) for s in done["seats"])
    assert "stderr" not in json.dumps(done)
    assert client.get(f"/api/v1/matches/{world['waiting'].pk}/").json()["seed"] is None


def test_match_log_download(api_clients, world):
    client = api_clients["anonymous"]
    response = client.get(f"/api/v1/matches/{world['finished'].pk}/log/")
    assert response.status_code == 200
    log = json.loads(response.content)
    shown = client.get(f"/api/v1/matches/{world['finished'].pk}/").json()
    assert log["seed"] == 11 and log["result"]["scores"] == shown["scores"]
    assert log["result"]["ranking"] == shown["ranking"] == [s["place"] for s in shown["seats"]]
    compressed = client.get(
        f"/api/v1/matches/{world['finished'].pk}/log/", HTTP_ACCEPT_ENCODING="gzip"
    )
    assert compressed["Content-Encoding"] == "gzip"
    assert json.loads(gzip.decompress(compressed.content)) == log
    # zstd is how the log is stored: a client that accepts it gets the stored object as it is.
    packed = client.get(
        f"/api/v1/matches/{world['finished'].pk}/log/", HTTP_ACCEPT_ENCODING="gzip, zstd"
    )
    assert packed["Content-Encoding"] == "zstd" and "Accept-Encoding" in packed["Vary"]
    assert json.loads(zstandard.ZstdDecompressor().decompress(packed.content)) == log
    refused = client.get(
        f"/api/v1/matches/{world['finished'].pk}/log/", HTTP_ACCEPT_ENCODING="zstd;q=0, gzip"
    )
    assert refused["Content-Encoding"] == "gzip"
    waiting = client.get(f"/api/v1/matches/{world['waiting'].pk}/log/")
    assert waiting.status_code == 409 and "finished" in waiting.json()["detail"]


@pytest.mark.parametrize(
    "persona, status, visible",
    [
        ("anonymous", 401, []),
        ("owner", 200, ["alice's secret debug"]),
        ("other", 200, ["bob's secret debug"]),
        ("organiser", 403, []),
        ("staff", 200, ["alice's secret debug", "bob's secret debug", "house debug"]),
    ],
)
def test_stderr_only_for_owners(api_clients, world, persona, status, visible):
    response = api_clients[persona].get(f"/api/v1/matches/{world['finished'].pk}/stderr/")
    assert response.status_code == status
    if status == 200:
        assert [s["stderr"] for s in response.json()] == visible


@pytest.mark.parametrize(
    "persona, status",
    expect({"anonymous": 401, "owner": 403, "other": 403, "organiser": 403, "staff": 200}),
)
def test_cancel_match(api_clients, world, persona, status):
    response = api_clients[persona].post(f"/api/v1/matches/{world['waiting'].pk}/cancel/")
    assert response.status_code == status
    world["waiting"].refresh_from_db()
    assert (world["waiting"].status == "cancelled") == (status == 200)


def test_cancelling_a_finished_match_is_a_conflict(api_clients, world):
    finished = world["finished"]
    scores = list(finished.seats.order_by("seat").values_list("score", flat=True))
    response = api_clients["staff"].post(f"/api/v1/matches/{finished.pk}/cancel/")
    assert response.status_code == 409
    assert "finished" in response.json()["detail"]
    finished.refresh_from_db()
    assert finished.status == Match.Status.FINISHED
    assert list(finished.seats.order_by("seat").values_list("score", flat=True)) == scores


@pytest.mark.parametrize(
    "persona, status",
    expect({"anonymous": 401, "owner": 403, "other": 403, "organiser": 403, "staff": 201}),
)
def test_rerun_match(api_clients, world, persona, status):
    before = Match.objects.count()
    response = api_clients[persona].post(f"/api/v1/matches/{world['finished'].pk}/rerun/")
    assert response.status_code == status
    assert Match.objects.count() == before + (status == 201)


# --- challenges -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "persona, status",
    expect({"anonymous": 401, "owner": 201, "other": 201, "organiser": 403, "staff": 201}),
)
def test_create_challenge(api_clients, world, persona, status):
    # saffron (alice) vs cinnamon (bob) vs house-bot (sam): only owners of a seat may ask, so
    # olivia, who owns none of them, is refused.
    table = [world["saffron"].pk, world["cinnamon"].pk, world["house"].pk]
    response = api_clients[persona].post("/api/v1/challenges/", {"bots": table}, format="json")
    assert response.status_code == status, response.content
    if status == 201:
        body = response.json()
        assert (body["kind"], body["ranked"], body["status"]) == ("challenge", False, "queued")


def test_challenge_list_is_your_own(api_clients, world):
    table = [world["saffron"].pk, world["cinnamon"].pk, world["house"].pk]
    made = api_clients["owner"].post("/api/v1/challenges/", {"bots": table}, format="json").json()
    assert [m["id"] for m in api_clients["owner"].get("/api/v1/challenges/").json()["results"]] == [
        made["id"]
    ]
    assert api_clients["other"].get("/api/v1/challenges/").json()["results"] == []
    assert api_clients["anonymous"].get("/api/v1/challenges/").status_code == 401


def test_challenge_with_bad_input(api_clients, world):
    response = api_clients["owner"].post("/api/v1/challenges/", {"bots": "saffron"}, format="json")
    assert response.status_code == 400
    response = api_clients["owner"].post(
        "/api/v1/challenges/", {"bots": [world["saffron"].pk, world["cinnamon"].pk]}, format="json"
    )
    assert response.status_code == 400 and "3-5 players" in response.json()["detail"]


# --- authentication -------------------------------------------------------------------------


def test_token_and_session_authentication(world, alice):
    client = APIClient()
    response = client.post(
        "/api/v1/auth/token/", {"username": "alice", "password": "alice-password-1"}
    )
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    me = client.get("/api/v1/me/").json()
    assert me == {"username": "alice", "token": token, "is_organiser": False}
    rotated = client.post("/api/v1/me/").json()["token"]
    assert rotated != token
    assert client.get("/api/v1/me/").status_code == 401  # the old token is gone
    session = APIClient()
    assert session.login(username="alice", password="alice-password-1")
    assert session.get("/api/v1/me/").json()["token"] == rotated
    wrong = APIClient().post("/api/v1/auth/token/", {"username": "alice", "password": "nope"})
    assert wrong.status_code == 400


def test_session_writes_need_csrf(world, alice):
    session = APIClient(enforce_csrf_checks=True)
    session.login(username="alice", password="alice-password-1")
    response = session.post("/api/v1/bots/", {"name": "pepper", "game": "batavia"})
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]
    assert not Bot.objects.filter(name="pepper").exists()


def test_organiser_flag(api_clients, world):
    assert api_clients["organiser"].get("/api/v1/me/").json()["is_organiser"] is True
    assert api_clients["staff"].get("/api/v1/me/").json()["is_organiser"] is True
    assert api_clients["other"].get("/api/v1/me/").json()["is_organiser"] is False


# --- schema and docs ----------------------------------------------------------------------------


def test_openapi_schema_and_docs(db):
    client = client_for(None)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = json.loads(schema.content)["paths"]
    for path in (
        "/api/v1/ladders/{id}/standings/",
        "/api/v1/bots/{id}/upload/",
        "/api/v1/matches/{id}/log/",
        "/api/v1/challenges/",
        "/api/v1/games/",
    ):
        assert path in paths
    docs = client.get("/api/docs/")
    assert docs.status_code == 200 and b"swagger" in docs.content.lower()


@pytest.mark.parametrize(
    ("page", "asset"),
    [("/api/docs/", "swagger-ui-bundle.js"), ("/api/redoc/", "redoc.standalone.js")],
)
def test_api_docs_load_their_scripts_from_this_site_not_a_cdn(db, page, asset):
    """Without internet the docs were blank: Swagger UI came from a CDN at @latest."""
    client = client_for(None)
    html = client.get(page).content.decode()
    scripts = re.findall(r'<script[^>]+src="([^"]+)"', html)
    assert scripts, html
    assert all(src.startswith("/static/") for src in scripts), scripts
    bundle = next(src for src in scripts if src.endswith(asset))
    served = client.get(bundle)
    assert served.status_code == 200
    body = served.getvalue() if served.streaming else served.content
    assert body


@pytest.mark.parametrize("page", ["/api/docs/", "/api/redoc/"])
def test_api_doc_pages_name_no_other_host(db, page):
    """Offline the Redoc page lost its fonts: nothing a docs page names may come from elsewhere
    (fonts, style sheets, scripts, preconnects)."""
    html = client_for(None).get(page).content.decode()
    assert re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}", html) == []


def test_the_schema_tells_users_nothing_of_the_servers_insides(db):
    """Descriptions are for API users: no notes on django-axes, middleware or DRF internals."""
    schema = client_for(None).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    text = schema.content.decode().lower()
    for internal in ("axes", "middleware", "drf", "_request"):
        assert internal not in text, internal


def test_public_lists_are_cached_briefly(api_clients, world, settings):
    settings.MONSOON_API_CACHE_SECONDS = 60
    cache.clear()
    client = api_clients["anonymous"]
    first = ids(client.get("/api/v1/matches/"))
    extra = match_services.rerun_match(world["finished"].pk)
    assert ids(client.get("/api/v1/matches/")) == first  # served from cache
    assert ids(client.get("/api/v1/matches/?status=queued"))[0] == extra.pk  # other query
    cache.clear()
    assert ids(client.get("/api/v1/matches/"))[0] == extra.pk


def test_challenge_rate_limit_is_a_429(api_clients, world, settings):
    settings.MONSOON_CHALLENGES_PER_HOUR = 1
    table = [world["saffron"].pk, world["cinnamon"].pk, world["house"].pk]
    codes = [
        api_clients["owner"].post("/api/v1/challenges/", {"bots": table}, format="json")
        for _ in range(2)
    ]
    assert [c.status_code for c in codes] == [201, 429]
    assert "at most 1 challenges an hour" in codes[1].json()["detail"]


def test_head_to_head(api_clients, world):
    finished = world["finished"]
    places = {
        s.bot_version.bot.name: s.place for s in finished.seats.select_related("bot_version__bot")
    }
    rows = api_clients["anonymous"].get(f"/api/v1/bots/{world['saffron'].pk}/head-to-head/").json()
    assert {r["opponent_name"] for r in rows} == {"cinnamon", "house-bot"}
    for row in rows:
        mine, theirs = places["saffron"], places[row["opponent_name"]]
        assert row["matches"] == 1  # the waiting match does not count
        assert (row["ahead"], row["behind"], row["tied"]) == (
            int(mine < theirs),
            int(mine > theirs),
            int(mine == theirs),
        )


def test_challenges_with_private_bots_stay_private(api_clients, world, alice, bob):
    vanilla = world["vanilla"]
    make_active_version(vanilla)
    table = [vanilla.pk, world["cinnamon"].pk, world["house"].pk]
    made = api_clients["owner"].post("/api/v1/challenges/", {"bots": table}, format="json").json()
    for persona in ("anonymous", "other", "organiser", "owner"):
        assert made["id"] not in ids(api_clients[persona].get("/api/v1/matches/"))
    for persona, status in (
        ("anonymous", 404),
        ("organiser", 404),
        ("owner", 200),
        ("other", 200),
        ("staff", 200),
    ):
        # bob (other) owns cinnamon, seated in it: he may see the match he played.
        assert api_clients[persona].get(f"/api/v1/matches/{made['id']}/").status_code == status
    assert api_clients["anonymous"].get(f"/api/v1/matches/{made['id']}/log/").status_code == 404
    assert [m["id"] for m in api_clients["owner"].get("/api/v1/challenges/").json()["results"]] == [
        made["id"]
    ]
