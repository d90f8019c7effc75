"""Each game's narration: a sentence for every kind of action seeded random games produce.

The kinds expected per game are the engine's whole action vocabulary (docs/games/*.md); the
seeds were chosen so that random play reaches each of them.  A sentence must name the seat,
read as a sentence, and not fall back to the raw action string.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any

import pytest

from bots.builtin import get_policy
from engine.match import play_match
from engine.registry import get_game
from ladder.web.narration import NARRATORS, changes, name_seats, narrate, progress, result
from ladder.web.narration.base import kind_of
from ladder.web.replay import build_replay

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
    """The chart ends at the final scores, except Packet Row's, which stays in money (its VP
    are hidden in hands until the end: one chart keeps one unit)."""
    n = PLAYERS[game]
    _, log = play_match(game, 3, [get_policy("random", game) for _ in range(n)])
    replayed = get_game(game).new_state(log["seed"], n, log["variant"])
    start = progress(game, replayed.public_view())
    assert start is not None and len(start) == n
    for entry in log["decisions"]:
        replayed.apply(entry["action"])
    end = progress(game, replayed.public_view())
    if game == "packet_row":
        assert end == [float(p["money"]) for p in replayed.public_view()["players"]]
        assert end != [float(s) for s in log["result"]["scores"]]  # VP would have been a jump
    else:
        assert end == [float(s) for s in log["result"]["scores"]]


def test_changes_name_the_seat_and_the_values():
    before = {"phase": "a", "players": [{"gold": 3, "hand": [1, 2]}, {"gold": 0, "hand": []}]}
    after = {"phase": "b", "players": [{"gold": 5, "hand": [1, 2]}, {"gold": 0, "hand": [4]}]}
    assert changes(before, after) == ["Seat 0's gold up from 3 to 5.", "Seat 1's hand: added 4."]


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
    assert changes(before, after) == ["Discards: added f, f."]


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


NAMES = ["amber-bot v1", "basalt v2", "cobalt v3", "dune v1"]


def named_replay(game: str, seed: int = 3):
    n = PLAYERS[game]
    _, log = play_match(game, seed, [get_policy("random", game) for _ in range(n)])
    names = NAMES[:n]
    replay = build_replay(log, seat_names=names, forfeits=[None] * n, reveal_private=True)
    assert replay.error == ""
    return log, names, replay


@pytest.mark.parametrize("game", sorted(KINDS))
def test_every_sentence_names_the_bot_with_its_seat(game):
    """No sentence says "Seat N": the bot's name, with where it is (for its seat colour)."""
    _, names, replay = named_replay(game)
    for frame in replay.frames[1:]:
        decision = frame["decision"]
        text, spans = decision["text"], decision["spans"]
        assert text.startswith(names[decision["seat"]]), text
        assert not re.search(r"\bSeat \d", text), text
        assert spans and spans[0] == [0, len(names[decision["seat"]]), decision["seat"]]
        for start, end, seat in spans:
            assert text[start:end] == names[seat]


def test_name_seats_marks_every_mention():
    text, spans = name_seats("Seat 1 attacks Seat 0's merchant; Seat 9 is no seat.", NAMES[:2])
    assert text == "basalt v2 attacks amber-bot v1's merchant; Seat 9 is no seat."
    assert spans == [[0, 9, 1], [18, 30, 0]]


@pytest.mark.parametrize("game", sorted(KINDS))
def test_change_lines_are_words_not_paths(game):
    """Every change line of a whole game reads as a short sentence: no path separators,
    arrows, list indices, raw keys or card labels, and seats by their bot's name."""
    _, _names, replay = named_replay(game)
    lines = [line for frame in replay.frames[1:] for line in frame["changes"]]
    assert lines
    for line in lines:
        assert line.endswith("."), line
        assert not re.search(r" · |→|->|#\d|_|\bSeat \d|\b(vp|goods|contract):", line), line
        assert "{" not in line and "None" not in line, line


def test_change_lines_say_the_game_s_things():
    view = get_game("borneo").new_state(1, 3, "standard").public_view()
    after = json.loads(json.dumps(view))
    after["harbors"][1]["flags"]["red"] += 2
    name = view["harbors"][1]["name"]
    flags = view["harbors"][1]["flags"]["red"]
    lines = changes(view, after, None, NARRATORS["borneo"].things)
    assert lines == [f"The red flags at {name} up from {flags} to {flags + 2}."]

    before = get_game("batavia").new_state(1, 3, "standard").public_view()
    moved = json.loads(json.dumps(before))
    moved["players"][2]["position"] = 3
    lines = changes(before, moved, None, NARRATORS["batavia"].things)
    assert lines == ["Seat 2's ship now at trading post 4 (was in Europe)."]


def finished_view(game: str, seed: int = 3):
    n = PLAYERS[game]
    _, log = play_match(game, seed, [get_policy("random", game) for _ in range(n)])
    state = get_game(game).new_state(log["seed"], n, log["variant"])
    for entry in log["decisions"]:
        state.apply(entry["action"])
    return log, state.public_view(), state.ranking()


@pytest.mark.parametrize("game", sorted(KINDS))
def test_the_result_line_gives_places_scores_and_the_breakdown(game):
    log, view, ranking = finished_view(game)
    line = result(game, view, ranking)
    assert line is not None and line.startswith("Result: ")
    scores = log["result"]["scores"]
    first = ranking.index(1)
    assert line.startswith(
        f"Result: 1st{'=' if ranking.count(1) > 1 else ''} Seat {first} with {scores[first]} ("
    )
    for seat, score in enumerate(scores):
        assert f"Seat {seat} with {score} (" in line
    # The breakdown names the parts that scored, in the game's words.
    words = NARRATORS[game].score_parts
    best = view["final"][first]
    scored = [w for key, w in words.items() if best.get(key)]
    assert all(w in line for w in scored), (scored, line)
    assert result(game, {**view, "final": None}, ranking) is None  # not before the end


def tie(view: dict, a: int, b: int) -> dict:
    view = json.loads(json.dumps(view))
    view["final"][b]["total"] = view["final"][a]["total"]
    return view


def result_of(game: str, view: dict, ranking: list[int]) -> str:
    line = result(game, view, ranking)
    assert line is not None, "no result line for a scored view"
    return line


def test_the_result_line_says_the_tie_break_that_applied():
    # Borneo: equal scores go to the player with more missions.
    _, view, _ = finished_view("borneo")
    view = tie(view, 0, 1)
    view["players"][0]["missions"] = ["one_of_each"]
    view["players"][1]["missions"] = ["one_of_each", "four_same"]
    total = view["final"][0]["total"]
    line = result_of("borneo", view, [2, 1, 3, 4])
    assert (
        f"Seat 1 and Seat 0 tie on {total} points; the tie-break, missions done "
        "(Seat 1 2, Seat 0 1), puts Seat 1, then Seat 0." in line
    ), line

    # Packet Row: equal VP go to the most money.
    _, view, _ = finished_view("packet_row")
    view = tie(view, 2, 0)
    view["final"][0]["money"], view["final"][2]["money"] = 12, 30
    line = result_of("packet_row", view, [2, 3, 1])
    assert "the tie-break, money left in $ (Seat 2 30, Seat 0 12), puts Seat 2, then Seat 0" in line

    # East Indiaman: arms level first; equal arms go on to influence points.
    _, view, _ = finished_view("east_indiaman")
    view = tie(view, 0, 1)
    view["players"][0]["arms"] = view["players"][1]["arms"] = 2
    view["final"][0]["influence"], view["final"][1]["influence"] = 4, 9
    line = result_of("east_indiaman", view, [2, 1, 3])
    assert (
        "the tie-break, arms level (Seat 1 2, Seat 0 2) then influence points "
        "(Seat 1 9, Seat 0 4), puts Seat 1, then Seat 0." in line
    ), line

    # Batavia has no tie-break: equal totals share the place.
    _, view, _ = finished_view("batavia")
    view = tie(view, 0, 1)
    for seat in (2,):
        view["final"][seat]["total"] = view["final"][0]["total"] + 5
    line = result_of("batavia", view, [2, 2, 1, 4])
    total = view["final"][0]["total"]
    assert line.startswith(f"Result: 1st Seat 2 with {total + 5} (")
    assert f"2nd= Seat 0 with {total} (" in line and f"2nd= Seat 1 with {total} (" in line
    assert f"Seat 0 and Seat 1 tie on {total} points and share 2nd place" in line, line


def test_the_replay_ends_with_the_named_result():
    log, names, replay = named_replay("borneo")
    assert replay.result is not None
    text, spans = replay.result["text"], replay.result["spans"]
    winner = log["result"]["ranking"].index(1)
    assert text.startswith(f"Result: 1st {names[winner]} with ")
    assert {seat for _, _, seat in spans} == set(range(len(names)))
    assert replay.as_data()["result"] == replay.result
