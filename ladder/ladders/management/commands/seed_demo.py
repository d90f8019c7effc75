"""``manage.py seed_demo``: what ``make demo`` needs in its database (see ladder.ladders.demo)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.registry import all_games
from ladder.ladders.demo import ACCOUNTS, DEFAULT_POLICIES, seed_demo


class Command(BaseCommand):
    help = (
        "Create the demo accounts, upload the reference bots of every game as real bot "
        "versions and enable the ladders they can fill. Safe to run again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--policies",
            default=",".join(DEFAULT_POLICIES),
            help="reference bots to upload for every game (comma-separated)",
        )
        parser.add_argument(
            "--games", default="", help="games to seed (comma-separated; default: every game)"
        )
        parser.add_argument(
            "--all-tables",
            action="store_true",
            help="schedule every table size the bots can fill, not only each game's smallest",
        )

    def handle(self, *args: object, **options: object) -> None:
        # argparse gives strings for both lists and a bool for --all-tables.
        policies = tuple(p for p in str(options["policies"]).split(",") if p)
        games = [g for g in str(options["games"]).split(",") if g] or None
        unknown = sorted(set(games or []) - set(all_games()))
        if unknown:
            raise CommandError(f"unknown game(s): {', '.join(unknown)}")
        try:
            report = seed_demo(policies, games, bool(options["all_tables"]))
        except FileNotFoundError as exc:
            raise CommandError(str(exc)) from None
        say = self.stdout.write
        if report.users_created:
            say(f"users created: {', '.join(report.users_created)}")
        if report.bots_created:
            say(f"bots created: {', '.join(report.bots_created)}")
        if report.versions_uploaded:
            say(f"uploaded (validation on a worker): {', '.join(report.versions_uploaded)}")
        else:
            say("reference bots already uploaded")
        say(f"ladders playing: {', '.join(report.ladders_enabled) or 'none'}")
        for account in ACCOUNTS:
            say(f"login {account.username} / {account.password}: {account.role}")
