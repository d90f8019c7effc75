"""The game pages (``docs/games/<game>.md``, served at ``/games/<game>/``) teach the game.

A player's page has the sections a newcomer needs, no engine internals (source paths, class or
constant names: those live in ``docs/engine-notes/``), and worked examples that the engine can
set up and that list legal actions.  The example blocks themselves are checked here too: a
block with a wrong action must say so on the page instead of breaking it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.registry import all_games
from ladder.web.docs import COMMENT, render_markdown
from ladder.web.examples import ExampleError, build_example, render_example

DOCS = Path(__file__).resolve().parents[2] / "docs"
GAMES = sorted(all_games())
REQUIRED = (
    "Goal",
    "Components",
    "A turn",
    "Actions",
    "Scoring and the end",
    "Tie-breaks",
    "Rulings",
    "For bot authors",
)
EXAMPLE = re.compile(r"^```example\n(.*?)^```", re.MULTILINE | re.DOTALL)
SOURCE_PATH = re.compile(
    r"\b(?:engine|ladder|bots|tests|workers|shared|scripts|benchmarks|deploy)/|\.py\b"
)
CAMEL_CASE = re.compile(r"\b[A-Z][a-z0-9]+[A-Z][a-z0-9]+\w*")
PRIVATE_NAME = re.compile(r"\w\._\w")
# Upper-case words joined by underscores, but not the placeholders of an action pattern such
# as ``attack:COMPANY:RANK:DEFENDER_RANK`` (written in capitals on purpose, after a colon).
CONSTANT_NAME = re.compile(r"(?<![:\w])[A-Z][A-Z0-9]*_[A-Z0-9_]*[A-Z0-9]\b(?!:)")


def page(game: str) -> str:
    """The page's Markdown without HTML comments (the site drops those)."""
    return COMMENT.sub("", (DOCS / "games" / f"{game}.md").read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", GAMES)
def test_a_game_page_has_every_section_a_newcomer_needs(game):
    headings = [line[3:] for line in page(game).splitlines() if line.startswith("## ")]
    missing = [s for s in REQUIRED if not any(h.startswith(s) for h in headings)]
    assert not missing, f"docs/games/{game}.md lacks the sections {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_a_game_page_shows_no_engine_internals(game):
    text = page(game)
    found = {
        "source paths": SOURCE_PATH.findall(text),
        "CamelCase identifiers": CAMEL_CASE.findall(text),
        "private names": PRIVATE_NAME.findall(text),
        "CONSTANT_NAMES": CONSTANT_NAME.findall(text),
    }
    found = {kind: hits for kind, hits in found.items() if hits}
    assert not found, f"docs/games/{game}.md: move these to docs/engine-notes/{game}.md: {found}"


@pytest.mark.parametrize("game", GAMES)
def test_every_example_on_a_game_page_sets_up_and_lists_legal_actions(game):
    blocks = EXAMPLE.findall(page(game))
    assert blocks, f"docs/games/{game}.md has no example block"
    for block in blocks:
        example = build_example(block)
        assert example.game == game
        assert example.legal, f"an example of {game} lists no legal action:\n{block}"
        assert all(item.effect for item in example.legal)
        html = render_example(block)
        assert 'class="rule-example"' in html and "rule-example-error" not in html
        for item in example.legal:
            assert f"<code>{item.action}</code>" in html


@pytest.mark.parametrize("game", GAMES)
def test_a_game_page_links_the_schemas_a_bot_author_needs(game):
    html = render_markdown(page(game)).html
    assert f'href="/api/v1/games/{game}/schema/"' in html
    assert 'href="/api/schema/"' in html and 'href="/api/docs/"' in html
    assert 'href="/docs/protocol/"' in html


def test_the_inspector_would_catch_engine_internals():
    """The patterns above match what the old pages showed (so the check can fail)."""
    old = "See `engine/games/batavia/state.py`, `BataviaState._refusal` and `TARGET_COUNTER`."
    assert SOURCE_PATH.search(old) and CAMEL_CASE.search(old)
    assert PRIVATE_NAME.search(old) and CONSTANT_NAME.search(old)
    assert not CONSTANT_NAME.search("`attack:COMPANY:RANK:DEFENDER_RANK`")


def test_an_example_is_the_position_its_actions_reach():
    block = "game: borneo\nplayers: 3\nseed: 1\nactions: place:red place:yellow\n"
    example = build_example(block)
    assert example.to_move == 2  # the first placement round goes clockwise from seat 0
    assert example.view["companies"]["red"] == [0] and example.view["companies"]["yellow"] == [1]
    assert {item.action for item in example.legal} == {
        "place:yellow",
        "place:red",
        "place:green",
        "place:blue",
    }
    shown = build_example(block + "show: stay\n")
    assert shown.legal == [] and shown.hidden == 4


@pytest.mark.parametrize(
    "block, reason",
    [
        ("game: chess\nplayers: 2\nseed: 1\n", "no game named 'chess'"),
        ("game: borneo\nplayers: 3\n", "needs 'seed:'"),
        ("game: borneo\nplayers: three\nseed: 1\n", "whole numbers"),
        ("game: borneo\nplayers: 9\nseed: 1\n", "cannot set up the game"),
        ("game: borneo\nplayers: 3\nseed: 1\nactions: place:red fly:away\n", "action 2"),
        ("game: borneo\nplayers: 3\nseed: 1\nwhat is this\n", "line 4"),
    ],
)
def test_a_broken_example_says_why_on_the_page(block, reason):
    with pytest.raises(ExampleError, match=re.escape(reason)):
        build_example(block)
    html = render_markdown(f"# T\n\n```example\n{block}```\n").html
    assert "This example could not be set up" in html and "rule-example-error" in html


def test_other_fenced_blocks_stay_code_and_example_data_cannot_close_the_script():
    doc = render_markdown('# T\n\n```json\n{"a": "</script>"}\n```\n')
    assert "<pre><code" in doc.html and "&lt;/script&gt;" in doc.html
    html = render_example("game: borneo\nplayers: 3\nseed: 1\ntitle: </script><b>x</b>\n")
    assert "</script><b>" not in html and "&lt;/script&gt;&lt;b&gt;" in html


def test_the_east_indiaman_page_lists_every_order_as_the_engine_has_it():
    """Bots outside Python learn the orders from the page: its table must be the engine's."""
    from engine.games.east_indiaman import components as indiaman

    rows = re.findall(
        r"^\| (\d+) \| ([a-z ]+) \| ([a-z0-9, ]+) \| ([a-z, ]+) \|$", page("east_indiaman"), re.M
    )
    assert len(rows) == len(indiaman.ORDER_CARDS)
    for (number, colours, cargo, icons), card in zip(rows, indiaman.ORDER_CARDS, strict=True):
        asked = {name: int(n) for n, name in (part.split() for part in cargo.split(", "))}
        assert colours.split(" and ") == [indiaman.CARGOES[c] for c in card.colours], number
        assert asked == {indiaman.CARGOES[i]: n for i, n in enumerate(card.req) if n}, number
        assert icons.split(", ") == (list(card.icons) or ["none"]), number
