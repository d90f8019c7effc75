from typing import cast

from django.core.management.base import BaseCommand, CommandParser

from ladder.ladders.models import Ladder
from ladder.ratings.services import refit_ladder


class Command(BaseCommand):
    help = "Refit every ladder's ratings over its whole match history (the beat task does this)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--ladder", type=int, help="only this ladder id")
        parser.add_argument("--samples", type=int, help="bootstrap samples (default from settings)")

    def handle(self, *args: object, **options: object) -> None:
        # argparse gives ints (type=int) or None for both options.
        ladder_id = cast(int | None, options["ladder"])
        samples = cast(int | None, options["samples"])
        ladders = Ladder.objects.all()
        if ladder_id:
            ladders = ladders.filter(pk=ladder_id)
        for ladder in ladders:
            fit = refit_ladder(ladder.pk, samples=samples)
            self.stdout.write(
                f"{ladder}: {fit.matches} matches, {fit.versions} versions, {fit.seconds:.2f} s"
            )
