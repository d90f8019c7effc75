"""Unranked challenges: own bot against public bots, rate-limited, never rated."""

from __future__ import annotations

import pytest

from ladder.core.errors import Conflict, NotAllowed, RateLimited, ServiceError
from ladder.lifecycle import flow
from ladder.matches.models import Match
from ladder.matches.services import create_challenge
from ladder.ratings.models import Rating
from tests.factories import engine_result, make_active_version, make_bot


@pytest.fixture
def bots(alice, bob, olivia):
    return {
        "alice": make_active_version(make_bot(alice, "saffron")).bot,
        "bob": make_active_version(make_bot(bob, "cinnamon")).bot,
        "olivia": make_active_version(make_bot(olivia, "cardamom")).bot,
        "secret": make_active_version(make_bot(bob, "vanilla", public=False)).bot,
    }


def test_challenge_is_an_unranked_queued_match_in_the_given_seat_order(alice, bots):
    order = [bots["bob"].pk, bots["alice"].pk, bots["olivia"].pk]
    match = create_challenge(alice, order)
    assert (match.kind, match.ranked, match.status) == ("challenge", False, "queued")
    assert [s.bot_version.bot_id for s in match.seats.order_by("seat")] == order
    assert flow.record_result(match_id=match.pk, result=engine_result(match)).recorded
    assert not Rating.objects.exists()


def test_must_include_an_own_bot(alice, bots):
    with pytest.raises(NotAllowed, match="your own"):
        create_challenge(alice, [bots["bob"].pk, bots["olivia"].pk])


def test_private_bots_of_others_cannot_be_challenged(alice, bob, bots):
    # A private bot of someone else reads exactly like a missing one (its name must not leak).
    with pytest.raises(ServiceError, match=f"^no such bot: {bots['secret'].pk}$"):
        create_challenge(alice, [bots["alice"].pk, bots["secret"].pk, bots["olivia"].pk])
    # ...but their owner may use them.
    assert create_challenge(bob, [bots["secret"].pk, bots["alice"].pk, bots["bob"].pk])


def test_bad_tables_are_refused(alice, bots):
    with pytest.raises(ServiceError, match="only one seat"):
        create_challenge(alice, [bots["alice"].pk, bots["alice"].pk, bots["bob"].pk])
    with pytest.raises(ServiceError, match="3-5 players, not 2"):
        create_challenge(alice, [bots["alice"].pk, bots["bob"].pk])
    with pytest.raises(ServiceError, match="no such bot: 999999"):
        create_challenge(alice, [bots["alice"].pk, 999999, bots["bob"].pk])
    pending = make_bot(alice, "ginger")
    with pytest.raises(Conflict, match="no active version"):
        create_challenge(alice, [pending.pk, bots["bob"].pk, bots["olivia"].pk])


def test_rate_limited_per_user(alice, bots, settings):
    settings.MONSOON_CHALLENGES_PER_HOUR = 2
    table = [bots["alice"].pk, bots["bob"].pk, bots["olivia"].pk]
    create_challenge(alice, table)
    create_challenge(alice, table)
    with pytest.raises(RateLimited, match="at most 2 challenges an hour"):
        create_challenge(alice, table)
    assert Match.objects.count() == 2
