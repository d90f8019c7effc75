from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from ladder.bots.models import Bot, BotVersion


class BotVersionInline(admin.TabularInline):
    model = BotVersion
    extra = 0
    can_delete = False
    fields = ("number", "status", "kind", "size", "sha256", "uploaded_at", "failure_reason")
    readonly_fields = fields
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False  # versions come only from uploads, which check the artifact


@admin.register(Bot)
class BotAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "owner", "is_public", "created_at")
    list_filter = ("game", "is_public")
    search_fields = ("name", "owner__username")
    readonly_fields = ("game", "created_at")
    inlines = [BotVersionInline]


@admin.register(BotVersion)
class BotVersionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "status", "kind", "size", "uploaded_at", "validated_at")
    list_filter = ("status", "kind", "bot__game")
    search_fields = ("bot__name", "sha256")
    readonly_fields = (
        "bot",
        "number",
        "artifact",
        "kind",
        "sha256",
        "size",
        "command",
        "file_count",
        "unpacked_size",
        "uploaded_at",
        "validated_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
