from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "ladder.web"
    label = "web"
    verbose_name = "Web site"
