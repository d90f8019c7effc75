from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "ladder.accounts"
    label = "accounts"
    verbose_name = "Accounts"
