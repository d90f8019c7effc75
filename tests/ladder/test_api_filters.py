"""Every query parameter of every list in the OpenAPI schema, given hostile text.

A filter value is the user's text: a ``%`` once reached a format string in django-filter's
error messages and answered 500. Whatever the value, a list answers 200 (the value filters)
or 400 naming the parameter (or DRF's 404 for a page or cursor that does not exist), never 500.
"""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator

from tests.factories import api_client as client_for
from tests.factories import make_bot, make_version

UNKNOWN = "not a parameter of this list"

HOSTILE_VALUES = {
    "percent": "%",
    "format": "%s%(x)s%d",
    "braces": "{}{0}{x}",
    "nul": "a\x00b",
    "huge number": "9" * 400,
    "10 kB": "x" * 10_000,
}


SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
LIST_PATHS = sorted(
    path for path, operations in SCHEMA["paths"].items() if "get" in operations and "{" not in path
)


def _list_parameters() -> list[tuple[str, str, dict[str, object]]]:
    """(path, name, schema) for every query parameter of every GET without a path parameter."""
    return sorted(
        (path, parameter["name"], parameter["schema"])
        for path in LIST_PATHS
        for parameter in SCHEMA["paths"][path]["get"].get("parameters", [])
        if parameter["in"] == "query"
    )


LIST_PARAMETERS = [(path, name) for path, name, _ in _list_parameters()]
TEXT_PARAMETERS = [
    (path, name)
    for path, name, schema in _list_parameters()
    if schema.get("type") == "string" and "enum" not in schema and "format" not in schema
]


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
            assert UNKNOWN not in response.content.decode(), "a documented parameter refused"
        if response.status_code == 404:
            assert name in ("cursor", "page"), (label, response.content[:300])


@pytest.mark.parametrize("path", LIST_PATHS)
def test_a_parameter_a_list_does_not_document_is_a_400_naming_it(path, sam):
    """DRF ignores what it does not know: ``/versions/?bot=15`` answered every version."""
    response = client_for(sam).get(path, {"bogus": "1"})  # staff: /workers/ is theirs
    assert response.status_code == 400, response.content[:300]
    assert UNKNOWN in response.json()["bogus"][0]


def test_the_unknown_parameter_answer_names_what_the_list_takes(alice):
    message = client_for(alice).get("/api/v1/bots/?owner=alice&colour=red").json()
    assert list(message) == ["colour"]
    assert "game, is_public, owner, page" in message["colour"][0]


@pytest.mark.parametrize("path, name", TEXT_PARAMETERS)
def test_the_schema_says_where_an_empty_value_is_refused(path, name, alice):
    """``?game=`` is a 400 (an empty filter is a mistake): the schema must not offer it."""
    schema = dict(_list_parameters_by_key()[(path, name)])
    empty = client_for(alice).get(f"{path}?{name}=")
    if empty.status_code == 400:
        assert int(str(schema.get("minLength", 0))) >= 1, schema


def _list_parameters_by_key() -> dict[tuple[str, str], dict[str, object]]:
    return {(path, name): schema for path, name, schema in _list_parameters()}


def test_versions_filter_by_bot_and_status(alice, bob):
    mine = make_bot(alice, "mine")
    theirs = make_bot(bob, "theirs")
    kept = make_version(mine)
    refused = make_version(mine, rejected_because="crashed")
    other = make_version(theirs)
    client = client_for(alice)

    def ids(query: str) -> set[int]:
        response = client.get(f"/api/v1/versions/?{query}")
        assert response.status_code == 200, response.content[:300]
        return {row["id"] for row in response.json()["results"]}

    assert ids(f"bot={mine.pk}") == {kept.pk, refused.pk}
    assert ids(f"bot={theirs.pk}") == {other.pk}
    assert ids(f"bot={mine.pk}&status=rejected") == {refused.pk}
    assert client.get("/api/v1/versions/?status=lost").status_code == 400
