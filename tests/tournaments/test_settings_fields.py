"""A tournament's editable settings are listed once (TournamentSettings): the admin's form,
the API's create serializer and the service agree on them."""

from __future__ import annotations

from dataclasses import replace

from ladder.api.serializers.tournaments import TournamentCreateSerializer
from ladder.tournaments import services as ts
from ladder.tournaments.admin import TournamentForm
from ladder.tournaments.tournament_settings import TournamentSettings
from tests.tournaments.play import NOW, new_tournament


def test_the_admin_and_the_api_take_every_setting_and_only_those():
    names = set(TournamentSettings.field_names())
    assert set(TournamentCreateSerializer().fields) == names
    assert set(TournamentForm.base_fields) == names


def test_stored_settings_read_back_and_change_one_at_a_time(olivia):
    t = new_tournament(olivia, games_per_pairing=2, time_zone="Europe/Paris")
    stored = TournamentSettings.of(t)
    assert (stored.games_per_pairing, stored.time_zone, stored.game) == (2, "Europe/Paris", t.game)
    ts.update_tournament(t.pk, user=olivia, settings=replace(stored, name="renamed"), now=NOW)
    t.refresh_from_db()
    assert (t.name, t.games_per_pairing, t.time_zone) == ("renamed", 2, "Europe/Paris")
