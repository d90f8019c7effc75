"""The one small interface every game implements.

Modelled on OpenSpiel's state API: a game is a :class:`GameSpec` (what can be
played) plus a :class:`GameState` (one table in progress).  Chance events are
resolved inside :meth:`GameState.apply` with the state's own seeded
:class:`~engine.rng.Rng`, so a game is fully determined by seed + actions.

Actions are small JSON values (strings in most games, e.g. ``"bid:3"``).
Where a rule offers a combinatorial choice the game splits it into a sequence
of small decisions, so a list of legal actions is never huge.
"""

from __future__ import annotations

import copy
import hashlib
import json
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self

from engine.rng import Rng

Action = Any  # a JSON value: str, int, or a small list/dict of those
T = typing.TypeVar("T")
Observation = dict[str, Any]


class EngineError(Exception):
    """Base class for every error the engine raises on purpose."""


class IllegalAction(EngineError):
    """An action that is not legal now; the message names the reason."""


class GameNotOver(EngineError):
    """Final scores were asked for before the game ended."""


class BadSetup(EngineError):
    """Unsupported player count, unknown variant, or a bad seed."""


Refusal = tuple[Any, ...]
"""Why an action is not legal, kept unformatted: ``(template, *arguments)`` for
``template.format(*arguments, action=action)``, or ``(function, *arguments)`` for
``function(action, *arguments)``.

A game states its rules once, as one function giving every action of the current step with
``None`` (legal) or a refusal; the legal list keeps the ``None`` ones and the error for an
illegal action formats its refusal. Formatting waits for the error because building the
legal list refuses dozens of actions per decision and reports none of them.
"""


def refusal_text(refusal: Refusal, action: object) -> str:
    """The message of a :data:`Refusal` of ``action`` (which a template may name)."""
    how, *arguments = refusal
    if callable(how):
        return str(how(action, *arguments))
    return str(how).format(*arguments, action=action)


def canonical_json(value: object) -> str:
    """The one JSON spelling used for digests and logs (sorted keys, no spaces)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


_IMMUTABLE = frozenset({int, str, bool, float, bytes, type(None)})


def structural_copy(value: T) -> T:
    """A copy of ``value`` that shares no mutable object with it.

    Game states hold plain data: numbers, strings, None, lists, dicts, sets and tuples of
    those, and their :class:`~engine.rng.Rng`. Those are copied by type here, far faster than
    ``copy.deepcopy`` (a flat list is recognised in C and sliced); anything else falls back
    to ``copy.deepcopy``, so a new kind of value is still copied whole, only more slowly.
    """
    return typing.cast(T, _copy_value(value))


def _copy_value(value: object) -> object:
    kind = type(value)
    if kind in _IMMUTABLE:
        return value
    if kind is list:
        items = typing.cast("list[object]", value)
        if _IMMUTABLE.issuperset(map(type, items)):
            return items[:]
        return [
            item
            if type(item) in _IMMUTABLE
            else item[:]
            if type(item) is list and _IMMUTABLE.issuperset(map(type, item))
            else _copy_value(item)
            for item in items
        ]
    if kind is dict:
        return {
            key: item if type(item) in _IMMUTABLE else _copy_value(item)
            for key, item in typing.cast("dict[object, object]", value).items()
        }
    if kind is tuple:
        return tuple(_copy_value(item) for item in typing.cast("tuple[object, ...]", value))
    if kind is set:
        return {_copy_value(item) for item in typing.cast("set[object]", value)}
    if kind is Rng:
        return typing.cast(Rng, value).copy()
    return copy.deepcopy(value)


Copier = Callable[[dict[str, Any]], dict[str, Any]]


def _is_immutable_type(tp: object) -> bool:
    """True for a type whose values are never changed in place (shared, not copied)."""
    if tp in _IMMUTABLE or tp is type(None):
        return True
    origin = typing.get_origin(tp)
    if origin is typing.Literal:
        return True
    if origin in (types.UnionType, typing.Union):
        return all(_is_immutable_type(arg) for arg in typing.get_args(tp))
    if origin is tuple or origin is frozenset:
        return all(arg is Ellipsis or _is_immutable_type(arg) for arg in typing.get_args(tp))
    return False


def _copy_expression(tp: object, var: str, depth: int) -> str:
    """Python source copying the value in ``var``, declared as ``tp``, sharing nothing mutable.

    Only shapes whose copy is certain are specialised (immutables, ``X | None``, lists,
    dicts and sets of those, :class:`Rng`); every other declared type is copied by
    :func:`structural_copy`, which inspects the value itself.
    """
    if _is_immutable_type(tp):
        return var
    if tp is Rng:
        return f"{var}.copy()"
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    item = f"_i{depth}"
    if origin in (types.UnionType, typing.Union):
        present = [arg for arg in args if arg is not type(None)]
        if len(present) == 1 and len(args) == 2:
            inner = _copy_expression(present[0], var, depth)
            return f"(None if {var} is None else {inner})"
    elif origin is list and len(args) == 1:
        if _is_immutable_type(args[0]):
            return f"{var}[:]"
        row = typing.get_args(args[0])
        if typing.get_origin(args[0]) is list and len(row) == 1 and _is_immutable_type(row[0]):
            return f"list(map(_copy_list, {var}))"  # rows of a table: each row copied in C
        return f"[{_copy_expression(args[0], item, depth + 1)} for {item} in {var}]"
    elif origin is dict and len(args) == 2 and _is_immutable_type(args[0]):
        if _is_immutable_type(args[1]):
            return f"{var}.copy()"
        key = f"_k{depth}"
        inner = _copy_expression(args[1], item, depth + 1)
        return f"{{{key}: {inner} for {key}, {item} in {var}.items()}}"
    elif origin is set and len(args) == 1 and _is_immutable_type(args[0]):
        return f"{var}.copy()"
    return f"_structural_copy({var})"


def state_copier(cls: type, sample: dict[str, Any]) -> Copier:
    """A function copying a state's attribute dict, generated from the class's declared types.

    Covers the declared attributes (class-body annotations, base classes included, not
    ``ClassVar``) present in ``sample``. The result raises ``KeyError`` when one of them is
    missing and leaves out attributes nobody declared; :meth:`GameState.clone` copies those
    with :func:`structural_copy`.
    """
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):  # a type only importable for type checkers: copy by value
        hints = {}
    lines = ["def copy_state(d):"]
    entries = []
    for index, (name, tp) in enumerate(hints.items()):
        if name not in sample or typing.get_origin(tp) is ClassVar:
            continue
        var = f"v{index}"
        lines.append(f"    {var} = d[{name!r}]")
        entries.append(f"{name!r}: {_copy_expression(tp, var, 0)}")
    lines.append("    return {" + ", ".join(entries) + "}")
    # Why generated source: a clone is the hot path of every search bot (tens of thousands per
    # second), and one straight-line function with a literal dict, each field copied by the
    # expression its declared type calls for, runs several times faster than a loop that
    # looks at every value's type on every clone (benchmarks/search_speed.py, clone column).
    # What it guarantees: the source is built only from the attribute names of the class
    # (``repr`` of identifiers, never data) and the fixed expressions of _copy_expression;
    # every declared attribute gets a copy that shares no mutable object with the original
    # (a shape not known to be safe falls back to _structural_copy, which inspects the value),
    # and undeclared or missing attributes are left to GameState.clone, which copies them too.
    # tests/engine/test_state_copier.py checks that no mutable object is shared after a clone.
    namespace: dict[str, Any] = {"_structural_copy": _copy_value, "_copy_list": list.copy}
    exec("\n".join(lines), namespace)  # noqa: S102 - source built above from type names only
    return typing.cast(Copier, namespace["copy_state"])


def competition_ranking(keys: Sequence[Any]) -> list[int]:
    """Rank per seat, 1 = best, larger key = better, equal keys share a rank (1, 1, 3)."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


class GameState(ABC):
    """One game in progress.  Subclasses keep all their state in plain attributes."""

    game_name: ClassVar[str]
    num_players: int
    variant: str
    rng: Rng
    _legal: list[Any] | None  # the cached legal list (see legal_actions)
    _copier: ClassVar[Copier | None] = None

    # --- whose turn and what may be done -------------------------------------------------
    @abstractmethod
    def current_player(self) -> int | None:
        """Seat to decide now, or ``None`` when the game is over."""

    def legal_actions(self) -> list[Action]:
        """Every legal action for :meth:`current_player`, in a stable order.

        Computed once per decision by :meth:`_compute_legal` and cached in ``_legal`` until
        the next :meth:`apply`: a player (or a playout) asks for the list and then applies one
        of it, and :meth:`apply` checks the action against the same list.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    @abstractmethod
    def apply(self, action: Action) -> None:
        """Apply the current player's action or raise :class:`IllegalAction` saying why.

        Games begin with :meth:`_accept_legal`, which refuses an illegal action before
        anything changes.
        """

    def _accept_legal(self, action: Action) -> None:
        """Raise :class:`IllegalAction` (:meth:`_why_illegal`) unless ``action`` is legal now;
        else drop the cached legal list, since the state is about to change."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        if action not in legal:
            raise IllegalAction(self._why_illegal(action))
        self._legal = None

    @abstractmethod
    def _compute_legal(self) -> list[Action]:
        """The legal actions of the current decision (uncached; :meth:`legal_actions` caches)."""

    @abstractmethod
    def _why_illegal(self, action: object) -> str:
        """Why ``action``, not in the legal list (``_legal``, filled), is refused now."""

    def is_terminal(self) -> bool:
        return self.current_player() is None

    # --- what each party may see ---------------------------------------------------------
    def check_seat(self, player: int) -> None:
        """Refuse a seat not at the table: a negative index would show the last seat's hand."""
        if isinstance(player, bool) or not isinstance(player, int):
            raise EngineError(f"a seat is a number, not {player!r}")
        if not 0 <= player < self.num_players:
            raise EngineError(f"there is no seat {player} at this {self.num_players}-player table")

    @abstractmethod
    def observation(self, player: int) -> Observation:
        """Exactly what ``player`` may know, JSON-able.  The only view a bot ever gets."""

    @abstractmethod
    def public_view(self) -> Observation:
        """What a spectator may see during the game (no hidden cards)."""

    # --- results -------------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[int]:
        """Final scores per seat; raises :class:`GameNotOver` before the end."""

    def ranking(self) -> list[int]:
        """Rank per seat (1 = best, ties share).  Games with tie-breaks override."""
        return competition_ranking(self.scores())

    # --- search and bookkeeping ----------------------------------------------------------
    def clone(self) -> Self:
        """An independent deep copy, RNG and caches included.

        Whole by construction: every attribute of the state is copied, so a field added to a
        game is never left shared between a clone and its original (a hand-kept list of
        fields per game once missed one, and search bots reasoned on clones that changed
        their original). Attributes the class declares with a type (``hold: list[list[int]]``
        in the class body) are copied by code generated once from those types
        (:func:`state_copier`); any other attribute, and any state whose attributes differ
        from the declared ones, is copied by :func:`structural_copy`. Games do not override
        this.
        """
        cls = type(self)
        copier = cls.__dict__.get("_copier")
        if copier is None:
            copier = state_copier(cls, self.__dict__)
            cls._copier = copier
        values = self.__dict__
        try:
            copied = copier(values)
        except KeyError:  # a declared attribute was deleted: copy what there is
            copied = {name: _copy_value(value) for name, value in values.items()}
        if len(copied) != len(values):  # attributes nobody declared: copied whole all the same
            for name, value in values.items():
                if name in copied:
                    continue
                kind = type(value)
                if kind in _IMMUTABLE:
                    copied[name] = value
                elif kind is list and _IMMUTABLE.issuperset(map(type, value)):
                    copied[name] = value[:]
                else:
                    copied[name] = _copy_value(value)
        other = object.__new__(cls)
        other.__dict__ = copied
        other.forget_derived()
        return other

    def forget_derived(self) -> None:
        """Drop what is derived from the state and recomputed on demand (cached legal lists).

        A clone starts without caches: a state edited after its caches were filled (as
        ``determinize`` redraws hidden cards) must not hand them on. Games with caches beyond
        ``_legal`` extend this.
        """
        if "_legal" in self.__dict__:
            self._legal = None

    @abstractmethod
    def determinize(self, player: int, rng: Rng) -> GameState:
        """A full state consistent with ``player``'s observation, hidden parts resampled.

        Search bots use this with the official engine: the result has the same
        observation for ``player`` but opponents' hidden cards and the order of
        hidden stacks are drawn from what ``player`` has not seen.
        """

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The complete state (hidden parts and RNG included) as JSON, for digests."""

    @abstractmethod
    def component_counts(self) -> dict[str, int]:
        """Totals of every conserved component (cards, counters...); constant all game."""

    def digest(self) -> str:
        """sha256 of the canonical snapshot: equal digests mean identical states."""
        return hashlib.sha256(canonical_json(self.snapshot()).encode()).hexdigest()


@dataclass(frozen=True)
class GameSpec:
    """What the registry knows about a game without starting one."""

    name: str
    title: str
    min_players: int
    max_players: int
    variants: tuple[str, ...]
    summary: str
    factory: Callable[[int, int, str], GameState] = field(repr=False)
    action_vocabulary: Callable[[int], list[Action]] = field(repr=False)
    """Every action that can ever be legal at a table of N players (for fixed action spaces)."""
    max_decisions: Callable[[int], int] = field(repr=False)
    """The most decisions (forced ones included) a game at a table of N players can take,
    whatever the players do: it follows from the rules, or from an anti-stall ruling where the
    rulebook allows a loop (each game's page in ``docs/games/`` gives the argument). Match
    runners derive their time bounds from it; the conformance suite checks it."""

    @property
    def player_counts(self) -> range:
        return range(self.min_players, self.max_players + 1)

    @property
    def default_variant(self) -> str:
        return self.variants[0]

    def new_state(self, seed: int, num_players: int, variant: str | None = None) -> GameState:
        """A fresh game; checks the arguments so every game reports bad setups alike."""
        variant = self.default_variant if variant is None else variant
        if num_players not in self.player_counts:
            raise BadSetup(
                f"{self.name} is for {self.min_players}-{self.max_players} players, "
                f"not {num_players}"
            )
        if variant not in self.variants:
            raise BadSetup(
                f"{self.name} has no variant {variant!r}; choose one of {', '.join(self.variants)}"
            )
        if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0 or seed >= 2**63:
            raise BadSetup(f"seed must be an integer in [0, 2**63), not {seed!r}")
        return self.factory(seed, num_players, variant)
