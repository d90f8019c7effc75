"""Tournaments in the Django admin, for staff (organisers use the API).

Every write goes through the services: adding and editing a scheduled tournament validate like
the API, and the actions pause, resume, cancel and start due tournaments (a manual ``tick``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Protocol

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from ladder.accounts.models import Visitor
from ladder.accounts.selectors import is_organiser
from ladder.core.errors import ServiceError
from ladder.tournaments import services
from ladder.tournaments.models import Entrant, Round, Tournament
from ladder.tournaments.tournament_settings import TournamentSettings

EDITABLE = TournamentSettings.field_names()


class _Control(Protocol):
    """An organiser's control (pause, resume, cancel) as the admin's actions call it."""

    def __call__(self, tournament_id: int, /, *, user: Visitor) -> Tournament: ...


class TournamentForm(forms.ModelForm):
    variant = forms.CharField(required=False, help_text="empty: the ladder's variant")
    time_zone = forms.CharField(
        required=False, initial="UTC", help_text="the organiser's IANA zone (empty: UTC)"
    )

    class Meta:
        model = Tournament
        fields = EDITABLE

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:  # a field's own error first; the settings are checked once they parse
            return data
        if self.instance.pk is None or self.instance.status == Tournament.Status.SCHEDULED:
            try:
                services.check_settings(TournamentSettings(**data))
            except ServiceError as exc:
                raise ValidationError(str(exc)) from exc
        return data


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    can_delete = False
    fields = ("bot", "status", "version", "seed", "seed_rating", "invited_by", "dropped_reason")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False  # entrants register (or are invited) through the services


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    can_delete = False
    fields = ("number", "status", "byes", "created_at", "completed_at")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = (
        "id",
        "name",
        "game",
        "num_players",
        "format",
        "status",
        "starts_at",
        "current_round",
        "organiser",
        "is_public",
    )
    list_filter = ("status", "format", "game", "is_public")
    search_fields = ("name",)
    inlines = [EntrantInline, RoundInline]
    actions = ["pause", "resume", "cancel", "tick_now"]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_organiser(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_organiser(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_organiser(request.user)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return is_organiser(request.user)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False  # cancel instead: played matches are kept

    def get_readonly_fields(
        self, request: HttpRequest, obj: Tournament | None = None
    ) -> tuple[str, ...]:
        if obj is not None and obj.status != Tournament.Status.SCHEDULED:
            return EDITABLE
        return ()

    def save_model(
        self, request: HttpRequest, obj: Tournament, form: forms.ModelForm, change: bool
    ) -> None:
        data: dict[str, Any] = {f: form.cleaned_data[f] for f in EDITABLE if f in form.cleaned_data}
        if change:
            settings = replace(TournamentSettings.of(obj), **data)
            saved = services.update_tournament(obj.pk, user=request.user, settings=settings)
        else:
            saved = services.create_tournament(request.user, settings=TournamentSettings(**data))
        obj.pk = saved.pk
        obj.refresh_from_db()

    def _each(
        self,
        request: HttpRequest,
        queryset: QuerySet[Tournament],
        call: _Control,
        verb: str,
    ) -> None:
        done = 0
        for tournament in queryset:
            try:
                call(tournament.pk, user=request.user)
                done += 1
            except ServiceError as exc:
                self.message_user(request, f"{tournament}: {exc}", messages.WARNING)
        self.message_user(request, f"{done} tournament(s) {verb}")

    @admin.action(description="Pause (hold matches not yet started)")
    def pause(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, services.pause_tournament, "paused")

    @admin.action(description="Resume")
    def resume(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, services.resume_tournament, "resumed")

    @admin.action(description="Cancel (played matches are kept)")
    def cancel(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        self._each(request, queryset, services.cancel_tournament, "cancelled")

    @admin.action(description="Start due tournaments and advance complete rounds now")
    def tick_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        report = services.tick()
        self.message_user(
            request,
            f"started {report.started}, advanced {report.advanced}, "
            f"finished {report.finished}, cancelled {report.cancelled}",
        )
