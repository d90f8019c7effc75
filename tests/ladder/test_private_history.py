"""A bot made private after it played leaves no name in public history.

The story, on the suite's api_clients: alice's bot ``zephyr-quill`` plays ranked Batavia matches
against two of bob's bots and a round-robin tournament olivia organises; then alice makes it
private.  Its own page is a 404 to others already; here every page and API answer that shows
its history (match lists and pages, replay narration, logs, tournament entrants, standings,
cross-table, rounds, head to head, ratings) must read "a private bot" to anybody but alice and
staff (sam), with no name, id, version or owner that leads back to it.  Head to head counts
only the matches the reader may see: bob's private challenge is not one of them for others.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
import zstandard
from django.test import Client
from rest_framework.test import APIClient

from engine.log import replay
from ladder.bots import services as bot_services
from ladder.bots.models import Bot, BotVersion
from ladder.bots.selectors import PRIVATE_BOT_NAME
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from ladder.matches import services as match_services
from ladder.matches.models import Match
from ladder.tournaments import services as ts
from ladder.tournaments.models import Tournament
from tests.factories import api_client as client_for
from tests.factories import (
    engine_json,
    ladder_for,
    make_active_version,
    make_bot,
    make_match,
    play_and_record,
    web_client,
)
from tests.tournaments.play import START, new_tournament, play_pending

pytestmark = pytest.mark.django_db

SECRET = "zephyr-quill"
STRANGERS = ("anonymous", "other", "organiser")
ALLOWED = ("owner", "staff")


@dataclass
class History:
    secret: Bot
    version: BotVersion
    rival: Bot
    ranked: list[Match]
    queued: Match
    tournament: Tournament


@pytest.fixture
def history(alice, bob, olivia, settings, django_capture_on_commit_callbacks) -> History:
    settings.MONSOON_API_CACHE_SECONDS = 30  # the shared list cache must not carry the name
    secret = make_bot(alice, SECRET)
    version = make_active_version(secret)
    rival, other = make_bot(bob, "rival-a"), make_bot(bob, "rival-b")
    hidden = make_bot(bob, "bobs-lab", public=False)
    versions = [version, make_active_version(rival), make_active_version(other)]
    make_active_version(hidden)
    ranked = []
    for seed in (1, 2, 3):
        match = make_match("batavia", versions, seed=seed)
        _record_as_the_runner_does(match)
        ranked.append(match)
    # bob's own experiment with his private bot: nobody else sees it, nor counts it.
    challenge = match_services.create_challenge(bob, [hidden.pk, rival.pk, other.pk], seed=4)
    play_and_record(challenge)
    queued = make_match("batavia", versions, seed=5)
    t = new_tournament(olivia, format="round_robin", name="Spring cup")
    for bot in (secret, rival, other):
        ts.register_entrant(t.pk, user=bot.owner, bot_id=bot.pk, now=START - timedelta(hours=1))
    ts.tick(now=START)
    play_pending(django_capture_on_commit_callbacks, t)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED, t.status_reason
    # Every list is read (and cached) once while the bot is still public.
    assert SECRET in client_for(None).get("/api/v1/matches/").content.decode()
    bot_services.update_bot(secret, user=alice, is_public=False)
    return History(secret, version, rival, ranked, queued, t)


def _record_as_the_runner_does(match: Match) -> None:
    """The log names seats ``name vN`` as the match spec does, and the first bot leaves a
    debug note (public, free text) signed with its name."""
    result = engine_json(match)
    seats = match.seats.select_related("bot_version__bot").order_by("seat")
    result["log"]["seats"] = [seat.bot_version.label for seat in seats]
    first = next(d for d in result["log"]["decisions"] if d["seat"] == 0)
    first["debug"] = f"{SECRET} thinks this is a good move"
    assert flow.record_result(match_id=match.pk, result=MatchResult.from_json(result)).recorded


def _api_paths(h: History) -> dict[str, str]:
    t, m = h.tournament.pk, h.ranked[0].pk
    return {
        "match list": "/api/v1/matches/",
        "match list of a rival": f"/api/v1/matches/?bot={h.rival.pk}",
        "match detail": f"/api/v1/matches/{m}/",
        "queued match": f"/api/v1/matches/{h.queued.pk}/",
        "match log": f"/api/v1/matches/{m}/log/",
        "entrants": f"/api/v1/tournaments/{t}/entrants/",
        "standings": f"/api/v1/tournaments/{t}/standings/",
        "cross-table": f"/api/v1/tournaments/{t}/crosstable/",
        "rounds": f"/api/v1/tournaments/{t}/rounds/",
        "tournament matches": f"/api/v1/tournaments/{t}/matches/",
        "head to head": f"/api/v1/bots/{h.rival.pk}/head-to-head/",
        "rival's ratings": f"/api/v1/bots/{h.rival.pk}/ratings/",
        "ladder standings": f"/api/v1/ladders/{ladder_for('batavia', 3).pk}/standings/",
    }


def _web_paths(h: History) -> dict[str, str]:
    return {
        "home": "/",
        "match page": f"/matches/{h.ranked[0].pk}/",
        "tournament match page": f"/matches/{h.tournament.tournament_matches.all()[0].match_id}/",
        "queued match page": f"/matches/{h.queued.pk}/",
        "rival's page": f"/bots/{h.rival.name}/",
        "tournament page": f"/tournaments/{h.tournament.pk}/",
        "ladder standings": "/ladders/batavia/3/",
    }


API_PAGES = [
    "match list",
    "match list of a rival",
    "match detail",
    "queued match",
    "match log",
    "entrants",
    "standings",
    "cross-table",
    "rounds",
    "tournament matches",
    "head to head",
    "rival's ratings",
    "ladder standings",
]
WEB_PAGES = [
    "home",
    "match page",
    "tournament match page",
    "queued match page",
    "rival's page",
    "tournament page",
    "ladder standings",
]
SHOWN_ON = {  # where the bot's history shows at all (the ladder tables list public bots only)
    "match list",
    "match list of a rival",
    "match detail",
    "queued match",
    "match log",
    "entrants",
    "standings",
    "cross-table",
    "rounds",
    "tournament matches",
    "head to head",
    "home",
    "match page",
    "tournament match page",
    "queued match page",
    "rival's page",
    "tournament page",
}


def _get(client: APIClient | Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def _ids_pointing_at(value: Any, h: History) -> list[tuple[str, Any]]:
    """Every ``bot``/``version``/``opponent`` key of a JSON answer holding the bot's ids."""
    found: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            bot_id = key in ("bot", "opponent") and item == h.secret.pk
            if bot_id or (key == "version" and item == h.version.pk):
                found.append((key, item))
            else:
                found += _ids_pointing_at(item, h)
    elif isinstance(value, list):
        for item in value:
            found += _ids_pointing_at(item, h)
    return found


@pytest.mark.parametrize("page", API_PAGES)
@pytest.mark.parametrize("role", STRANGERS)
def test_strangers_read_a_private_bot_in_the_api(history, api_clients, page, role):
    text = _get(api_clients[role], _api_paths(history)[page])
    assert SECRET not in text
    assert "alice" not in text  # the owner's name leads to the bot too
    assert not _ids_pointing_at(json.loads(text), history)
    if page in SHOWN_ON:
        assert PRIVATE_BOT_NAME in text


@pytest.mark.parametrize("page", [p for p in API_PAGES if p in SHOWN_ON])
@pytest.mark.parametrize("role", ALLOWED)
def test_the_owner_and_staff_still_read_the_name_in_the_api(history, api_clients, page, role):
    text = _get(api_clients[role], _api_paths(history)[page])
    assert SECRET in text
    assert PRIVATE_BOT_NAME not in text


@pytest.mark.parametrize("page", WEB_PAGES)
@pytest.mark.parametrize("role", STRANGERS)
def test_strangers_read_a_private_bot_on_every_page(history, web_clients, page, role):
    text = _get(web_clients[role], _web_paths(history)[page])
    assert SECRET not in text
    assert f"/bots/{SECRET}/" not in text
    if page in SHOWN_ON:
        assert PRIVATE_BOT_NAME in text


@pytest.mark.parametrize("page", [p for p in WEB_PAGES if p in SHOWN_ON])
@pytest.mark.parametrize("role", ALLOWED)
def test_the_owner_and_staff_still_read_the_name_on_pages(history, web_clients, page, role):
    text = _get(web_clients[role], _web_paths(history)[page])
    assert SECRET in text


def test_the_replay_narration_names_a_private_bot_as_such(history, bob, alice):
    """The match page's replay sentences name bots: the stranger's say "a private bot"."""

    def narration(user) -> list[str]:
        page = _get(web_client(user), f"/matches/{history.ranked[0].pk}/")
        data = json.loads(page.split('id="replay-data" type="application/json">')[1].split("<")[0])
        lines = [f["decision"]["text"] for f in data["frames"] if "decision" in f]
        return [*lines, data["result"]["text"] if data["result"] else ""]

    strangers = narration(bob)
    assert any(PRIVATE_BOT_NAME in line for line in strangers)
    assert not any(SECRET in line for line in strangers)
    assert any(SECRET in line for line in narration(alice))


@pytest.mark.parametrize("encoding", ["", "gzip", "zstd"])
def test_a_strangers_log_download_leads_nowhere(history, bob, encoding):
    """Whatever the coding, the downloaded log holds no name or note of the bot and differs
    from the owner's in nothing else (no other field can lead to it); it still replays."""
    headers = {"HTTP_ACCEPT_ENCODING": encoding} if encoding else {}
    path = f"/api/v1/matches/{history.ranked[0].pk}/log/"
    response = client_for(bob).get(path, **headers)
    assert response.status_code == 200
    body = response.content
    if encoding == "gzip":
        body = gzip.decompress(body)
    elif encoding == "zstd":
        body = zstandard.ZstdDecompressor().decompress(body)
    assert SECRET not in body.decode()
    log = json.loads(body)
    assert log["seats"] == [PRIVATE_BOT_NAME, "rival-a v1", "rival-b v1"]
    replay(log)
    owner_log = json.loads(client_for(history.secret.owner).get(path).content)
    assert owner_log["seats"][0] == f"{SECRET} v1"
    assert any(SECRET in d.get("debug", "") for d in owner_log["decisions"])
    # Take away the seat's name and its bot's own notes: what is left is the same log.
    owner_log["seats"][0] = PRIVATE_BOT_NAME
    for decision in owner_log["decisions"]:
        if decision["seat"] == 0:
            decision.pop("debug", None)
    assert log == owner_log


def test_head_to_head_counts_only_the_matches_the_reader_sees(history, api_clients):
    """bob's private challenge (rival-a against rival-b) is his alone: the public head to head
    of rival-a counts exactly the matches the public match list shows them playing together."""
    other = Bot.objects.get(name="rival-b")

    def together(client) -> int:
        rows = client.get(f"/api/v1/matches/?bot={history.rival.pk}&page_size=200").json()
        return sum(
            1
            for m in rows["results"]
            if m["status"] == "finished" and other.pk in [s["bot"] for s in m["seats"]]
        )

    def counted(client) -> int:
        rows = client.get(f"/api/v1/bots/{history.rival.pk}/head-to-head/").json()
        return next(r["matches"] for r in rows if r["opponent"] == other.pk)

    played = 3 + history.tournament.tournament_matches.count()  # ranked + the tournament's
    stranger = api_clients["anonymous"]
    assert counted(stranger) == together(stranger) == played
    assert counted(api_clients["other"]) == played + 1  # bob sees his own challenge
    rows = stranger.get(f"/api/v1/bots/{history.rival.pk}/head-to-head/").json()
    private = [r for r in rows if r["opponent"] is None]
    assert [r["opponent_name"] for r in private] == [PRIVATE_BOT_NAME]
    assert private[0]["matches"] == played


def test_only_the_owner_and_staff_reach_the_bot_itself(history, api_clients):
    for role in (*STRANGERS, *ALLOWED):
        status = api_clients[role].get(f"/api/v1/bots/{history.secret.pk}/ratings/").status_code
        assert status == (200 if role in ALLOWED else 404), role


def test_the_stored_snapshots_keep_the_name(history):
    """Masking happens per reader: the finished tournament's stored tables are unchanged."""
    history.tournament.refresh_from_db()
    assert SECRET in json.dumps(history.tournament.final_standings)


def test_the_organisers_invite_page_reads_a_private_bot_too(history, web_clients):
    """olivia runs the tournament but does not own the bot: no name, link or id to remove."""
    path = f"/tournaments/{history.tournament.pk}/invite/"
    organiser = _get(web_clients["organiser"], path)
    assert PRIVATE_BOT_NAME in organiser
    assert SECRET not in organiser
    assert f'name="remove" value="{history.secret.pk}"' not in organiser
    assert SECRET in _get(web_clients["staff"], path)


@pytest.mark.parametrize("role", [*STRANGERS, *ALLOWED])
def test_the_bots_id_lists_its_matches_only_for_the_owner_and_staff(history, api_clients, role):
    """A private bot's id (known from before) filters nothing for others, as a missing id."""
    for query in (f"bot={history.secret.pk}", f"version={history.version.pk}"):
        rows = api_clients[role].get(f"/api/v1/matches/?{query}").json()["results"]
        assert bool(rows) == (role in ALLOWED), query
