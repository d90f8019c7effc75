"""The docs and the embedded examples are what scripts/render_schemas.py makes of them today.

The example observation in each schema file comes from a seeded game, so a change to a
game's views or rules shows up here as well as in the key table.
"""

from __future__ import annotations

import json

import pytest

from engine.registry import all_games
from engine.schemas import key_rows, load_schema
from tests.schemas.helpers import ROOT, render_schemas

GAMES = list(all_games())


@pytest.mark.parametrize("game", GAMES)
def test_the_schema_file_and_the_game_page_are_up_to_date(game):
    render = render_schemas()
    stale = [
        str(path.relative_to(ROOT))
        for path, text in render.expected_files(game).items()
        if path.read_text(encoding="utf-8") != text
    ]
    assert not stale, f"out of date: {', '.join(stale)}; regenerate with `{render.REGENERATE}`"


@pytest.mark.parametrize("game", GAMES)
def test_the_page_has_one_generated_section_listing_every_key(game):
    render = render_schemas()
    page = render.doc_path(game).read_text(encoding="utf-8")
    assert page.count(render.BEGIN) == 1 and page.count(render.END) == 1
    section = page[page.index(render.BEGIN) : page.index(render.END)]
    for path, _kind, _text in key_rows(load_schema(game), "observation"):
        assert f"| `{path}` |" in section


def test_a_changed_description_makes_the_page_stale():
    render = render_schemas()
    document = json.loads(json.dumps(load_schema("borneo")))
    players = document["$defs"]["public_fields"]["properties"]["players"]
    players["items"]["properties"]["hand_size"]["description"] = "Cards kept up the sleeve."
    page = render.doc_path("borneo").read_text(encoding="utf-8")
    changed = render.with_section(page, render.render_section(document, "borneo"))
    assert changed != page
    assert "| `players[].hand_size` | integer ≥ 0 | Cards kept up the sleeve. |" in changed


def test_a_page_without_markers_gets_the_section_appended_and_keeps_its_text():
    render = render_schemas()
    section = f"{render.BEGIN}\nkeys\n{render.END}"
    page = render.with_section("# Game\n\nRules.\n", section)
    assert page == f"# Game\n\nRules.\n\n{section}\n"
    assert render.with_section(page, section.replace("keys", "new keys")) == page.replace(
        "keys", "new keys"
    )


def test_the_check_mode_names_a_stale_file_and_fails(tmp_path, monkeypatch, capsys):
    render = render_schemas()
    schema = tmp_path / "schema.json"
    schema.write_text(render.schema_path("batavia").read_text(encoding="utf-8"), "utf-8")
    stale_page = tmp_path / "batavia.md"
    stale_page.write_text("# Batavia\n", encoding="utf-8")
    monkeypatch.setattr(render, "ROOT", tmp_path)
    monkeypatch.setattr(render, "schema_path", lambda game: schema)
    monkeypatch.setattr(render, "doc_path", lambda game: stale_page)
    assert render.main(["--check", "batavia"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"out of date: batavia.md (run {render.REGENERATE})"
    ]
    assert stale_page.read_text(encoding="utf-8") == "# Batavia\n"  # --check writes nothing
    assert render.main(["batavia"]) == 0
    assert render.BEGIN in stale_page.read_text(encoding="utf-8")
    assert render.main(["--check", "batavia"]) == 0
