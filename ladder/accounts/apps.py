from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "ladder.accounts"
    label = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in
        from django.core.checks import Tags, register

        from ladder.accounts.lockout import forget_the_pairs_failures
        from ladder.core.secret_key import check_secret_key

        register(check_secret_key, Tags.security, deploy=True)
        user_logged_in.connect(forget_the_pairs_failures, dispatch_uid="forget-the-pairs-failures")
