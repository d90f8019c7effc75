"""Filter fields that refuse values the database cannot take (a clear 400, not a 500)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import django_filters
import django_filters.rest_framework
from django import forms
from django.db import models
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.request import Request
from rest_framework.views import APIView

# Real UTC offsets run from -12:00 to +14:00; PostgreSQL refuses anything much beyond.
MAX_UTC_OFFSET = timedelta(hours=14)
# Integer filters are ids and counts: never negative, never past a 32-bit column.
MAX_FILTER_INT = 2**31 - 1
EMPTY_VALUE = "give a value or leave the filter out"


class NonEmptyMixin:
    """``?game=`` (an empty value) is refused: django-filter skipped it silently, so a client
    that meant to filter got every row and never knew."""

    def clean(self, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            raise forms.ValidationError(EMPTY_VALUE, code="empty")
        return super().clean(value)  # type: ignore[misc]


class BoundedIsoDateTimeField(NonEmptyMixin, django_filters.fields.IsoDateTimeField):
    def to_python(self, value: object) -> datetime | None:
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
        if value is None:
            return None
        if isinstance(value, str) and not value.strip():
            raise forms.ValidationError(EMPTY_VALUE, code="empty")
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


class BoundedIntegerField(NonEmptyMixin, forms.IntegerField):
    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", MAX_FILTER_INT)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": MAX_FILTER_INT})
class IntegerFilter(django_filters.NumberFilter):
    """A whole number: django-filter's default for integer columns takes decimals, so
    ``num_players=0.5`` silently matched nothing instead of being refused."""

    field_class = BoundedIntegerField


class NonEmptyCharField(NonEmptyMixin, forms.CharField):
    pass


@extend_schema_field({"type": "string", "minLength": 1})
class CharFilter(django_filters.CharFilter):
    """Text to match: an empty value is refused (:class:`NonEmptyMixin`), so says the schema."""

    field_class = NonEmptyCharField


class NonEmptyChoiceField(NonEmptyMixin, django_filters.fields.ChoiceField):
    pass


class ChoiceFilter(django_filters.ChoiceFilter):
    field_class = NonEmptyChoiceField


class StrictFilterSet(django_filters.rest_framework.FilterSet):
    """The API's filter sets: booleans and integers are checked, never ignored."""

    FILTER_DEFAULTS = {
        **django_filters.rest_framework.FilterSet.FILTER_DEFAULTS,
        models.BooleanField: {"filter_class": StrictBooleanFilter},
        models.CharField: {"filter_class": CharFilter},
        models.TextField: {"filter_class": CharFilter},
        # A foreign key filters by the id: bounded, and no query to check the row exists.
        models.ForeignKey: {"filter_class": IntegerFilter},
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

    @classmethod
    def filter_for_lookup(
        cls, field: models.Field[Any, Any], lookup_type: str
    ) -> tuple[type[django_filters.Filter] | None, dict[str, Any]]:
        filter_class, params = super().filter_for_lookup(field, lookup_type)
        if filter_class is django_filters.ChoiceFilter:  # chosen by django-filter for choices
            return ChoiceFilter, params
        return filter_class, params


class StrictFilterBackend(django_filters.rest_framework.DjangoFilterBackend):
    """Views filtering by ``filterset_fields`` get :class:`StrictFilterSet` too, and a refused
    value is a 400 built here.

    django-filter's own translation applies ``message % params`` to every message, also to
    those that already quote the user's value: ``?is_public=%`` then raised ``TypeError`` (a
    500). Django's ``ValidationError`` interpolates its own params, so the text is used as is.
    """

    filterset_base = StrictFilterSet

    def filter_queryset(
        self, request: Request, queryset: models.QuerySet[Any], view: APIView
    ) -> models.QuerySet[Any]:
        filterset = self.get_filterset(request, queryset, view)
        if filterset is None:
            return queryset
        if not filterset.is_valid():
            raise serializers.ValidationError(
                {
                    name: [
                        ErrorDetail(message, code=error.code)
                        for error in errors
                        for message in error
                    ]
                    for name, errors in filterset.errors.as_data().items()
                }
            )
        return filterset.qs
