import random

from django.core.management.base import BaseCommand

from ladder.ratings.matchmaking import fill_queue


class Command(BaseCommand):
    help = "Fill the queue of ranked matches up to the workers' capacity (the beat task does this)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--capacity", type=int, help="matches to keep waiting (default MONSOON_QUEUE_TARGET)"
        )
        parser.add_argument("--seed", type=int, help="seed the matchmaker's random choices")

    def handle(self, *args, **options):
        rng = random.Random(options["seed"]) if options["seed"] is not None else None
        created = fill_queue(options["capacity"], rng=rng)
        self.stdout.write(f"{len(created)} match(es) queued")
