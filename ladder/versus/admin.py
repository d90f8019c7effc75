"""Version tests in the Django admin: read-only for staff, with a cancel action (the service)."""

from __future__ import annotations

from typing import cast

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from ladder.accounts.models import User
from ladder.core.errors import ServiceError
from ladder.versus import services
from ladder.versus.models import VersionTest


@admin.register(VersionTest)
class VersionTestAdmin(admin.ModelAdmin):
    list_display = ("id", "owner", "bot", "candidate", "baseline", "status", "pairs", "llr")
    list_filter = ("status",)
    search_fields = ("bot__name", "owner__username")
    actions = ("cancel",)
    readonly_fields = tuple(f.name for f in VersionTest._meta.get_fields() if f.concrete)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: VersionTest | None = None) -> bool:
        return False

    @admin.action(description="Cancel the selected running tests")
    def cancel(self, request: HttpRequest, queryset: QuerySet[VersionTest]) -> None:
        for test in queryset.filter(status=VersionTest.Status.RUNNING):
            try:
                services.cancel_test(user=cast(User, request.user), test_id=test.pk)
            except ServiceError as exc:
                self.message_user(request, str(exc), messages.ERROR)
