"""Users: Django's user with room to grow (a custom model cannot be swapped in later)."""

from django.contrib.auth.models import AbstractUser

ORGANISERS_GROUP = "organisers"


class User(AbstractUser):
    """A person who owns bots, asks for challenges and (as an organiser) runs tournaments."""

    class Meta:
        db_table = "accounts_user"
