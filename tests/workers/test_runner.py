"""The match runner with real bot processes (LocalLauncher): results, forfeits, clocks, stderr."""

from __future__ import annotations

import dataclasses
import json
import os
from typing import Any

import pytest

from engine.log import replay
from ladder.bots.services import SmokeTable
from tests.workers.programs import FAST, program, random_bot
from tests.workers.sandbox_helpers import launcher as sandbox_launcher
from tests.workers.sandbox_helpers import needs_sandbox
from workers.launch import BotProgram, LaunchError, Limits
from workers.matches import validation
from workers.matches.reference import reference_bot
from workers.matches.runner import STDERR_CAP_BYTES, MatchOutcome, TimeControls, run_match
from workers.matches.validation import validate_bot


def play(
    launcher,
    middle: BotProgram,
    *,
    game: str = "batavia",
    seed: int = 1,
    tc: TimeControls = FAST,
    **kwargs,
):
    bots = [random_bot(), middle, random_bot()]
    return run_match(game, seed, bots, launcher=launcher, time_controls=tc, **kwargs)


def test_a_clean_match_records_times_and_replays(launcher):
    outcome = play(launcher, program("echo_first"))
    assert outcome.forfeits == [None, None, None]
    assert outcome.ranking == outcome.engine_ranking == outcome.log["result"]["ranking"]
    by = {entry["by"] for entry in outcome.log["decisions"]}
    assert by <= {"bot", "forced"} and "bot" in by
    timed = [d for d in outcome.log["decisions"] if d["by"] == "bot"]
    assert all(0 < d["ms"] < 1000 for d in timed)
    assert any(d.get("debug") == "first" for d in timed if d["seat"] == 1)
    assert all(ms is not None and ms > 0 for ms in outcome.startup_ms)
    replay(outcome.log)


def test_reference_bots_play_the_same_game_every_time(launcher):
    first = play(launcher, reference_bot("greedy"), seed=5)
    second = play(launcher, reference_bot("greedy"), seed=5)
    actions = [[d["action"] for d in o.log["decisions"]] for o in (first, second)]
    assert actions[0] == actions[1] and first.scores == second.scores


@pytest.mark.parametrize(
    ("bot", "code"),
    [
        ("exit_at_import", "crash"),
        ("crash_midgame", "crash"),
        ("close_stdout", "crash"),
        ("illegal", "illegal_action"),
        ("not_json", "malformed_reply"),
        ("wrong_schema", "malformed_reply"),
        ("huge_line", "oversized_line"),
        ("sleeper", "timeout"),
        ("no_read", "timeout"),
        ("memory_hog", "memory_limit"),
        ("fork_refused", "process_limit"),
    ],
)
def test_each_failure_is_a_forfeit_and_the_match_still_completes(launcher, bot, code):
    # The sleepers never answer: without the runner's own deadlines this would never return.
    outcome = play(launcher, program(bot))
    reason = outcome.forfeits[1]
    assert reason is not None and reason.startswith(code + ":"), reason
    assert outcome.forfeits[0] is None and outcome.forfeits[2] is None
    assert outcome.ranking[1] == 3 and sorted(outcome.ranking[::2]) == [1, 2]
    assert outcome.log["result"]["forfeits"] == outcome.forfeits
    assert any(d["by"] == "fallback" and d["seat"] == 1 for d in outcome.log["decisions"])
    replay(outcome.log)  # the fallback moves make a complete, reproducible game


def test_output_between_decisions_waits_for_the_seats_next_decision(launcher):
    outcome = play(launcher, program("stray_output"))
    assert outcome.forfeits == [None, None, None]
    answered = [d for d in outcome.log["decisions"] if d["seat"] == 1 and d["by"] == "bot"]
    assert len(answered) > 3 and all(d["debug"] == "first" for d in answered)
    replay(outcome.log)


def test_a_crash_keeps_the_traceback_for_the_owner(launcher):
    outcome = play(launcher, program("crash_midgame"))
    assert "RuntimeError: bug in my bot" in outcome.stderr[1]
    assert "exited with status 1" in outcome.forfeits[1]
    assert "stderr" not in outcome.log["result"]  # the public log holds no stderr
    assert outcome.owner_log()["result"]["stderr"][1] == outcome.stderr[1]


def test_start_up_has_its_own_budget(launcher):
    # The bot sleeps 60 s before answering: using no CPU, it meets the wall-clock backstop of
    # its 500 ms start-up budget (here 2 x 500 ms).
    tc = TimeControls(startup_ms=500, move_ms=100, bank_ms=300, wall_factor=2)
    outcome = play(launcher, program("slow_start"), tc=tc)
    assert outcome.forfeits[1].startswith(
        "startup_timeout: no ready answer within 2 times 500 ms of wall-clock time"
    ), outcome.forfeits[1]
    assert outcome.startup_ms[1] is None
    assert not any(d["seat"] == 1 and d["by"] == "bot" for d in outcome.log["decisions"])


def test_a_slow_bot_lives_on_its_bank_until_the_bank_is_gone(launcher):
    # The bot takes 150 ms per decision against 50 ms of move time, so every answer draws on the
    # bank, and it reports the bank each request grants it. What is checked is the runner's
    # bookkeeping, exact whatever the machine's load: each answer's time over the move time
    # leaves the bank, and the decision after the last answer is the one the bank cannot cover.
    tc = TimeControls(startup_ms=3_000, move_ms=50, bank_ms=350)
    outcome = play(launcher, program("slow_mover"), tc=tc)
    assert outcome.forfeits[1].startswith("timeout:")
    answered = [d["ms"] for d in outcome.log["decisions"] if d["seat"] == 1 and d["by"] == "bot"]
    lines = [line for line in outcome.stderr[1].split("\n") if line]
    banks = [float(line.split()[1]) for line in lines if not line.startswith("[monsoon step")]
    assert banks[0] == 350
    assert len(banks) == len(answered) + 1  # one request more: the one it timed out on
    # The bot's own 150 ms of CPU is a lower bound, up to the precision of the reading: where
    # a seat has no cgroup, its CPU comes from /proc in clock ticks, and each of the two
    # readings around a decision may round down by one tick (a loaded CI run charged 14x ms).
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    assert all(ms >= 150 - 2 * tick_ms for ms in answered)
    # The bank is sent rounded to 0.1 ms: two roundings apart at most 0.1 ms.
    for granted, next_granted, ms in zip(banks, banks[1:], answered, strict=False):
        assert next_granted == pytest.approx(granted - (ms - 50), abs=0.11)
    assert banks[-1] <= 350 - (100 - 2 * tick_ms) * len(answered) + 0.05
    # Each decision's stderr follows a mark naming its replay step (the match page reads it).
    steps = [
        i for i, d in enumerate(outcome.log["decisions"], 1) if d["seat"] == 1 and d["by"] == "bot"
    ]
    marks = [int(line[len("[monsoon step ") : -1]) for line in lines if line.startswith("[monsoon")]
    assert steps and marks[: len(steps)] == steps  # (and the decision it timed out in)


def test_the_same_bot_keeps_playing_within_its_move_time_without_a_bank(launcher):
    # Its 30 ms of CPU per decision fit the move time with room to spare (no tight margin): the
    # match is played to the end and no decision draws on the (empty) bank.
    tc = TimeControls(startup_ms=3_000, move_ms=2_000, bank_ms=0)
    bot = dataclasses.replace(program("slow_mover"), env={"SPIN_MS": "30"})
    outcome = play(launcher, bot, tc=tc, game="packet_row")
    assert outcome.forfeits == [None, None, None]
    lines = [line for line in outcome.stderr[1].split("\n") if line]
    banks = {line.split()[1] for line in lines if not line.startswith("[monsoon step")}
    assert banks == {"0.0"}


def test_stderr_is_capped_and_a_flood_does_not_block_the_match(launcher):
    outcome = play(launcher, program("stderr_flood"))
    assert outcome.forfeits == [None, None, None]
    text = outcome.stderr[1]
    assert len(text.encode()) < STDERR_CAP_BYTES + 200
    head = text.lstrip().split("\n", 1)
    assert head[0].startswith("[monsoon step ") and head[1].startswith("spam")
    assert "bytes of stderr dropped" in text


def test_the_decision_cap_forfeits_with_decision_limit(launcher):
    tc = TimeControls(startup_ms=3_000, move_ms=100, bank_ms=300, max_decisions_per_seat=3)
    outcome = play(launcher, program("echo_first"), tc=tc)
    assert outcome.forfeits[1].startswith("decision_limit:")
    answered = [d for d in outcome.log["decisions"] if d["seat"] == 1 and d["by"] == "bot"]
    assert len(answered) == 3


def test_several_forfeits_rank_the_earlier_one_lower(launcher):
    bots = [program("crash_midgame"), program("illegal"), random_bot(), program("echo_first")]
    outcome = run_match("batavia", 3, bots, launcher=launcher, time_controls=FAST)
    fallback = [d["seat"] for d in outcome.log["decisions"] if d["by"] == "fallback"]
    assert (outcome.forfeits[0] or "").startswith("crash")
    assert (outcome.forfeits[1] or "").startswith("illegal")
    # The illegal bot fails at its first decision; the crashing bot only at its third.
    assert fallback.index(1) < fallback.index(0)
    assert outcome.ranking[0] == 3 and outcome.ranking[1] == 4
    assert sorted(outcome.ranking[2:]) in ([1, 2], [1, 1])


def test_bots_failing_at_start_up_share_last_place(launcher):
    bots = [program("exit_at_import"), random_bot(), program("exit_at_import")]
    outcome = run_match("batavia", 3, bots, launcher=launcher, time_controls=FAST)
    assert outcome.ranking == [2, 1, 2]


class _BrokenLauncher:
    def launch(self, program, *, slot, limits):
        raise LaunchError("cannot start 'no-such-interpreter': No such file or directory")


def test_a_bot_that_cannot_start_forfeits_without_raising():
    bots = [BotProgram(program("echo_first").directory, ("no-such-interpreter",))] * 3
    outcome = run_match("batavia", 1, bots, launcher=_BrokenLauncher(), time_controls=FAST)
    assert all(
        (reason or "").startswith("crash: could not be started") for reason in outcome.forfeits
    )
    replay(outcome.log)


def test_nothing_of_a_bot_survives_the_match(launcher):
    outcome = play(launcher, program("no_read"))
    assert outcome.forfeits[1].startswith("timeout")
    pids = [p for p in os.listdir("/proc") if p.isdigit()]
    cmdlines = []
    for pid in pids:
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                cmdlines.append(handle.read())
        except OSError:
            continue
    assert not any(b"no_read.py" in line for line in cmdlines)


def test_bad_arguments_fail_before_any_bot_starts(launcher):
    from engine.core import BadSetup

    with pytest.raises(BadSetup):
        run_match("batavia", 1, [random_bot()], launcher=launcher)


def test_validate_bot_accepts_a_working_bot_and_explains_a_broken_one(launcher):
    ok, text = validate_bot(
        "packet_row", program("echo_first"), launcher=launcher, time_controls=FAST
    )
    assert ok and "2-player packet_row smoke match" in text
    ok, text = validate_bot(
        "packet_row", program("crash_midgame"), launcher=launcher, time_controls=FAST
    )
    assert not ok and "crash" in text and "bug in my bot" in text


def _seen(stderr: str) -> tuple[dict, set[str]]:
    """The start of a what_i_see seat's report and the shapes of the requests it got."""
    start = next(line for line in stderr.splitlines() if line.startswith("SEEN "))
    requests = {line for line in stderr.splitlines() if line.startswith("REQUEST ")}
    return json.loads(start[len("SEEN ") :]), requests


@needs_sandbox
def test_a_smoke_match_looks_from_inside_the_sandbox_like_a_ranked_one(monkeypatch):
    """Smoke opponents were named random1...: a bot could behave only while validated."""
    played: list[MatchOutcome] = []

    def run_and_keep(*args: Any, **kwargs: Any) -> MatchOutcome:
        played.append(run_match(*args, **kwargs))
        return played[-1]

    monkeypatch.setattr(validation, "run_match", run_and_keep)
    table = SmokeTable(seat=1, names=("carol-bot v2", "alice-bot v3"), variant="standard")
    probe = program("what_i_see")
    ok, text, log = validation.smoke_match(
        "packet_row", probe, launcher=sandbox_launcher(), time_controls=FAST, table=table
    )
    assert ok, text
    ranked = run_match(  # as workers.matches.job.play runs a ranked match at this table
        "packet_row",
        987654,
        [reference_bot("random"), probe],
        variant="standard",
        launcher=sandbox_launcher(),
        time_controls=FAST,
        names=list(table.names),
    )
    smoke_start, smoke_requests = _seen(played[0].stderr[1])
    ranked_start, ranked_requests = _seen(ranked.stderr[1])
    assert smoke_start == ranked_start  # start message, environment, folders: all the same
    assert smoke_requests == ranked_requests  # every request of the same shape
    assert ranked_start["start"]["seats"] == ["carol-bot v2", "alice-bot v3"]
    assert log["seats"] == ["random", "what_i_see"]  # the kept log says who really played
    assert "from seat 1" in text


def test_limits_reach_the_bot(launcher, tmp_path):
    (tmp_path / "main.py").write_text(
        "import json, resource, sys\n"
        "sys.stdin.readline()\n"
        "print(resource.getrlimit(resource.RLIMIT_AS)[0], file=sys.stderr)\n"
        "print(json.dumps({'ready': True}), flush=True)\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] != 'request': break\n"
        "    print(json.dumps({'action': m['legal_actions'][0]}), flush=True)\n"
    )
    limits = Limits(memory_bytes=512 * 1024 * 1024)
    outcome = play(launcher, BotProgram(tmp_path, ("python3", "main.py"), "limits"), limits=limits)
    assert outcome.stderr[1].strip() == str(512 * 1024 * 1024)


def test_the_mcts_reference_bot_plays_through_the_runner_on_determinized_states(launcher):
    tc = TimeControls(startup_ms=5_000, move_ms=50, bank_ms=2_000)
    bots = [reference_bot("mcts"), reference_bot("greedy")]
    outcome = run_match("east_indiaman", 2, bots, launcher=launcher, time_controls=tc)
    assert outcome.forfeits == [None, None], outcome.stderr
    timed = [d["ms"] for d in outcome.log["decisions"] if d["seat"] == 0 and "ms" in d]
    assert timed and max(timed) < 50 + 2_000
    replay(outcome.log)


def test_a_host_without_a_sandbox_is_an_infrastructure_error_not_a_forfeit(monkeypatch):
    import sys
    import types

    fake = types.ModuleType("workers.sandbox")

    class SandboxUnavailable(LaunchError):
        pass

    vars(fake)["SandboxUnavailable"] = SandboxUnavailable
    monkeypatch.setitem(sys.modules, "workers.sandbox", fake)

    class NoSandbox:
        def launch(self, program, *, slot, limits):
            raise SandboxUnavailable("bubblewrap is not installed")

    with pytest.raises(SandboxUnavailable):
        run_match("batavia", 1, [random_bot()] * 3, launcher=NoSandbox(), time_controls=FAST)
