"""The admin creates tournaments through the service's validation."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from ladder.tournaments.models import Tournament


def test_staff_create_through_the_admin(sam):
    client = Client()
    client.force_login(sam)
    assert client.get("/admin/tournaments/tournament/").status_code == 200
    starts = timezone.now() + timedelta(days=2)
    form = {
        "name": "Admin cup",
        "game": "batavia",
        "num_players": 3,
        "variant": "",
        "format": "round_robin",
        "games_per_pairing": 1,
        "advance": 1,
        "registration_opens_at_0": timezone.now().strftime("%Y-%m-%d"),
        "registration_opens_at_1": "00:00:00",
        "registration_closes_at_0": starts.strftime("%Y-%m-%d"),
        "registration_closes_at_1": "00:00:00",
        "starts_at_0": starts.strftime("%Y-%m-%d"),
        "starts_at_1": "00:00:00",
        "is_public": "on",
        "entrants-TOTAL_FORMS": 0,
        "entrants-INITIAL_FORMS": 0,
        "round_set-TOTAL_FORMS": 0,
        "round_set-INITIAL_FORMS": 0,
    }
    bad = client.post("/admin/tournaments/tournament/add/", {**form, "num_players": 9})
    assert bad.status_code == 200 and b"batavia is for 3-5 players" in bad.content
    assert not Tournament.objects.exists()
    answer = client.post("/admin/tournaments/tournament/add/", form)
    assert answer.status_code == 302, answer.content[:2000]
    t = Tournament.objects.get()
    assert t.organiser == sam and t.variant == "standard" and t.seed is not None
