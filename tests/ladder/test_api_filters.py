"""Every query parameter of every list in the OpenAPI schema, given hostile text.

A filter value is the user's text: a ``%`` once reached a format string in django-filter's
error messages and answered 500. Whatever the value, a list answers 200 (the value filters)
or 400 naming the parameter (or DRF's 404 for a page or cursor that does not exist), never 500.
"""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.factories import api_client as client_for

HOSTILE_VALUES = {
    "percent": "%",
    "format": "%s%(x)s%d",
    "braces": "{}{0}{x}",
    "nul": "a\x00b",
    "huge number": "9" * 400,
    "10 kB": "x" * 10_000,
}


def _list_parameters() -> list[tuple[str, str]]:
    """(path, parameter) for every query parameter of every GET without a path parameter."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    found = []
    for path, operations in schema["paths"].items():
        get = operations.get("get")
        if get is None or "{" in path:
            continue
        for parameter in get.get("parameters", []):
            if parameter["in"] == "query":
                found.append((path, parameter["name"]))
    return sorted(found)


LIST_PARAMETERS = _list_parameters()


def test_the_schema_documents_the_filters_this_test_fuzzes():
    """The sweep below covers the lists' real filters (not an empty set by a schema change)."""
    names = {name for _, name in LIST_PARAMETERS}
    assert {"is_public", "ranked", "game", "bot", "cursor"} <= names


@pytest.mark.parametrize("path, name", LIST_PARAMETERS)
def test_a_hostile_filter_value_is_a_400_naming_it_or_a_filtered_list(path, name, alice):
    client = client_for(alice)  # some lists (challenges, version tests) are their owner's
    for label, value in HOSTILE_VALUES.items():
        response = client.get(path, {name: value})
        assert response.status_code in (200, 400, 404), (label, response.status_code)
        if response.status_code == 400:
            assert name in response.content.decode(), (label, response.content[:300])
        if response.status_code == 404:
            assert name in ("cursor", "page"), (label, response.content[:300])
