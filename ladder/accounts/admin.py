from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin
from django.db.models import QuerySet
from django.http import HttpRequest

from ladder.accounts.models import OrganiserRequest, User
from ladder.accounts.services import decide_organiser_request
from ladder.core.errors import ServiceError

admin.site.register(User, UserAdmin)


@admin.register(OrganiserRequest)
class OrganiserRequestAdmin(admin.ModelAdmin):
    """Requests to become an organiser: staff approve or decline them with the list's actions
    (the user is told on their next page)."""

    list_display = ("user", "status", "created_at", "decided_at", "decided_by", "notified_at")
    list_filter = ("status",)
    search_fields = ("user__username", "reason")
    readonly_fields = [f.name for f in OrganiserRequest._meta.fields]
    actions = ["approve", "decline"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def _decide(
        self, request: HttpRequest, queryset: QuerySet[OrganiserRequest], *, approve: bool
    ) -> None:
        for req in queryset:
            try:
                decide_organiser_request(req.pk, staff=request.user, approve=approve)
            except ServiceError as exc:
                self.message_user(request, f"{req.user}: {exc}", messages.WARNING)
            else:
                verb = "is an organiser now" if approve else "was declined"
                self.message_user(request, f"{req.user} {verb}.", messages.SUCCESS)

    @admin.action(description="Approve: make them organisers", permissions=["change"])
    def approve(self, request: HttpRequest, queryset: QuerySet[OrganiserRequest]) -> None:
        self._decide(request, queryset, approve=True)

    @admin.action(description="Decline", permissions=["change"])
    def decline(self, request: HttpRequest, queryset: QuerySet[OrganiserRequest]) -> None:
        self._decide(request, queryset, approve=False)
