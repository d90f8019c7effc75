from django.core.management.base import BaseCommand

from ladder.ladders.models import Ladder
from ladder.ratings.services import refit_ladder


class Command(BaseCommand):
    help = "Refit every ladder's ratings over its whole match history (the beat task does this)."

    def add_arguments(self, parser):
        parser.add_argument("--ladder", type=int, help="only this ladder id")
        parser.add_argument("--samples", type=int, help="bootstrap samples (default from settings)")

    def handle(self, *args, **options):
        ladders = Ladder.objects.all()
        if options["ladder"]:
            ladders = ladders.filter(pk=options["ladder"])
        for ladder in ladders:
            fit = refit_ladder(ladder.pk, samples=options["samples"])
            self.stdout.write(
                f"{ladder}: {fit.matches} matches, {fit.versions} versions, {fit.seconds:.2f} s"
            )
