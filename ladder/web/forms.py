"""Forms of the web site: input checks only; every write goes through a service."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, overload

from django import forms
from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError

from engine.registry import all_games
from ladder.bots.models import Bot

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
