from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "ladder.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The home page lists running tournaments; the registry is in core, so this app never
        # imports the web app (which only renders the sections it is given).
        from ladder.core.sections import register_home_section
        from ladder.tournaments.sections import running_section

        register_home_section(running_section)
