"""Forms of the web site: input checks only; every write goes through a service."""

from __future__ import annotations

import zoneinfo
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any, TypeAlias, overload

from django import forms
from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
from django.utils import timezone

from engine.registry import all_games
from ladder.bots.models import Bot
from ladder.tournaments.models import Tournament

PREVIEW_MAX_ENTRANTS = 128  # the form's preview: pairing larger fields takes too long per page

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# What ``Form.add_error`` takes for one field: a message, a ValidationError, or a list of them.
FieldErrors: TypeAlias = "ValidationError | StrOrPromise | Sequence[ValidationError | StrOrPromise]"


class AccessibleForm(forms.Form):
    """Marks fields with errors ``aria-invalid`` and ties them to their error text.

    Works for errors found by validation and for those a view adds after a service refused the
    request (``add_error``), which is where most of this site's specific messages come from.
    """

    @overload
    def add_error(self, field: None, error: Mapping[str, FieldErrors]) -> None: ...

    @overload
    def add_error(self, field: str | None, error: FieldErrors) -> None: ...

    def add_error(self, field: str | None, error: FieldErrors | Mapping[str, FieldErrors]) -> None:
        if isinstance(error, Mapping):
            if field is not None:
                raise TypeError("errors for several fields are added with field=None")
            super().add_error(None, error)
        else:
            super().add_error(field, error)
        for name in self.errors:  # set by add_error: reading it validates nothing again
            if name not in self.fields:
                continue
            widget = self.fields[name].widget
            field_id = self.auto_id % name if isinstance(self.auto_id, str) else name
            described = [f"{field_id}_errors"]
            if self.fields[name].help_text:
                described.append(f"{field_id}_helptext")
            widget.attrs["aria-invalid"] = "true"
            widget.attrs["aria-describedby"] = " ".join(described)


class SignUpForm(AccessibleForm):
    username = forms.RegexField(
        regex=r"^[\w.@+-]+\Z",
        max_length=150,
        help_text="Letters, digits and @ . + - _ only.",
        error_messages={"invalid": "Use only letters, digits and @ . + - _ in a user name."},
    )
    email = forms.EmailField(required=False, help_text="Optional.")
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", "The two passwords differ.")
        elif first:
            try:
                password_validation.validate_password(first)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return data


def game_choices() -> list[tuple[str, str]]:
    return [(spec.name, spec.title) for spec in all_games().values()]


class BotForm(AccessibleForm):
    name = forms.SlugField(
        max_length=Bot._meta.get_field("name").max_length,
        help_text="Letters, digits, - and _; unique across the site.",
    )
    game = forms.ChoiceField(choices=game_choices)
    description = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )
    is_public = forms.BooleanField(
        required=False,
        initial=True,
        label="Public",
        help_text="Public bots play ranked games; private ones play only your challenges.",
    )


class UploadForm(AccessibleForm):
    artifact = forms.FileField(
        label="Bot file",
        help_text="A single .py file, or a .zip / .tar.gz with main.py or a monsoon.json "
        "manifest at the top.",
    )


# --- tournaments (organisers) ---------------------------------------------------------------


def time_zone_choices() -> list[tuple[str, str]]:
    """Every IANA zone name the server knows, UTC first (the default)."""
    names = sorted(zoneinfo.available_timezones() - {"UTC"})
    return [("UTC", "UTC"), *((name, name.replace("_", " ")) for name in names)]


class LocalDateTimeField(forms.DateTimeField):
    """A wall-clock time with no zone: the form attaches the zone the organiser chose.

    Django's own field would read the time in the server's zone (UTC); here the zone is another
    field of the same form, so the value stays naive until :meth:`TournamentForm.clean`.
    """

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
    input_formats = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]

    def to_python(self, value: str | datetime | date | None) -> datetime | None:
        with timezone.override(UTC):
            result = super().to_python(value)
        return result.replace(tzinfo=None) if result is not None else None


def local_to_utc(wall: datetime, zone: zoneinfo.ZoneInfo) -> datetime:
    """The UTC instant of a wall-clock time in ``zone``; ValueError for a time the clock skips
    (spring forward).  An ambiguous time (autumn) is read as the first of the two."""
    aware = wall.replace(tzinfo=zone, fold=0)
    back = aware.astimezone(UTC).astimezone(zone).replace(tzinfo=None)
    if back != wall:
        raise ValueError(f"{wall:%d %b %Y %H:%M} does not exist in {zone.key}: the clocks skip it")
    return aware.astimezone(UTC)


def utc_to_local(instant: datetime, zone: zoneinfo.ZoneInfo) -> datetime:
    """The naive wall-clock time in ``zone`` that a form field shows for a stored instant."""
    return instant.astimezone(zone).replace(tzinfo=None)


TOURNAMENT_TIMES = ("registration_opens_at", "registration_closes_at", "starts_at")


class TournamentForm(AccessibleForm):
    """Every setting the API's create endpoint accepts, plus the organiser's time zone.

    Only types are checked here; the bounds (players per table, games per pairing, Swiss rounds,
    the match budget, the order of the dates) are the service's, and its refusal is put next to
    the field it names (see ``ladder/web/views/tournament_setup.py``).
    """

    name = forms.CharField(
        max_length=100, required=False, help_text="Empty: named after the game and format."
    )
    description = forms.CharField(
        required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3})
    )
    game = forms.ChoiceField(choices=game_choices)
    num_players = forms.IntegerField(label="Players per table")
    variant = forms.CharField(
        required=False, max_length=40, help_text="Empty: the ladder's variant."
    )
    format = forms.ChoiceField(choices=Tournament.Format.choices)
    games_per_pairing = forms.IntegerField(
        initial=1,
        label="Games per pairing",
        help_text="Round robin: rotation sets per table; Swiss and elimination: games per "
        "table per round.",
    )
    rounds = forms.IntegerField(
        required=False,
        label="Swiss rounds",
        help_text="Swiss only. Empty: a default from the number of entrants.",
    )
    advance = forms.IntegerField(
        initial=1,
        label="Go through per table",
        help_text="Single elimination only: how many of each table reach the next round.",
    )
    duplicate = forms.BooleanField(
        required=False,
        label="Duplicate deals",
        help_text="Replay each deal in every seat rotation so card luck cancels.",
    )
    time_zone = forms.ChoiceField(
        choices=time_zone_choices,
        initial="UTC",
        help_text="The times below are in this zone; they are stored in UTC.",
    )
    registration_opens_at = LocalDateTimeField(
        required=False, label="Registration opens", help_text="Empty: now."
    )
    registration_closes_at = LocalDateTimeField(
        required=False, label="Registration closes", help_text="Empty: at the start."
    )
    starts_at = LocalDateTimeField(
        label="Starts", help_text="Versions are frozen and round 1 starts here."
    )
    is_public = forms.BooleanField(
        required=False,
        initial=True,
        label="Listed",
        help_text="Unlisted tournaments are reachable by their link but not listed.",
    )
    ranked = forms.BooleanField(
        required=False,
        label="Ranked",
        help_text="Its matches count on the ladder's ratings.",
    )
    preview_entrants = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=PREVIEW_MAX_ENTRANTS,
        label="Entrants for the preview",
        help_text="Only for the preview below: how many bots you expect.",
    )

    def __init__(
        self,
        data: Mapping[str, object] | None = None,
        *,
        initial: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(data, initial=initial)
        if not self.is_bound and "num_players" not in self.initial:
            # A valid start: the smallest table of the game the menu shows first (Batavia is
            # for three to five, so a fixed 2 was refused).
            game = self.initial.get("game") or next(iter(all_games()))
            self.initial["num_players"] = all_games()[game].min_players

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        zone_name = data.get("time_zone")
        if not zone_name:
            return data
        zone = zoneinfo.ZoneInfo(zone_name)
        for name in TOURNAMENT_TIMES:
            wall = data.get(name)
            if wall is None:
                continue
            try:
                data[name] = local_to_utc(wall, zone)
            except ValueError as exc:
                self.add_error(name, str(exc))
        return data

    def service_data(self) -> dict[str, Any]:
        """The cleaned settings as the service takes them (times in UTC; empty ones left out
        so the service applies its defaults).

        An empty "Registration closes" is sent as None, its documented meaning ("at the
        start"): left out, an edit would keep the stored time and refuse a start moved before
        it.  Empty Swiss rounds are None too (a default from the field size).
        """
        data = dict(self.cleaned_data)
        data.pop("preview_entrants", None)
        for name in ("registration_opens_at", "variant"):
            if data.get(name) in (None, ""):
                data.pop(name, None)
        for name in ("registration_closes_at", "rounds"):
            if data.get(name) in (None, ""):
                data[name] = None
        return data

    @classmethod
    def initial_for(cls, t: Tournament, zone: zoneinfo.ZoneInfo) -> dict[str, Any]:
        """An edit form's starting values: the stored settings, times shown in ``zone``."""
        initial: dict[str, Any] = {
            name: getattr(t, name) for name in cls.base_fields if hasattr(t, name)
        }
        for name in TOURNAMENT_TIMES:
            initial[name] = utc_to_local(getattr(t, name), zone)
        initial["time_zone"] = zone.key
        if t.registration_closes_at == t.starts_at:
            initial["registration_closes_at"] = None  # "at the start", as it was entered
        return initial


class InviteForm(AccessibleForm):
    """The organiser names a bot; a private bot is answered exactly like a missing one."""

    bot = forms.CharField(
        max_length=100,
        label="Bot name or id",
        help_text="A public bot of the tournament's game.",
    )


class OrganiserRequestForm(AccessibleForm):
    """A user asks to become an organiser; staff read the reason before they decide."""

    reason = forms.CharField(
        max_length=2000,
        label="What would you like to organise?",
        help_text="A line or two for staff: the event, the game, who plays.",
        widget=forms.Textarea(attrs={"rows": 3}),
    )
