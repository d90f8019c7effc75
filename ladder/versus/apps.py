from django.apps import AppConfig


class VersusConfig(AppConfig):
    name = "ladder.versus"
    label = "versus"
    verbose_name = "Version tests"
