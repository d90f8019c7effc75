"""The shared clone mechanism: declared attributes copied by type, the rest copied all the same."""

from __future__ import annotations

from typing import Any

from engine.core import GameState
from engine.rng import Rng
from tests.engine.clone_check import scramble, shared_objects


class ToyState(GameState):
    """Just enough of a game to clone: the abstract rules are never called."""

    game_name = "toy"
    hands: list[list[int]]
    names: list[str]
    points: dict[str, int]
    final: list[dict[str, list[int]]] | None
    tags: set[str]
    pair: tuple[int, str]
    anything: Any

    def __init__(self) -> None:
        self.num_players = 2
        self.variant = "standard"
        self.rng = Rng(1)
        self.hands = [[1, 2], [3]]
        self.names = ["a", "b"]
        self.points = {"a": 1}
        self.final = [{"a": [1]}]
        self.tags = {"x"}
        self.pair = (1, "x")
        self.anything = [[{"deep": [1]}]]
        self.undeclared = {"nested": [[1], [2]]}

    current_player = legal_actions = apply = observation = public_view = None  # type: ignore[assignment]
    scores = determinize = snapshot = component_counts = None  # type: ignore[assignment]
    _compute_legal = _why_illegal = None  # type: ignore[assignment]


def test_a_clone_shares_nothing_declared_or_not():
    state = ToyState()
    clone = state.clone()
    assert shared_objects(state, clone) == []
    assert {k: v for k, v in vars(clone).items() if k != "rng"} == {
        k: v for k, v in vars(state).items() if k != "rng"
    }
    assert clone.rng.state == state.rng.state
    scramble(clone)
    assert state.hands == [[1, 2], [3]] and state.undeclared == {"nested": [[1], [2]]}
    assert state.anything == [[{"deep": [1]}]] and state.final == [{"a": [1]}]


def test_attributes_added_or_removed_after_the_first_clone_are_still_copied():
    state = ToyState()
    state.clone()  # the copier is generated from this one
    state.__dict__["late"] = [[5]]  # an attribute no class declares
    clone = state.clone()
    assert clone.__dict__["late"] == [[5]]
    assert clone.__dict__["late"][0] is not state.__dict__["late"][0]
    del state.names
    clone = state.clone()
    assert not hasattr(clone, "names") and shared_objects(state, clone) == []


def test_none_in_an_optional_field_is_copied_as_none():
    state = ToyState()
    state.final = None
    assert state.clone().final is None
