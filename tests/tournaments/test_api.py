"""The tournament API with the api_clients: who may do what, and clear answers when not."""

from __future__ import annotations

import json
from datetime import timedelta

from django.utils import timezone

from ladder.tournaments import services as ts
from ladder.tournaments.models import Tournament
from ladder.tournaments.tournament_settings import TournamentSettings
from tests.factories import api_client as client_for
from tests.tournaments.play import NOW, START, new_tournament, play_pending

BODY = {
    "name": "Spring open",
    "game": "batavia",
    "num_players": 3,
    "format": "swiss",
    "starts_at": (timezone.now() + timedelta(days=30)).isoformat(),
}


def test_only_organisers_and_staff_create(api_clients):
    assert api_clients["anonymous"].post(
        "/api/v1/tournaments/", BODY, format="json"
    ).status_code in (
        401,
        403,
    )
    answer = api_clients["owner"].post("/api/v1/tournaments/", BODY, format="json")
    assert answer.status_code == 403
    assert answer.json()["detail"] == "only organisers and staff can create tournaments"
    for who in ("organiser", "staff"):
        answer = api_clients[who].post("/api/v1/tournaments/", BODY, format="json")
        assert answer.status_code == 201, answer.json()
        assert answer.json()["status"] == "scheduled" and not answer.json()["ranked"]


def test_a_non_organiser_gets_403_before_the_body_is_read(api_clients):
    """The create docstring promises 403; an incomplete body once answered 400 "starts_at"."""
    for body in ({}, {"game": "batavia"}, {"name": 5, "starts_at": "soon"}):
        answer = api_clients["owner"].post("/api/v1/tournaments/", body, format="json")
        assert answer.status_code == 403, answer.json()
        assert answer.json()["detail"] == "only organisers and staff can create tournaments"
    assert (
        api_clients["anonymous"].post("/api/v1/tournaments/", {}, format="json").status_code == 401
    )
    assert not Tournament.objects.exists()


def test_bad_input_gets_a_specific_400(api_clients):
    cases: list[tuple[dict[str, object], str]] = [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"num_players": 7}, "batavia is for 3-5 players per table, not 7"),
        ({"format": "knockout"}, "unknown format 'knockout'"),
        ({"games_per_pairing": 0}, "games_per_pairing must be at least 1"),
        (
            {"registration_closes_at": (timezone.now() + timedelta(days=31)).isoformat()},
            "the tournament cannot start before registration closes",
        ),
    ]
    for change, message in cases:
        answer = api_clients["organiser"].post("/api/v1/tournaments/", BODY | change, format="json")
        assert answer.status_code == 400, answer.json()
        assert answer.json()["detail"].startswith(message), answer.json()
    answer = api_clients["organiser"].post(
        "/api/v1/tournaments/", {"game": "batavia"}, format="json"
    )
    assert answer.status_code == 400 and "starts_at" in answer.json()


def test_listing_public_unlisted_and_own(olivia, alice, bob, api_clients, field):
    public = new_tournament(olivia, name="public")
    unlisted = new_tournament(olivia, name="unlisted", is_public=False)
    ts.register_entrant(unlisted.pk, user=olivia, bot_id=field[1].pk, now=NOW)  # bob's bot, invited

    def names(client):
        return {t["name"] for t in client.get("/api/v1/tournaments/").json()["results"]}

    assert names(api_clients["anonymous"]) == {"public"}
    assert names(api_clients["owner"]) == {"public"}
    assert names(api_clients["other"]) == {"public", "unlisted"}  # bob's bot is in it
    assert names(api_clients["organiser"]) == names(api_clients["staff"]) == {"public", "unlisted"}
    # Unlisted is reachable by its link.
    assert api_clients["anonymous"].get(f"/api/v1/tournaments/{unlisted.pk}/").status_code == 200
    assert public.pk


def test_register_and_unregister_through_the_api(olivia, api_clients, field, alice):
    # The API runs on the real clock: registration open from now until a start tomorrow.
    t = ts.create_tournament(
        olivia,
        settings=TournamentSettings(
            name="now",
            game="batavia",
            num_players=3,
            format="swiss",
            starts_at=timezone.now() + timedelta(days=1),
        ),
    )
    url = f"/api/v1/tournaments/{t.pk}/entrants/"
    mine, bobs = field[0], field[1]
    assert api_clients["owner"].post(url, {"bot": bobs.pk}, format="json").status_code == 403
    answer = api_clients["owner"].post(url, {"bot": mine.pk}, format="json")
    assert answer.status_code == 201 and answer.json()["bot_name"] == "bot-0"
    assert api_clients["owner"].post(url, {"bot": mine.pk}, format="json").status_code == 409
    answer = api_clients["organiser"].post(url, {"bot": bobs.pk}, format="json")
    assert answer.status_code == 201 and answer.json()["invited"]
    assert [e["bot"] for e in api_clients["anonymous"].get(url).json()] == [mine.pk, bobs.pk]
    assert api_clients["other"].delete(f"{url}{mine.pk}/").status_code == 403
    assert api_clients["owner"].delete(f"{url}{mine.pk}/").status_code == 204
    assert api_clients["owner"].delete(f"{url}{mine.pk}/").status_code == 404
    assert api_clients["anonymous"].delete(f"{url}{bobs.pk}/").status_code in (401, 403)


def test_controls_are_for_the_organiser_and_staff(olivia, api_clients, field):
    t = new_tournament(olivia)
    base = f"/api/v1/tournaments/{t.pk}"
    for who in ("owner", "other"):
        answer = api_clients[who].post(f"{base}/pause/", {}, format="json")
        assert answer.status_code == 403
        assert "organiser or staff" in answer.json()["detail"]
    answer = api_clients["organiser"].post(f"{base}/pause/", {"reason": "checking"}, format="json")
    assert answer.status_code == 200 and answer.json()["status"] == "paused"
    assert answer.json()["status_reason"] == "checking"
    assert api_clients["staff"].post(f"{base}/resume/").json()["status"] == "scheduled"
    assert api_clients["staff"].post(f"{base}/resume/").status_code == 409
    assert api_clients["organiser"].post(f"{base}/cancel/").json()["status"] == "cancelled"


def test_a_played_tournament_through_the_api(olivia, field, django_capture_on_commit_callbacks):
    t = new_tournament(olivia, format="swiss", rounds=2, duplicate=True)
    for bot in field[:4]:
        ts.register_entrant(t.pk, user=bot.owner, bot_id=bot.pk, now=NOW)
    ts.tick(now=START)
    client = client_for(None)
    base = f"/api/v1/tournaments/{t.pk}"
    detail = client.get(f"{base}/").json()
    assert detail["progress"] == {
        "status": "running",
        "current_round": 1,
        "rounds": 2,
        "matches_done": 0,
        "matches_created": 3,
        "matches_total": 6,
    }
    play_pending(django_capture_on_commit_callbacks, t)
    detail = client.get(f"{base}/").json()
    assert detail["status"] == "finished" and detail["progress"]["matches_done"] == 6
    rounds = client.get(f"{base}/rounds/").json()
    assert [r["number"] for r in rounds] == [1, 2]
    assert all(len(r["byes"]) == 1 and len(r["tables"]) == 1 for r in rounds)
    block = rounds[0]["tables"][0]["matches"]
    assert len(block) == 3 and len({m["block"] for m in block}) == 1
    standings = client.get(f"{base}/standings/").json()
    assert len(standings) == 4 and standings[0]["rank"] == 1
    cross = client.get(f"{base}/crosstable/").json()
    assert len(cross["rows"]) == 4
    matches = client.get(f"{base}/matches/").json()["results"]
    assert len(matches) == 6 and {m["round"] for m in matches} == {1, 2}
    assert client.get(f"{base}/matches/?round=2").json()["results"][0]["round"] == 2
    assert Tournament.objects.get(pk=t.pk).final_crosstable == cross


def test_schema_has_the_tournament_endpoints(db):
    schema = client_for(None).get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = json.loads(schema.content)["paths"]
    for path in (
        "/api/v1/tournaments/",
        "/api/v1/tournaments/{id}/",
        "/api/v1/tournaments/{id}/entrants/",
        "/api/v1/tournaments/{id}/entrants/{bot_id}/",
        "/api/v1/tournaments/{id}/standings/",
        "/api/v1/tournaments/{id}/crosstable/",
        "/api/v1/tournaments/{id}/rounds/",
        "/api/v1/tournaments/{id}/matches/",
        "/api/v1/tournaments/{id}/pause/",
    ):
        assert path in paths, path


def test_match_counts_beyond_what_a_tournament_plays_are_a_400(api_clients, settings):
    settings.MONSOON_TOURNAMENT_MAX_MATCHES = 5000
    cases: list[tuple[dict[str, object], str]] = [
        ({"games_per_pairing": 40_000}, "games_per_pairing 40000 makes 40000 matches"),
        ({"games_per_pairing": 30_000}, "games_per_pairing 30000 makes 30000 matches"),
        (
            {"format": "round_robin", "games_per_pairing": 2000},
            "games_per_pairing 2000 makes 6000 matches",
        ),
        ({"rounds": 40_000}, "40000 rounds of 1 matches a table exceed the 5000"),
        ({"rounds": 30_000}, "30000 rounds of 1 matches a table exceed the 5000"),
    ]
    for change, message in cases:
        answer = api_clients["organiser"].post("/api/v1/tournaments/", BODY | change, format="json")
        assert answer.status_code == 400, answer.json()
        assert answer.json()["detail"].startswith(message), answer.json()
    assert (
        api_clients["organiser"]
        .post("/api/v1/tournaments/", {**BODY, "rounds": 5000}, format="json")
        .status_code
        == 201
    )


def test_tournaments_filter_by_pairing_not_by_the_renderer_switch(olivia, api_clients):
    """``?format=swiss`` was taken by DRF as a renderer name and answered 404."""
    new_tournament(olivia, name="swiss cup", format="swiss")
    new_tournament(olivia, name="round robin", format="round_robin")
    anonymous = api_clients["anonymous"]
    swiss = anonymous.get("/api/v1/tournaments/?pairing=swiss")
    assert swiss.status_code == 200
    assert [t["name"] for t in swiss.json()["results"]] == ["swiss cup"]
    refused = anonymous.get("/api/v1/tournaments/?pairing=knockout")
    assert refused.status_code == 400 and "pairing" in refused.json()
