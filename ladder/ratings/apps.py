from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ladder.ratings"
    label = "ratings"
    verbose_name = "Ratings"

    def ready(self) -> None:
        # Every recorded result moves the ratings at once, in the recording transaction; matches
        # call the handler without importing this app (ratings depend on matches, not back).
        from ladder.matches.services import on_result_recorded
        from ladder.ratings.services import rate_match

        on_result_recorded(rate_match)
