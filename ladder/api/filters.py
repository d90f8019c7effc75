"""Filter fields that refuse values the database cannot take (a clear 400, not a 500)."""

from __future__ import annotations

from datetime import timedelta

import django_filters
from django import forms

# Real UTC offsets run from -12:00 to +14:00; PostgreSQL refuses anything much beyond.
MAX_UTC_OFFSET = timedelta(hours=14)


class BoundedIsoDateTimeField(django_filters.fields.IsoDateTimeField):
    def to_python(self, value):
        parsed = super().to_python(value)
        offset = parsed.utcoffset() if parsed is not None else None
        if offset is not None and abs(offset) > MAX_UTC_OFFSET:
            raise forms.ValidationError(
                f"the UTC offset {offset} is out of range (-14:00 to +14:00)", code="invalid")
        return parsed


class IsoDateTimeFilter(django_filters.IsoDateTimeFilter):
    """An ISO 8601 timestamp whose UTC offset is a real one."""

    field_class = BoundedIsoDateTimeField
