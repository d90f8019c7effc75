from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from ladder.ladders.models import Ladder
from ladder.ratings.services import end_season


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = (
        "game",
        "num_players",
        "variant",
        "schedule_enabled",
        "schedule_weight",
        "target_games",
        "season_start",
    )
    list_editable = ("schedule_enabled", "schedule_weight", "target_games", "season_start")
    list_filter = ("game", "schedule_enabled")
    actions = ["end_current_season"]

    @admin.action(
        description="End the current season (freeze its standings, start the next)",
        permissions=["change"],
    )
    def end_current_season(self, request: HttpRequest, queryset: QuerySet[Ladder]) -> None:
        for ladder in queryset:
            season = end_season(ladder.pk)
            self.message_user(
                request,
                f"{ladder}: season {season.number} ended with {season.standings.count()} "
                f"bots ranked; season {season.number + 1} starts "
                f"({ladder.get_season_start_display()}).",
                messages.SUCCESS,
            )
