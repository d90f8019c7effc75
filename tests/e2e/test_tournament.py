"""A whole tournament on the real worker path: beat starts it at its start time, a Celery
worker plays every round in the sandbox, rounds advance as their last match is recorded.

Personas: olivia organises; alice and bob register their bots; the workers are the operators'.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from ladder.accounts.services import create_user, set_organiser
from ladder.bots import services as bot_services
from ladder.matches.models import Match
from ladder.ratings.models import Rating
from ladder.tournaments import selectors
from ladder.tournaments import services as ts
from ladder.tournaments.models import Tournament
from ladder.tournaments.tournament_settings import TournamentSettings
from tests.e2e.stack import wait_for
from tests.factories import accept, make_bot
from tests.factories import api_client as client_for
from tests.workers.sandbox_helpers import needs_sandbox

# Serialized rollback: the rows the migrations made (ladders, the organisers group, content
# types) are restored after each test's flush, as the other transactional tests expect.
pytestmark = [
    needs_sandbox,
    pytest.mark.e2e,
    pytest.mark.django_db(transaction=True),
]
REFERENCE = Path(__file__).resolve().parents[2] / "bots" / "reference"


def entered_bot(owner, name: str, reference: str):
    bot = make_bot(owner, name, "packet_row")
    data = (REFERENCE / reference / "main.py").read_bytes()
    version = bot_services.upload_version(bot, user=owner, filename="main.py", data=data)
    bot_services.validate_version(version.pk, validator=accept)
    return bot


def test_a_swiss_tournament_runs_on_the_workers_from_its_start_time(fleet):
    olivia = create_user("olivia", password="olivia-password-1")
    set_organiser(olivia)
    alice = create_user("alice", password="alice-password-1")
    bob = create_user("bob", password="bob-password-1")
    now = timezone.now()
    tournament = ts.create_tournament(
        olivia,
        now=now,
        settings=TournamentSettings(
            name="Monsoon open",
            game="packet_row",
            num_players=2,
            format="swiss",
            rounds=3,
            registration_opens_at=now,
            registration_closes_at=now + timedelta(seconds=4),
            starts_at=now + timedelta(seconds=5),
        ),
    )
    bots = [
        entered_bot(alice, "a-greedy", "greedy"),
        entered_bot(alice, "a-random", "random"),
        entered_bot(bob, "b-greedy", "greedy"),
        entered_bot(bob, "b-random", "random"),
    ]
    for bot in bots:
        ts.register_entrant(tournament.pk, user=bot.owner, bot_id=bot.pk, now=now)
    fleet.worker("w1", MONSOON_TOURNAMENT_TICK_SECONDS="1")
    fleet.beat(MONSOON_TOURNAMENT_TICK_SECONDS="1")

    wait_for(
        lambda: Tournament.objects.get(pk=tournament.pk).status != "scheduled",
        30,
        "the beat to start the tournament at its start time",
    )
    tournament.refresh_from_db()
    assert tournament.started_at is not None and tournament.started_at >= tournament.starts_at
    wait_for(
        lambda: Tournament.objects.get(pk=tournament.pk).status == "finished",
        180,
        "every round to be played on the worker",
    )

    tournament.refresh_from_db()
    progress = selectors.progress(tournament)
    assert progress["matches_done"] == progress["matches_total"] == tournament.planned_matches
    matches = Match.objects.filter(tournament_match__tournament=tournament)
    assert matches.count() == tournament.planned_matches
    assert {m.status for m in matches} == {Match.Status.FINISHED}
    assert all(m.worker.startswith("w1@") and not m.ranked for m in matches)
    assert not Rating.objects.exists()  # tournament matches are unrated unless asked
    standings = client_for(None).get(f"/api/v1/tournaments/{tournament.pk}/standings/").json()
    assert sorted(row["rank"] for row in standings) == [1, 2, 3, 4]
    assert {row["bot_name"] for row in standings} == {b.name for b in bots}
