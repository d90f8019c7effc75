from django.contrib import admin
from django.http import HttpRequest

from ladder.ratings.models import Rating, RatingFit, Season


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = (
        "bot_version",
        "ladder",
        "rating",
        "low",
        "high",
        "games",
        "provisional",
        "source",
    )
    list_filter = ("ladder", "provisional", "source")
    readonly_fields = [f.name for f in Rating._meta.fields]


@admin.register(RatingFit)
class RatingFitAdmin(admin.ModelAdmin):
    list_display = ("ladder", "matches", "versions", "bootstrap_samples", "seconds", "created_at")
    list_filter = ("ladder",)


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    """Seasons are ended from the ladder list's action; their standings are never edited."""

    list_display = ("ladder", "number", "started_at", "ended_at", "start")
    list_filter = ("ladder",)
    readonly_fields = [f.name for f in Season._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
