"""Two private bots in one match are told apart, and still lead nowhere.

alice's ``quiet-a`` and bob's ``quiet-b`` played a ranked Batavia match with olivia's public
``loud`` (seats 0, 1, 2); then both owners made their bots private. A stranger reads
"private bot 1" and "private bot 2" (in seat order) wherever the match is shown, so the
moves and the result can be followed; each owner reads their own bot's name and the other's
as "a private bot" (the one bot they may not name); staff read both names.
"""

from __future__ import annotations

import json

import pytest

from ladder.bots import services as bot_services
from ladder.lifecycle import flow
from ladder.lifecycle.types import MatchResult
from tests.factories import (
    api_client,
    engine_json,
    make_active_version,
    make_bot,
    make_match,
    web_client,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(alice, bob, olivia):
    quiet_a, quiet_b, loud = (
        make_bot(alice, "quiet-a"),
        make_bot(bob, "quiet-b"),
        make_bot(olivia, "loud"),
    )
    played = make_match(
        "batavia", [make_active_version(b) for b in (quiet_a, quiet_b, loud)], seed=7
    )
    result = engine_json(played)  # the log names seats ``name vN``, as the runner's does
    seats = played.seats.select_related("bot_version__bot").order_by("seat")
    result["log"]["seats"] = [seat.bot_version.label for seat in seats]
    assert flow.record_result(match_id=played.pk, result=MatchResult.from_json(result)).recorded
    bot_services.update_bot(quiet_a, user=alice, is_public=False)
    bot_services.update_bot(quiet_b, user=bob, is_public=False)
    return played


def _seat_names_in_the_api(match, user) -> dict[str, list[str]]:
    client = api_client(user)
    detail = client.get(f"/api/v1/matches/{match.pk}/").json()
    listed = next(
        m for m in client.get("/api/v1/matches/").json()["results"] if m["id"] == match.pk
    )
    log = client.get(f"/api/v1/matches/{match.pk}/log/").json()
    return {
        "detail": [seat["bot_name"] for seat in detail["seats"]],
        "list": [seat["bot_name"] for seat in listed["seats"]],
        "log": [name.split(" v")[0] for name in log["seats"]],
    }


def test_a_stranger_tells_two_private_bots_apart(match, sam):
    names = _seat_names_in_the_api(match, None)
    expected = ["private bot 1", "private bot 2", "loud"]
    assert names == {"detail": expected, "list": expected, "log": expected}


def test_each_owner_reads_their_own_bot_and_one_private_bot(match, alice, bob, sam):
    assert _seat_names_in_the_api(match, alice)["detail"] == ["quiet-a", "a private bot", "loud"]
    assert _seat_names_in_the_api(match, bob)["list"] == ["a private bot", "quiet-b", "loud"]
    assert _seat_names_in_the_api(match, sam)["log"] == ["quiet-a", "quiet-b", "loud"]


def test_the_match_page_and_its_replay_tell_them_apart(match, olivia):
    page = web_client(olivia).get(f"/matches/{match.pk}/").content.decode()
    assert "quiet-a" not in page and "quiet-b" not in page
    data = json.loads(page.split('id="replay-data" type="application/json">')[1].split("<")[0])
    assert [name.split(" v")[0] for name in data["seats"]] == [
        "private bot 1",
        "private bot 2",
        "loud",
    ]
    assert "private bot 1" in page.split('id="replay-data"')[0]  # the seat table too
