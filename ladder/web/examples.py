"""Worked examples on the rules pages: a position computed by the engine, drawn by the replay's
board drawing, with the legal actions and what each does.

A game page (``docs/games/<game>.md``) writes an example as a fenced block::

    ```example
    game: borneo
    players: 3
    seed: 7
    actions: place:yellow place:red place:green
    show: attack fight
    ```

``actions`` (one or more lines, separated by spaces) are played from the start of a game
dealt with ``seed``; ``variant`` picks a variant and ``show`` keeps only the legal actions
whose kind (the part before the first ``:``) is listed.  The engine is deterministic from the
seed and the actions, so the block always shows the same position.  On GitHub the block
reads as the recipe it is; on the site :func:`render_example` turns it into the data the
page's ``examples.js`` hands to the game's drawing (``static/web/games/<game>.js``, the same
one the replay viewer uses), plus a list of every shown legal action with the sentence the
replay would print for it (``ladder.web.narration``), found by playing it on a copy.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any

from engine.core import EngineError
from engine.registry import all_games
from ladder.web.narration import narrate
from ladder.web.replay import catalogue

FIELDS = ("game", "players", "seed", "variant", "actions", "show", "title")


class ExampleError(ValueError):
    """An example block that does not describe a reachable position (said on the page)."""


@dataclass
class LegalAction:
    action: str
    effect: str


@dataclass
class Example:
    game: str
    players: int
    seed: int
    variant: str | None
    actions: list[str]
    title: str = ""
    to_move: int | None = None
    legal: list[LegalAction] = field(default_factory=list)
    hidden: int = 0
    """Legal actions left out of the list by ``show``."""
    view: dict[str, Any] = field(default_factory=dict)
    private: dict[str, Any] | None = None

    def drawing_data(self) -> dict[str, Any]:
        """What ``examples.js`` needs to draw the position as the replay viewer would."""
        return {
            "game": self.game,
            "seats": [f"seat {s}" for s in range(self.players)],
            "view": self.view,
            "view_as": self.to_move,
            "private": self.private,
            "catalogue": catalogue(self.game),
        }


def parse_example(text: str) -> dict[str, str]:
    """The block's ``key: value`` lines; a line without a key continues the previous value."""
    values: dict[str, str] = {}
    last: str | None = None
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.strip()
        if not line or line.startswith("#"):
            continue
        key, colon, rest = line.partition(":")
        key = key.strip().lower()
        if colon and key in FIELDS:
            values[key] = rest.strip()
            last = key
        elif last == "actions":
            values["actions"] += " " + line
        else:
            raise ExampleError(f"line {number}: expected 'key: value' with a key of {FIELDS}")
    for key in ("game", "players", "seed"):
        if key not in values:
            raise ExampleError(f"an example needs '{key}:'")
    return values


def build_example(text: str) -> Example:
    """Play the block's actions and collect the position, its drawing data and legal actions."""
    values = parse_example(text)
    spec = all_games().get(values["game"])
    if spec is None:
        raise ExampleError(f"no game named {values['game']!r}")
    try:
        players, seed = int(values["players"]), int(values["seed"])
    except ValueError as exc:
        raise ExampleError("'players' and 'seed' must be whole numbers") from exc
    variant = values.get("variant") or None
    actions = values.get("actions", "").split()
    try:
        state = spec.new_state(seed, players, variant)
    except EngineError as exc:
        raise ExampleError(f"cannot set up the game: {exc}") from exc
    for index, action in enumerate(actions, start=1):
        try:
            state.apply(action)
        except EngineError as exc:
            raise ExampleError(f"action {index} ({action}): {exc}") from exc
    example = Example(
        game=spec.name,
        players=players,
        seed=seed,
        variant=variant,
        actions=actions,
        title=values.get("title", ""),
    )
    example.view = state.public_view()
    mover = state.current_player()
    example.to_move = mover
    if mover is not None:
        observation = state.observation(mover)
        example.private = {
            k: v
            for k, v in observation.items()
            if k != "seat" and (k not in example.view or example.view[k] != v)
        }
    if mover is None:
        return example  # the game is over: nothing is legal
    kinds = set(values.get("show", "").split())
    for action in state.legal_actions():
        if kinds and action.split(":")[0] not in kinds:
            example.hidden += 1
            continue
        after = state.clone()
        after.apply(action)
        effect = narrate(spec.name, mover, action, example.view, after.public_view())
        example.legal.append(LegalAction(action, effect))
    return example


def _json_for_script(value: object) -> str:
    """JSON safe inside a ``<script>`` element (as Django's ``json_script`` escapes it)."""
    text = json.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003C").replace(">", "\\u003E").replace("&", "\\u0026")


def render_example(text: str) -> str:
    """The block as HTML: the board (drawn by ``examples.js``) and the legal actions."""
    try:
        example = build_example(text)
    except ExampleError as exc:
        return (
            '<div class="notice rule-example-error"><p>This example could not be set up: '
            f"{html.escape(str(exc))}</p><pre><code>{html.escape(text)}</code></pre></div>\n"
        )
    esc = html.escape
    recipe = f"{example.players} players, seed {example.seed}"
    if example.variant:
        recipe += f", variant {example.variant}"
    recipe += f", after {len(example.actions)} actions"
    mover = "nobody (the game is over)" if example.to_move is None else f"seat {example.to_move}"
    items = "".join(
        f"<li><code>{esc(item.action)}</code>: {esc(item.effect)}</li>" for item in example.legal
    )
    more = (
        f'<li class="muted">and {example.hidden} other legal actions of other kinds</li>'
        if example.hidden
        else ""
    )
    title = f"<strong>{esc(example.title)}</strong> " if example.title else ""
    return (
        f'<figure class="rule-example" data-game="{esc(example.game)}">'
        f'<figcaption>{title}<span class="muted">({esc(recipe)})</span></figcaption>'
        '<div class="rule-example-board"><noscript>The board is drawn by JavaScript.</noscript>'
        "</div>"
        f'<script type="application/json" class="rule-example-data">'
        f"{_json_for_script(example.drawing_data())}</script>"
        f"<p>To move: {esc(mover)}. Legal actions and what each does:</p>"
        f'<ul class="rule-example-actions">{items}{more}</ul>'
        "</figure>\n"
    )
