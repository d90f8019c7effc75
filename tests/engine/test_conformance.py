"""One conformance suite over every registered game, player count and variant.

In the spirit of OpenSpiel's game tests: whatever a game's rules, these properties
hold, so a new game package gets them checked by being registered.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import EngineError, GameNotOver, IllegalAction
from engine.log import ReplayError, replay
from engine.match import play_match
from engine.registry import get_game
from engine.rng import Rng
from tests.engine.clone_check import scramble, shared_objects
from tests.engine.tables import GAME_TABLES, random_playout, table_id

PLAYOUTS = 12
GARBAGE = [None, 42, 3.5, True, "", "no-such-action", ["x"], {"action": "x"}]


def _random_policy(observation, legal, rng):
    return rng.choice(legal)


def test_random_playouts_reach_a_valid_end_with_components_conserved(table):
    game, n, variant = table
    spec = get_game(game)
    for seed in range(PLAYOUTS):
        state = spec.new_state(seed, n, variant)
        expected = state.component_counts()
        rng = Rng.derive(seed, "playout")
        steps = 0
        while not state.is_terminal():
            with pytest.raises(GameNotOver):
                state.scores()
            state.apply(rng.choice(state.legal_actions()))
            assert state.component_counts() == expected, f"seed {seed}, step {steps}"
            steps += 1
        scores, ranking = state.scores(), state.ranking()
        assert len(scores) == n and len(ranking) == n
        assert min(ranking) == 1 and all(1 <= r <= n for r in ranking)
        assert state.legal_actions() == [] and state.current_player() is None


def test_same_seed_and_actions_give_the_same_game(table):
    game, n, variant = table
    spec = get_game(game)
    first = spec.new_state(7, n, variant)
    actions = random_playout(first, Rng(99))
    second = spec.new_state(7, n, variant)
    for action in actions:
        second.apply(action)
    assert second.digest() == first.digest()
    assert spec.new_state(7, n, variant).digest() == spec.new_state(7, n, variant).digest()
    assert spec.new_state(7, n, variant).digest() != spec.new_state(8, n, variant).digest()


def test_log_round_trip_and_tampering_is_refused(table):
    game, n, variant = table
    final, log = play_match(game, 11, [_random_policy] * n, variant=variant)
    log = json.loads(json.dumps(log))  # what a file or database gives back
    assert replay(log).digest() == final.digest()

    truncated = {**log, "decisions": log["decisions"][:-1]}
    with pytest.raises(ReplayError, match="before the game is over"):
        replay(truncated)

    wrong_result = json.loads(json.dumps(log))
    wrong_result["result"]["scores"] = [s + 1 for s in wrong_result["result"]["scores"]]
    with pytest.raises(ReplayError, match="does not reproduce"):
        replay(wrong_result)

    wrong_seat = json.loads(json.dumps(log))
    wrong_seat["decisions"][0]["seat"] = (wrong_seat["decisions"][0]["seat"] + 1) % n
    with pytest.raises(ReplayError, match="is to move"):
        replay(wrong_seat)

    wrong_logs: list[Any] = [
        None,
        [],
        {"format": "x"},
        {**log, "version": 99},
        {**log, "game": "chess"},
    ]
    for broken in wrong_logs:
        with pytest.raises(ReplayError):
            replay(broken)


def test_every_listed_action_applies_and_unlisted_ones_are_refused(table):
    game, n, variant = table
    spec = get_game(game)
    vocabulary = spec.action_vocabulary(n)
    state = spec.new_state(3, n, variant)
    rng = Rng(5)
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal, "a live state must offer at least one action"
        assert len(legal) == len({json.dumps(a, sort_keys=True) for a in legal}), "duplicates"
        for action in legal:
            assert action in vocabulary, f"{action!r} missing from the action vocabulary"
            state.clone().apply(action)
        before = state.digest()
        unlisted = [a for a in vocabulary if a not in legal][:6] + GARBAGE
        for action in unlisted:
            with pytest.raises(IllegalAction) as excinfo:
                state.apply(action)
            assert str(excinfo.value), "IllegalAction must say why"
        assert state.digest() == before, "an illegal action must not change the state"
        state.apply(rng.choice(legal))
    with pytest.raises(IllegalAction):
        state.apply(vocabulary[0])


def test_clone_is_independent(table):
    game, n, variant = table
    state = get_game(game).new_state(4, n, variant)
    random_playout(state, Rng(1), max_steps=20)
    before = state.digest()
    copy = state.clone()
    random_playout(copy, Rng(2))
    assert state.digest() == before


def test_clones_share_nothing_with_their_original_at_every_step(table):
    """At every decision of a seeded game: the clone holds no mutable object of the
    original's, scrambling every container of the clone leaves the original's digest as it
    was, and scrambling an original leaves its clone's digest as it was."""
    game, n, variant = table
    state = get_game(game).new_state(8, n, variant)
    rng = Rng(8)
    steps = 0
    while not state.is_terminal():
        clone = state.clone()
        assert shared_objects(state, clone) == [], f"step {steps}"
        before = state.digest()
        scramble(clone)
        assert state.digest() == before, f"step {steps}: scrambling a clone changed its original"
        original = state.clone()
        clone = original.clone()
        kept = clone.digest()
        scramble(original)
        assert clone.digest() == kept, f"step {steps}: scrambling an original changed its clone"
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    assert steps > 0


def test_the_clone_check_catches_a_shallow_clone():
    """What the hand-kept field lists let through (Batavia's ``passed`` once): proven caught."""
    state = get_game("batavia").new_state(3, 4)
    random_playout(state, Rng(3), max_steps=10)
    shallow = copy.copy(state)
    shallow.rng = state.rng.copy()
    assert ".passed" in {path.split("[")[0] for path in shared_objects(state, shallow)}
    before = state.digest()
    scramble(shallow)
    assert state.digest() != before


def test_observations_are_json_and_name_the_seat(table):
    game, n, variant = table
    state = get_game(game).new_state(6, n, variant)
    rng = Rng(6)
    for _ in range(3):
        random_playout(state, rng, max_steps=15)
        for p in range(n):
            text = json.dumps(state.observation(p), sort_keys=True)
            assert json.loads(text)["seat"] == p
        json.dumps(state.public_view())


@pytest.mark.parametrize("table", GAME_TABLES, ids=table_id)
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 400), sample=st.integers(0, 2**32))
def test_hidden_information_never_reaches_an_observation(table, seed, steps, sample):
    """Resampling everything a player cannot see leaves that player's view identical.

    ``determinize`` redraws opponents' hidden cards and hidden stack orders; the
    player's observation and the public view must not change.  The companion test
    below proves the resampling really changes hidden state, so this one can fail.
    """
    game, n, variant = table
    state = get_game(game).new_state(seed, n, variant)
    random_playout(state, Rng(seed ^ 0x5EED), max_steps=steps)
    for p in range(n):
        other = state.determinize(p, Rng(sample + p))
        assert other.observation(p) == state.observation(p)
        assert other.public_view() == state.public_view()
        assert other.component_counts() == state.component_counts()
        # Whose turn it is, and what the mover may do, must follow from what is public
        # and (for the mover) from the mover's own view: else the turn order leaks.
        assert other.current_player() == state.current_player()
        if state.current_player() == p:
            assert other.legal_actions() == state.legal_actions()


SWEEP_GAMES = 8  # full games per table: random and greedy play alternately
SWEEP_DRAWS = 3  # determinizations compared at every decision
SWEEP_ALL_SEATS_EVERY = 7  # every seat's own view is checked at every 7th decision


def test_every_decision_looks_the_same_from_every_determinization(table):
    """A seeded sweep over whole games: at *every* decision, for several determinizations
    of the mover's information set, the mover and its legal actions are identical, and so
    is the mover's own observation (``determinize`` keeps everything the seat has seen).

    The hypothesis test above samples a few hundred positions; legality that hangs on hidden
    information in some rare position (a leak, or a determinization inconsistent with what
    the seat knows) shows up here, because every position of these games is checked.  A
    determinization of a determinization (what a search bot does with the runner's sample)
    must agree too.  Greedy play reaches the positions random play rarely does (fulfilments,
    full hands).
    """
    from bots.builtin import get_policy, random_policy

    game, n, variant = table
    spec = get_game(game)
    greedy = get_policy("greedy", game)
    for g in range(SWEEP_GAMES):
        policy = greedy if g % 2 else random_policy
        state = spec.new_state(500 + g, n, variant)
        rng = Rng.derive(g, "sweep-policy")
        step = 0
        while not state.is_terminal():
            mover = state.current_player()
            assert mover is not None, "a game that is not over has a seat to move"
            legal = state.legal_actions()
            view = state.observation(mover)
            seats = range(n) if step % SWEEP_ALL_SEATS_EVERY == 0 else (mover,)
            for p in seats:
                mine = view if p == mover else state.observation(p)
                for k in range(SWEEP_DRAWS):
                    other = state.determinize(p, Rng.derive(g, step, p, k))
                    where = f"game {g}, decision {step}, seat {p}, draw {k}"
                    if k == SWEEP_DRAWS - 1:
                        other = other.determinize(p, Rng.derive(g, step, p, "again"))
                    assert other.observation(p) == mine, f"{where}: the seat's view changed"
                    assert other.current_player() == mover, f"{where}: another mover"
                    if p == mover:
                        assert other.legal_actions() == legal, f"{where}: legal actions differ"
            state.apply(policy(view, legal, rng))
            step += 1


def test_determinize_really_resamples_hidden_state(table):
    game, n, variant = table
    state = get_game(game).new_state(21, n, variant)
    random_playout(state, Rng(21), max_steps=10)
    changed = {state.determinize(0, Rng(k)).digest() for k in range(8)} - {state.digest()}
    assert changed, "determinize must redraw what the player cannot see"


def test_determinized_states_play_on_legally(table):
    game, n, variant = table
    state = get_game(game).new_state(13, n, variant)
    random_playout(state, Rng(13), max_steps=30)
    for p in range(n):
        other = state.determinize(p, Rng(p))
        random_playout(other, Rng(100 + p))
        assert other.is_terminal()


@pytest.fixture(scope="session")
def digests_under_two_hash_seeds() -> dict[str, tuple[str, str]]:
    """Each table's final-state digest (seed 5, random bots) from two interpreters with
    different PYTHONHASHSEED, by table id.

    Two interpreters play every table (not two per table): starting an interpreter and
    importing the engine is most of the cost, the games themselves little.
    """
    import os
    import subprocess
    import sys

    script = (
        "import json, sys\n"
        "from engine.match import play_match\n"
        "from bots.builtin import random_policy\n"
        "for game, n, variant in json.load(sys.stdin):\n"
        "    state, _ = play_match(game, 5, [random_policy] * n, variant=variant)\n"
        "    print(state.digest())\n"
    )
    runs = []
    for hash_seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", script],
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            input=json.dumps([list(table) for table in GAME_TABLES]),
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(out.stdout.split())
    assert len(runs[0]) == len(runs[1]) == len(GAME_TABLES)
    return {
        table_id(table): (one, two)
        for table, one, two in zip(GAME_TABLES, runs[0], runs[1], strict=True)
    }


def test_games_do_not_depend_on_the_hash_seed(table, digests_under_two_hash_seeds):
    """Same seed and bot moves in two interpreters with different PYTHONHASHSEED."""
    one, two = digests_under_two_hash_seeds[table_id(table)]
    assert one == two


def test_a_seat_not_at_the_table_is_refused(table):
    game, n, variant = table
    state = get_game(game).new_state(2, n, variant)
    wrong_seats: list[Any] = [-1, n, "0", None, True]
    for seat in wrong_seats:
        with pytest.raises(EngineError):
            state.observation(seat)
        with pytest.raises(EngineError):
            state.determinize(seat, Rng(0))


# What prolongs each game, most prolonging first: an action matching an earlier prefix is
# preferred, among equals the first legal one (the lowest bid); anything unlisted comes next,
# and the prefixes after ``None`` (the moves that end a round or the game) come last.
PROLONGING: dict[str, tuple[str | None, ...]] = {
    "east_indiaman": ("exchange:", "invest:", "order:", "buy:", "smuggle:", None, "pass:"),
    "batavia": ("draw", "bid:", "keep", "lay:", None, "pass"),
    "borneo": ("fight:", "defend:", "stay", "no-mission", "pay:", None, "fight-done"),
    "packet_row": ("contract:", "cash:", "area:", "pass", None, "take:", "assist:", "done"),
}
BOUND_PLAYOUTS = 4


def longest_game_policy(game: str, noise: float) -> Any:
    """A player that prefers the actions that keep a game going (``noise``: random instead)."""
    prefixes = PROLONGING[game]
    last = prefixes.index(None)

    def rank(action: Any) -> int:
        text = str(action)
        for index, prefix in enumerate(prefixes):
            if prefix is not None and text.startswith(prefix):
                return index
        return last

    def policy(observation: Any, legal: list[Any], rng: Rng) -> Any:
        if rng.below(100) < noise * 100:
            return rng.choice(legal)
        return min(legal, key=rank)

    return policy


@pytest.mark.parametrize("noise", [0.0, 0.2], ids=["stubborn", "mostly-stubborn"])
def test_games_end_within_their_decision_bound(table, noise):
    """Random play and longest-game play (every seat, or one seat among random players) end
    within ``GameSpec.max_decisions``, the bound the workers' time limits rest on."""
    game, n, variant = table
    spec = get_game(game)
    bound = spec.max_decisions(n)
    longest = longest_game_policy(game, noise)
    lineups = [[longest] * n, [longest] + [_random_policy] * (n - 1), [_random_policy] * n]
    for seed in range(BOUND_PLAYOUTS):
        for policies in lineups:
            state = spec.new_state(seed, n, variant)
            rngs = [Rng.derive(seed, "bound", seat) for seat in range(n)]
            decisions = 0
            while (seat := state.current_player()) is not None:
                assert decisions < bound, f"seed {seed}: still playing after {bound} decisions"
                legal = state.legal_actions()
                state.apply(policies[seat](state.observation(seat), legal, rngs[seat]))
                decisions += 1
