from django.apps import AppConfig, apps


class TournamentsConfig(AppConfig):
    name = "ladder.tournaments"
    label = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        # The home page shows running tournaments when the web site is installed too.
        if apps.is_installed("ladder.web"):
            from ladder.tournaments.sections import running_section
            from ladder.web.sections import register_home_section

            register_home_section(running_section)
