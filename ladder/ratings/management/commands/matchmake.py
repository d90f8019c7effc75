from typing import cast

from django.core.management.base import BaseCommand, CommandParser

from ladder.core.seeded import seeded_random
from ladder.ratings.matchmaking import fill_queue


class Command(BaseCommand):
    help = "Fill the queue of ranked matches up to the workers' capacity (the beat task does this)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--capacity",
            type=int,
            help="matches to keep waiting (default: ladder.ratings.pace.queue_capacity)",
        )
        parser.add_argument("--seed", type=int, help="seed the matchmaker's random choices")

    def handle(self, *args: object, **options: object) -> None:
        # argparse gives ints (type=int) or None for both options.
        seed = cast(int | None, options["seed"])
        capacity = cast(int | None, options["capacity"])
        rng = seeded_random(seed) if seed is not None else None
        created = fill_queue(capacity, rng=rng)
        self.stdout.write(f"{len(created)} match(es) queued")
