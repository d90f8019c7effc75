from django.contrib import admin

from ladder.ratings.models import Rating, RatingFit


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
