from django.core.management.base import BaseCommand

from ladder.ladders.services import sync_ladders


class Command(BaseCommand):
    help = "Create a ladder for every registered game and player count that lacks one."

    def handle(self, *args: object, **options: object) -> None:
        created = sync_ladders()
        for ladder in created:
            self.stdout.write(f"created {ladder}")
        self.stdout.write(f"{len(created)} ladder(s) created")
