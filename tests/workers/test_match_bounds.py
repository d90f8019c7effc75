"""Bounds on what one seat can cost a match (issue 24): the game's decision bound, the
whole-match thinking budget, the reply size and the seat's share of the public log."""

from __future__ import annotations

import json

from engine.registry import get_game
from tests.workers.programs import BOTS, FAST, program, random_bot
from workers.launch import BotProgram
from workers.matches import protocol
from workers.matches.runner import TimeControls, run_match


def bot(name: str, *args: str) -> BotProgram:
    """A test bot of tests/workers/bots/ started with arguments."""
    return BotProgram(BOTS, ("python3", f"{name}.py", *args), name)


def test_a_bot_stalling_east_indiaman_with_legal_exchanges_ends_within_the_bound(launcher):
    """It once ran 20,038 decisions until the worker gave up; the anti-stall ruling ends each
    round, so the match ends within the game's bound and counts like any other."""
    tc = TimeControls(startup_ms=3_000, move_ms=2_000, bank_ms=2_000)
    outcome = run_match(
        "east_indiaman",
        3,
        [program("exchanger"), random_bot()],
        launcher=launcher,
        time_controls=tc,
    )
    assert outcome.forfeits == [None, None]
    decisions = outcome.log["decisions"]
    assert len(decisions) <= get_game("east_indiaman").max_decisions(2)
    exchanges = [d for d in decisions if d["seat"] == 0 and d["action"].startswith("exchange:")]
    assert len(exchanges) >= 5 * 12 - 12  # it did stall: the cap, round after round
    assert sorted(outcome.ranking) in ([1, 2], [1, 1])


def test_a_slow_but_legal_bot_forfeits_when_its_whole_match_budget_is_used_up(launcher):
    """0.3 s of CPU per decision is well within a 2 s move time, but two decisions exceed a
    0.5 s budget for the match: the seat forfeits with its own reason, the others play on.
    (However slow the machine, a second answer cannot come within the budget.)"""
    tc = TimeControls(startup_ms=5_000, move_ms=2_000, bank_ms=0, match_budget_ms=500)
    bots = [random_bot(), bot("cpu_spinner", "0.3"), random_bot()]
    outcome = run_match("batavia", 4, bots, launcher=launcher, time_controls=tc)
    assert outcome.forfeits[0] is None and outcome.forfeits[2] is None
    reason = outcome.forfeits[1] or ""
    assert reason.startswith("thinking_budget:") and "500 ms" in reason, reason
    answered = [d for d in outcome.log["decisions"] if d["seat"] == 1 and d["by"] == "bot"]
    assert len(answered) <= 1
    assert any(d["seat"] == 1 and d["by"] == "fallback" for d in outcome.log["decisions"])
    assert outcome.ranking[1] == 3 and outcome.log["result"]["forfeits"] == outcome.forfeits


def test_the_budget_and_what_is_left_of_it_are_told_to_the_bot():
    start = protocol.start_message(
        game="borneo",
        variant="standard",
        seat=0,
        num_players=3,
        seats=["a", "b", "c"],
        startup_ms=1,
        move_ms=1,
        bank_ms=1,
        max_decisions=9,
        match_budget_ms=60_000,
    )
    assert start["time"]["match_budget_ms"] == 60_000
    request = protocol.request_message(
        decision=1, observation={}, legal_actions=["a"], move_ms=1, bank_ms=1, budget_ms=1234.56
    )
    assert request["time"]["budget_ms"] == 1234.6


def test_a_reply_longer_than_the_cap_forfeits_and_one_at_the_cap_is_played(launcher):
    cap = protocol.MAX_REPLY_BYTES
    at_cap = run_match(
        "borneo",
        2,
        [random_bot(), bot("padded_reply", str(cap)), random_bot()],
        launcher=launcher,
        time_controls=FAST,
    )
    assert at_cap.forfeits == [None, None, None]
    over = run_match(
        "borneo",
        2,
        [random_bot(), bot("padded_reply", str(cap + 1)), random_bot()],
        launcher=launcher,
        time_controls=FAST,
    )
    reason = over.forfeits[1] or ""
    assert reason.startswith("oversized_line:") and str(cap) in reason, reason
    assert over.forfeits[0] is None and over.forfeits[2] is None


def test_the_reply_cap_covers_the_longest_legal_action_and_a_full_debug_note():
    longest = max(
        len(json.dumps({"action": action, "debug": "\U0001f600" * protocol.MAX_DEBUG_CHARS}))
        for game in ("batavia", "east_indiaman", "borneo", "packet_row")
        for n in get_game(game).player_counts
        for action in get_game(game).action_vocabulary(n)
    )
    assert 2 * longest <= protocol.MAX_REPLY_BYTES


def test_a_seats_debug_notes_in_the_public_log_are_capped_per_match(launcher, monkeypatch):
    monkeypatch.setattr(protocol, "MAX_DEBUG_CHARS_PER_MATCH", 2_250)  # a short game reaches it
    note = "n" * (2 * protocol.MAX_DEBUG_CHARS)
    bots = [random_bot(), bot("padded_reply", "2000", note), random_bot()]
    outcome = run_match("batavia", 6, bots, launcher=launcher, time_controls=FAST)
    assert outcome.forfeits == [None, None, None]
    mine = [d for d in outcome.log["decisions"] if d["seat"] == 1 and d["by"] == "bot"]
    assert len(mine) * protocol.MAX_DEBUG_CHARS > protocol.MAX_DEBUG_CHARS_PER_MATCH  # it tried
    notes = [d.get("debug", "") for d in mine]
    assert notes[0] == "n" * protocol.MAX_DEBUG_CHARS  # each note cut, the first ones kept
    assert sum(map(len, notes)) == protocol.MAX_DEBUG_CHARS_PER_MATCH
    assert notes[4] == "n" * 250 and "debug" not in mine[-1]


def test_the_match_tasks_time_limit_covers_every_games_bound_from_the_settings(settings):
    """The task's limit is computed from the decision bounds and the budgets, not a fixed
    number that a slow-but-legal bot could outlast (90 s once failed every such match)."""
    from ladder.core.match_bounds import match_time_bound_s
    from workers.matches import tasks

    budget = settings.MONSOON_MATCH_THINKING_BUDGET_SECONDS
    startup = settings.MONSOON_MATCH_STARTUP_SECONDS
    factor = settings.MONSOON_DECISION_WALL_FACTOR
    soft, hard = tasks.run_match.soft_time_limit, tasks.run_match.time_limit
    assert soft == settings.MONSOON_MATCH_TIME_LIMIT
    assert hard is not None and soft is not None and hard > soft
    for game in ("batavia", "east_indiaman", "borneo", "packet_row"):
        for n in get_game(game).player_counts:
            bound = match_time_bound_s(
                game, n, startup_s=startup, budget_s=budget, wall_factor=factor
            )
            # A seat that sleeps is charged its wall time over the factor: it may think for
            # budget x factor seconds of wall time.
            assert n * budget * factor + get_game(game).max_decisions(n) * 0.001 < bound
            assert bound <= settings.MONSOON_MATCH_TIME_LIMIT
    clock = tasks.match_time_controls()
    assert clock.match_budget_ms == budget * 1000 and clock.startup_ms == startup * 1000
    assert clock.wall_factor == factor
