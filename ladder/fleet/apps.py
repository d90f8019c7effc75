from django.apps import AppConfig


class FleetConfig(AppConfig):
    name = "ladder.fleet"
    label = "fleet"
    verbose_name = "Worker fleet"
