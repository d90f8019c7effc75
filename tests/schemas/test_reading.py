"""Reading a schema as a table: the rows the docs pages (and any page of the site) show."""

from __future__ import annotations

from engine.schemas import action_rows, key_rows, load_schema, type_of

DEFS = {
    "seat": {"type": "integer", "minimum": 0, "maximum": 4, "description": "A seat."},
    "count": {"type": "integer", "minimum": 0},
    "pair": {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/count"}, "b": {"$ref": "#/$defs/count"}},
    },
    "base": {
        "type": "object",
        "properties": {
            "who": {"$ref": "#/$defs/seat", "description": "Who moves."},
            "totals": {"$ref": "#/$defs/pair", "description": "Totals by letter."},
            "rows": {
                "description": "Score rows, null before the end.",
                "anyOf": [
                    {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"pts": {"type": "integer", "description": "Points."}},
                        },
                    },
                    {"type": "null"},
                ],
            },
        },
    },
    "view": {"$ref": "#/$defs/base", "properties": {"seat": {"$ref": "#/$defs/seat"}}},
    "stall": {
        "title": "market stall",
        "type": "object",
        "properties": {"open": {"type": "boolean", "description": "Open today."}},
    },
    "market": {
        "type": "object",
        "properties": {
            "stalls": {
                "description": "Stalls by town.",
                "type": "object",
                "properties": {"x": {"$ref": "#/$defs/stall"}, "y": {"$ref": "#/$defs/stall"}},
            },
            "queue": {"type": "array", "items": {"type": ["integer", "null"]}},
        },
    },
}


def test_keys_follow_references_nest_into_lists_and_keep_their_own_descriptions():
    rows = key_rows({"$defs": DEFS}, "view")
    assert rows == [
        ("who", "integer 0 to 4", "Who moves."),
        ("totals", "object {`a`, `b`} → integer ≥ 0", "Totals by letter."),
        ("rows", "array of object or null", "Score rows, null before the end."),
        ("rows[].pts", "integer", "Points."),
        ("seat", "integer 0 to 4", "A seat."),  # no description of its own: the definition's
    ]


def test_a_map_over_a_fixed_vocabulary_lists_its_value_keys_once_under_a_star():
    assert key_rows({"$defs": DEFS}, "market") == [
        ("stalls", "object {`x`, `y`} → market stall", "Stalls by town."),
        ("stalls.*.open", "boolean", "Open today."),
        ("queue", "array of (integer or null)", ""),
    ]


def test_types_read_as_words():
    assert type_of({"type": ["integer", "null"], "minimum": -1, "maximum": 35}, {}) == (
        "integer -1 to 35 or null"
    )
    assert type_of({"enum": ["a", 2]}, {}) == "one of `a`, `2`"
    assert type_of({"const": 35}, {}) == "`35`"
    assert type_of({"type": "array", "minItems": 3, "maxItems": 3, "items": {}}, {}) == (
        "array (3) of any"
    )


def test_action_rows_name_each_kind_with_its_strings():
    rows = {kind: (form, text) for kind, form, text in action_rows(load_schema("batavia"))}
    assert rows["bid"][0] == "`^bid:[1-9][0-9]*$`"
    assert rows["lay"][0].startswith("`lay:GB`, `lay:DK`")
    assert rows["pass"] == ("`pass`", "Auction: drop out of this auction for good.")
