from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from ladder.matches import services
from ladder.matches.models import Match, MatchSeat


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    can_delete = False
    fields = ("seat", "bot_version", "score", "place", "forfeit_reason")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "game",
        "ladder",
        "kind",
        "ranked",
        "status",
        "created_at",
        "finished_at",
        "attempts",
    )
    list_filter = ("status", "kind", "ranked", "game")
    readonly_fields = [f.name for f in Match._meta.fields]
    inlines = [MatchSeatInline]
    actions = ["rerun", "cancel"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # matches come from the matchmaker, challenges and tournaments

    @admin.action(description="Re-run (a new match with the same seats and seed)")
    def rerun(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        for match in queryset:
            services.rerun_match(match.pk, requested_by=request.user)
        self.message_user(request, f"{queryset.count()} match(es) queued again")

    @admin.action(description="Cancel (matches without a result)")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Match]) -> None:
        done = sum(
            services.cancel_match(m.pk, reason=f"cancelled by {request.user}") for m in queryset
        )
        self.message_user(request, f"{done} match(es) cancelled", messages.INFO)
