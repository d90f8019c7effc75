"""Another user's private bot is indistinguishable from a missing one, everywhere."""

from __future__ import annotations

import pytest

from ladder.core.errors import ServiceError
from ladder.matches import services as match_services
from ladder.tournaments import services as ts
from tests.factories import api_client as client_for
from tests.factories import make_active_version, make_bot, play_and_record
from tests.tournaments.play import NOW, new_tournament

pytestmark = pytest.mark.django_db
MISSING_ID = 999_999


def _answer(client, path, payload):
    response = client.post(path, payload, format="json")
    return response.status_code, response.json()["detail"].replace(str(payload_id(payload)), "ID")


def payload_id(payload):
    value = payload.get("bot", payload.get("bots"))
    return value[-1] if isinstance(value, list) else value


def test_challenging_a_private_bot_reads_like_a_missing_one(alice, bob):
    mine = make_bot(alice, "mine")
    make_active_version(mine)
    secret = make_bot(bob, "secret-sauce", public=False)
    client = client_for(alice)
    private = _answer(client, "/api/v1/challenges/", {"bots": [mine.pk, secret.pk]})
    missing = _answer(client, "/api/v1/challenges/", {"bots": [mine.pk, MISSING_ID]})
    assert private == missing
    assert "secret-sauce" not in private[1]


def test_entering_a_private_bot_reads_like_a_missing_one(alice, bob, olivia):
    t = new_tournament(olivia)
    secret = make_bot(bob, "secret-sauce", public=False)
    answers = []
    for bot_id in (secret.pk, MISSING_ID):
        with pytest.raises(ServiceError) as refused:
            ts.register_entrant(t.pk, user=olivia, bot_id=bot_id, now=NOW)
        answers.append((type(refused.value), str(refused.value).replace(str(bot_id), "ID")))
    assert answers[0] == answers[1]
    assert "secret-sauce" not in answers[0][1]


def test_head_to_head_hides_private_opponents_from_the_public(alice, bob, settings):
    public = make_bot(alice, "open-book")
    secret = make_bot(bob, "secret-sauce", public=False)
    third = make_bot(alice, "third")
    for bot in (public, secret, third):
        make_active_version(bot)
    match = match_services.create_challenge(bob, [secret.pk, public.pk, third.pk], seed=3)
    play_and_record(match)
    # A challenge with bob's private bot is his experiment: to others it never happened, so
    # head to head (which counts only the matches its reader may see) has nothing to count.
    assert client_for(None).get(f"/api/v1/bots/{public.pk}/head-to-head/").json() == []
    owner_rows = client_for(bob).get(f"/api/v1/bots/{public.pk}/head-to-head/").json()
    assert {"secret-sauce", "third"} <= {r["opponent_name"] for r in owner_rows}
