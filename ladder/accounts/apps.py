from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "ladder.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.core.checks import Tags, register

        from ladder.core.secret_key import check_secret_key

        register(check_secret_key, Tags.security, deploy=True)
