"""Filter fields that refuse values the database cannot take (a clear 400, not a 500)."""

from __future__ import annotations

from datetime import datetime, timedelta

import django_filters
import django_filters.rest_framework
from django import forms
from django.db import models

# Real UTC offsets run from -12:00 to +14:00; PostgreSQL refuses anything much beyond.
MAX_UTC_OFFSET = timedelta(hours=14)


class BoundedIsoDateTimeField(django_filters.fields.IsoDateTimeField):
    def to_python(self, value: object) -> datetime | None:
        if isinstance(value, str) and not value.strip():
            # "?until=" is no timestamp at all; silently ignoring it hid a client's bug.
            raise forms.ValidationError(
                "give an ISO 8601 timestamp or leave the filter out", code="invalid"
            )
        parsed = super().to_python(value)
        offset = parsed.utcoffset() if parsed is not None else None
        if offset is not None and abs(offset) > MAX_UTC_OFFSET:
            raise forms.ValidationError(
                f"the UTC offset {offset} is out of range (-14:00 to +14:00)", code="invalid"
            )
        return parsed


class IsoDateTimeFilter(django_filters.IsoDateTimeFilter):
    """An ISO 8601 timestamp whose UTC offset is a real one."""

    field_class = BoundedIsoDateTimeField


class StrictBooleanField(forms.NullBooleanField):
    """``true``/``false`` (or 1/0); anything else is refused instead of silently ignored."""

    widget = forms.TextInput  # NullBooleanSelect turns unknown values into None before us
    TRUE = {"true", "1"}
    FALSE = {"false", "0"}

    # NullBooleanField answers None for "no value"; the stubs give it BooleanField's signature.
    def to_python(self, value: object) -> bool | None:  # type: ignore[override]
        if value in (None, ""):
            return None
        text = str(value).strip().lower()
        if text in self.TRUE:
            return True
        if text in self.FALSE:
            return False
        raise forms.ValidationError(
            f"{value!r} is not a boolean: use true or false", code="invalid"
        )

    def validate(self, value: object) -> None:
        pass


class StrictBooleanFilter(django_filters.BooleanFilter):
    field_class = StrictBooleanField


class IntegerFilter(django_filters.NumberFilter):
    """A whole number: django-filter's default for integer columns takes decimals, so
    ``num_players=0.5`` silently matched nothing instead of being refused."""

    field_class = forms.IntegerField


class StrictFilterSet(django_filters.rest_framework.FilterSet):
    """The API's filter sets: booleans and integers are checked, never ignored."""

    FILTER_DEFAULTS = {
        **django_filters.rest_framework.FilterSet.FILTER_DEFAULTS,
        models.BooleanField: {"filter_class": StrictBooleanFilter},
        **{
            field: {"filter_class": IntegerFilter}
            for field in (
                models.IntegerField,
                models.SmallIntegerField,
                models.PositiveIntegerField,
                models.PositiveSmallIntegerField,
                models.BigIntegerField,
                models.AutoField,
                models.BigAutoField,
            )
        },
    }


class StrictFilterBackend(django_filters.rest_framework.DjangoFilterBackend):
    """Views filtering by ``filterset_fields`` get :class:`StrictFilterSet` too."""

    filterset_base = StrictFilterSet
