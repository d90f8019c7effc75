from django.contrib import admin

from ladder.ladders.models import Ladder


@admin.register(Ladder)
class LadderAdmin(admin.ModelAdmin):
    list_display = (
        "game",
        "num_players",
        "variant",
        "schedule_enabled",
        "schedule_weight",
        "target_games",
    )
    list_editable = ("schedule_enabled", "schedule_weight", "target_games")
    list_filter = ("game", "schedule_enabled")
