"""The engine says exactly what its schemas say, at every decision of seeded games.

Every table (game, player count, variant) plays one seeded random game; at every step the
observation of the seat to move, the public view and every legal action are validated
against ``engine/games/<game>/schema.json``, and every seat's observation at the start and
the end. The schemas close every object (``additionalProperties`` / ``unevaluatedProperties``
false) and require every key, so a key added to or dropped from a view fails here until the
schema (and with it the docs) says so.
"""

from __future__ import annotations

import copy

import pytest
from jsonschema import Draft202012Validator

from engine.registry import UnknownGame, all_games, get_game
from engine.rng import Rng
from engine.schemas import ENTRY_POINTS, entry_schema, is_uniform_map, load_schema
from tests.engine.tables import GAME_TABLES, table_id
from tests.schemas.helpers import problems, validator

GAMES = list(all_games())


def _check(game: str, entry: str, value, where: str) -> None:
    found = problems(game, entry, value)
    assert not found, f"{game} {entry} at {where} breaks engine/games/{game}/schema.json:\n" + (
        "\n".join(found[:10])
    )


@pytest.mark.parametrize("game", GAMES)
def test_each_schema_is_a_valid_draft_2020_12_document_with_the_three_entry_points(game):
    document = load_schema(game)
    Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert set(ENTRY_POINTS) <= set(document["$defs"])


@pytest.mark.parametrize("table", GAME_TABLES, ids=table_id)
def test_every_observation_public_view_and_legal_action_of_a_seeded_game_conforms(table):
    game, n, variant = table
    state = get_game(game).new_state(3, n, variant)
    rng = Rng.derive(3, "schema-conformance")
    actions_seen: set[str] = set()
    for seat in range(n):
        _check(game, "observation", state.observation(seat), f"the start, seat {seat}")
    step = 0
    while (to_move := state.current_player()) is not None:
        where = f"step {step} (seed 3, {n} players, {variant})"
        _check(game, "observation", state.observation(to_move), f"{where}, seat {to_move}")
        _check(game, "public_view", state.public_view(), where)
        legal = state.legal_actions()
        for action in legal:
            if action not in actions_seen:
                _check(game, "action", action, f"{where}, legal action {action!r}")
                actions_seen.add(action)
        state.apply(rng.choice(legal))
        step += 1
    _check(game, "public_view", state.public_view(), "the end")
    for seat in range(n):
        _check(game, "observation", state.observation(seat), f"the end, seat {seat}")
    assert state.public_view()["final"] is not None  # the end's score rows were checked too


@pytest.mark.parametrize("game", GAMES)
def test_every_action_in_the_vocabulary_conforms_and_every_action_kind_occurs(game):
    spec = get_game(game)
    branches = load_schema(game)["$defs"]["action"]["oneOf"]
    used = set()
    for n in spec.player_counts:
        for action in spec.action_vocabulary(n):
            _check(game, "action", action, f"the {n}-player vocabulary")
            for branch in branches:
                if Draft202012Validator(branch).is_valid(action):
                    used.add(branch["title"])
    assert used == {branch["title"] for branch in branches}, "an action kind nobody can play"


def _with(value, path, change):
    """A deep copy of ``value`` with ``change`` applied to the dict or list at ``path``."""
    changed = copy.deepcopy(value)
    target = changed
    for key in path:
        target = target[key]
    change(target)
    return changed


@pytest.mark.parametrize("game", GAMES)
def test_a_wrong_observation_or_action_fails_validation(game):
    spec = get_game(game)
    state = spec.new_state(5, spec.min_players)
    observation = state.observation(0)
    assert validator(game, "observation").is_valid(observation)
    undocumented = _with(observation, [], lambda o: o.update(secret_hand=[1, 2]))
    nested = _with(observation, ["players", 0], lambda p: p.update(cheat=True))
    missing = _with(observation, [], lambda o: o.pop("players"))
    wrong_type = _with(observation, [], lambda o: o.update(num_players="three"))
    public_with_a_hand = _with(state.public_view(), [], lambda o: o.update(seat=0))
    assert any("secret_hand" in p for p in problems(game, "observation", undocumented))
    assert any("cheat" in p for p in problems(game, "observation", nested))
    assert any("players" in p for p in problems(game, "observation", missing))
    assert problems(game, "observation", wrong_type)
    assert any("seat" in p for p in problems(game, "public_view", public_with_a_hand))
    for action in ["", "fly", "pass:", 42, None, "bid:0", "take:-1", spec.name]:
        assert problems(game, "action", action), f"{action!r} passed as a {game} action"


@pytest.mark.parametrize("game", GAMES)
def test_the_embedded_examples_conform(game):
    document = load_schema(game)
    for entry in ("observation", "public_view"):
        (example,) = document["$defs"][entry]["examples"]
        _check(game, entry, example, f"the embedded {entry} example")
    for action in document["$defs"]["action"]["examples"]:
        _check(game, "action", action, "the embedded legal actions")


def _objects(schema, path="$"):
    """Every (path, object schema with properties) in a schema tree."""
    if isinstance(schema, dict):
        if "properties" in schema:
            yield path, schema
        for key, value in schema.items():
            if key != "examples":
                yield from _objects(value, f"{path}/{key}")
    elif isinstance(schema, list):
        for i, value in enumerate(schema):
            yield from _objects(value, f"{path}/{i}")


@pytest.mark.parametrize("game", GAMES)
def test_every_key_and_action_kind_is_described(game):
    document = load_schema(game)
    undescribed = [
        f"{path}/{key}"
        for path, schema in _objects(document)
        if not is_uniform_map(schema)  # a map over a fixed vocabulary is described as a whole
        for key, sub in schema["properties"].items()
        if not sub.get("description")
    ]
    assert not undescribed, f"keys without a description in {game}: {undescribed}"
    for entry in ENTRY_POINTS:
        assert document["$defs"][entry]["description"]
    for branch in document["$defs"]["action"]["oneOf"]:
        assert branch["title"] and branch["description"]


def test_an_entry_point_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="no schema entry 'hand'"):
        entry_schema(load_schema("batavia"), "hand")


def test_an_unknown_game_has_no_schema_and_the_error_names_the_known_games():
    with pytest.raises(UnknownGame, match="known games: batavia"):
        load_schema("chess")
