"""Each game's narration: a sentence for every kind of action seeded random games produce.

The kinds expected per game are the engine's whole action vocabulary (docs/games/*.md); the
seeds were chosen so that random play reaches each of them.  A sentence must name the seat,
read as a sentence, and not fall back to the raw action string.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Any

import pytest

from bots.builtin import get_policy
from engine.match import play_match
from engine.registry import get_game
from ladder.web.narration import NARRATORS, changes, narrate, progress
from ladder.web.narration.base import kind_of

KINDS = {
    "batavia": {"bid", "pass", "draw", "lay", "stop", "move", "exchange", "keep"},
    "east_indiaman": {
        "buy",
        "exchange",
        "order",
        "invest",
        "post",
        "lower",
        "smuggle",
        "pass",
    },
    "borneo": {
        "place",
        "stay",
        "move",
        "attack",
        "fight",
        "fight-done",
        "defend",
        "defend-done",
        "retreat",
        "reward",
        "no-reward",
        "ship",
        "take",
        "discard",
        "mission",
        "no-mission",
        "pay",
        "trade",
    },
    "packet_row": {
        "area",
        "take",
        "assist",
        "pass",
        "cash",
        "contract",
        "done",
        "sail",
        "ship",
        "captain",
        "goods",
        "trade",
        "gold1",
        "gold2",
    },
}
PLAYERS = {"batavia": 4, "east_indiaman": 3, "borneo": 4, "packet_row": 3}
SEEDS = range(8)
# Borneo's Blackbeard trade is legal only while paying a mission that lacks exactly one spice;
# random play did not reach it in 40 seeds (nor greedy play), so it is checked on its own below.
UNREACHED = {"borneo": {"trade"}}


def narrated_steps(game: str):
    """(seat, action, sentence, before, after) for every decision of the seeded games."""
    n = PLAYERS[game]
    for seed in SEEDS:
        _, log = play_match(game, seed, [get_policy("random", game) for _ in range(n)])
        state = get_game(game).new_state(log["seed"], n, log["variant"])
        for entry in log["decisions"]:
            before = state.public_view()
            state.apply(entry["action"])
            after = state.public_view()
            text = narrate(game, entry["seat"], entry["action"], before, after)
            yield entry["seat"], entry["action"], text, before, after


@pytest.mark.parametrize("game", sorted(KINDS))
def test_every_action_kind_gets_a_human_sentence(game):
    examples: dict[str, list[str]] = defaultdict(list)
    for seat, action, text, _before, _after in narrated_steps(game):
        kind = kind_of(action)
        assert text.startswith(f"Seat {seat}"), (action, text)
        assert text.endswith("."), (action, text)
        assert "plays '" not in text, f"{action!r} fell back to the raw action: {text}"
        if ":" in action:
            assert action not in text, (action, text)
        assert not re.search(r"\{|\}|None|\[", text), (action, text)
        examples[kind].append(text)
    assert set(examples) == KINDS[game] - UNREACHED.get(game, set()), (
        "seeded games must reach every action kind"
    )
    assert NARRATORS[game].kinds == KINDS[game]


def test_sentences_say_what_happened():
    """Spot checks against the public view: the numbers in a sentence are the game's."""
    seen: dict[tuple[str, str], tuple[Any, ...]] = {}
    for game in KINDS:
        for seat, action, text, before, after in narrated_steps(game):
            seen.setdefault((game, kind_of(action)), (seat, action, text, before, after))
    seat, action, text, _, _ = seen[("batavia", "bid")]
    assert text.startswith(f"Seat {seat} bids {int(action[4:])} promissory note")
    seat, action, text, before, after = seen[("east_indiaman", "invest")]
    cargo = action.split(":")[1]
    assert f"raising it to level {after['players'][seat]['levels'][cargo]}" in text
    seat, action, text, before, _ = seen[("borneo", "ship")]
    harbor = before["harbors"][int(action.split(":")[2])]["name"]
    assert text.endswith(f"to {harbor}.")
    seat, action, text, before, after = seen[("packet_row", "take")]
    paid = before["players"][seat]["money"] - after["players"][seat]["money"]
    assert (f"for ${paid}." in text) == (paid > 0), text


def test_borneo_blackbeard_trade():
    view = get_game("borneo").new_state(1, 4, "standard").public_view()
    assert narrate("borneo", 2, "trade:s36", view, view) == (
        "Seat 2 trades shipment card 36 (1 nutmeg) with the pirates as a spice of any kind."
    )
    assert narrate("borneo", 0, "trade:h0", view, view) == (
        "Seat 0 trades the Achim harbor card with the pirates as a spice of any kind."
    )


def test_unknown_actions_and_games_fall_back_to_the_raw_action():
    assert narrate("batavia", 2, "fly:moon", {}, {}) == "Seat 2 plays 'fly:moon'."
    assert narrate("chess", 0, "e4", {}, {}) == "Seat 0 plays 'e4'."
    # A known kind with a view that lacks what it needs says what was played, no crash.
    assert narrate("borneo", 1, "ship:3:0", {}, {}) == "Seat 1 plays 'ship:3:0'."


@pytest.mark.parametrize("game", sorted(KINDS))
def test_progress_ends_at_the_final_scores(game):
    n = PLAYERS[game]
    _, log = play_match(game, 3, [get_policy("random", game) for _ in range(n)])
    replayed = get_game(game).new_state(log["seed"], n, log["variant"])
    start = progress(game, replayed.public_view())
    assert start is not None and len(start) == n
    for entry in log["decisions"]:
        replayed.apply(entry["action"])
    assert progress(game, replayed.public_view()) == [float(s) for s in log["result"]["scores"]]


def test_changes_name_the_seat_and_the_values():
    before = {"phase": "a", "players": [{"gold": 3, "hand": [1, 2]}, {"gold": 0, "hand": []}]}
    after = {"phase": "b", "players": [{"gold": 5, "hand": [1, 2]}, {"gold": 0, "hand": [4]}]}
    assert changes(before, after) == ["Seat 0 · gold: 3 → 5", "Seat 1 · hand: none → 4"]


def test_a_new_round_and_the_end_are_said():
    rounds = ends = 0
    for _seat, _action, text, before, after in narrated_steps("packet_row"):
        if after["round"] != before["round"] and not after.get("final"):
            assert text.endswith(f"Round {after['round']} begins."), text
            rounds += 1
        if after.get("final") and not before.get("final"):
            assert text.endswith("The game ends and is scored."), text
            ends += 1
    assert rounds > 0 and ends == len(SEEDS)


def test_long_lists_say_what_was_added_and_removed():
    before = {"discards": ["a", "b", "c", "d", "e"]}
    after = {"discards": ["a", "b", "c", "d", "e", "f", "f"]}
    assert changes(before, after) == ["discards: 5 → 7; + f, + f"]


def test_batavia_running_score_is_the_final_scoring_of_the_public_view():
    view = get_game("batavia").new_state(1, 3, "standard").public_view()
    view["players"][0].update(gold=3, seals=["GB", "FR"], notes=10)
    view["players"][1].update(notes=12)
    view["players"][2].update(notes=12)
    view["warehouses"]["tea"]["GB"] = 0  # seat 0 alone in tea: 10; pepper shared by 1 and 2: 8
    view["warehouses"]["pepper"]["DK"] = 1
    view["warehouses"]["pepper"]["SE"] = 2
    view["target_holder"] = 2
    # seat 0: 3 gold + 2 seals x 2 + tea 10; seats 1 and 2 share most notes (2) and pepper (8).
    assert progress("batavia", view) == [17.0, 10.0, 14.0]


def test_packet_row_change_lines_read_cards_as_words():
    for _seat, action, _text, before, after in narrated_steps("packet_row"):
        if action.startswith("take:"):
            lines = changes(before, after, NARRATORS["packet_row"].words)
            assert lines and not any(re.search(r"\b(vp|goods|contract|money):", x) for x in lines)
            return
    raise AssertionError("no take in the seeded games")
