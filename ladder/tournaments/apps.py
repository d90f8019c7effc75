from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "ladder.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"
