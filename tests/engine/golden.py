"""Golden playthroughs: recorded games that any change of an engine's behaviour shows as a diff.

Each recording is a whole game played by seeded policies (random, or the built-in greedy
bots): at every step the mover, the legal actions, every seat's observation, the public view
and the action taken, then the final scores and ranking. ``test_golden.py`` replays each and
names the first step and key path where the engine now differs.

Regenerate deliberately, and say why in the commit message (a rules fix changes a game's
goldens; a speed-up must not)::

    .venv/bin/python -m tests.engine.golden --regenerate            # every game
    .venv/bin/python -m tests.engine.golden --regenerate packet_row # one game
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import Any

from bots.builtin import get_policy
from engine.registry import get_game
from engine.rng import Rng

FOLDER = Path(__file__).with_name("golden")

# (game, players, variant or None, seed, policy): small tables and big, random and greedy play.
RECORDINGS: list[tuple[str, int, str | None, int, str]] = [
    ("batavia", 3, None, 101, "random"),
    ("batavia", 5, None, 102, "greedy"),
    ("batavia", 4, "open", 103, "greedy"),
    ("east_indiaman", 2, None, 201, "random"),
    ("east_indiaman", 4, None, 202, "greedy"),
    ("east_indiaman", 3, None, 203, "random"),
    ("borneo", 3, None, 301, "random"),
    ("borneo", 5, None, 302, "greedy"),
    ("borneo", 3, "four-merchants+blackbeard", 303, "greedy"),
    ("packet_row", 2, None, 401, "random"),
    ("packet_row", 4, None, 402, "greedy"),
    ("packet_row", 5, None, 403, "random"),
]


def name_of(game: str, players: int, variant: str | None, seed: int, policy: str) -> str:
    return f"{game}-{players}p-{variant or 'default'}-{seed}-{policy}.json.gz"


def record(game: str, players: int, variant: str | None, seed: int, policy: str) -> dict[str, Any]:
    """Play the game and write down everything every party could see at every step."""
    spec = get_game(game)
    state = spec.new_state(seed, players, variant)
    decide = get_policy(policy, game)
    rngs = [Rng.derive(seed, "golden", seat) for seat in range(players)]
    steps = []
    while not state.is_terminal():
        mover = state.current_player()
        assert mover is not None
        legal = state.legal_actions()
        observations = [state.observation(seat) for seat in range(players)]
        action = decide(observations[mover], legal, rngs[mover])
        steps.append(
            {
                "mover": mover,
                "legal": legal,
                "observations": observations,
                "public": state.public_view(),
                "action": action,
            }
        )
        state.apply(action)
    return {
        "game": game,
        "players": players,
        "variant": variant,
        "seed": seed,
        "policy": policy,
        "steps": steps,
        "scores": state.scores(),
        "ranking": state.ranking(),
        "public_end": state.public_view(),
    }


def normalised(value: Any) -> Any:
    """As JSON would give it back (tuples become lists), for comparison with a recording."""
    return json.loads(json.dumps(value))


def first_difference(recorded: Any, actual: Any, path: str = "") -> str | None:
    """The key path of the first difference between two JSON values, with both values."""
    if type(recorded) is not type(actual):
        return f"{path or '/'}: recorded {recorded!r:.200}, now {actual!r:.200}"
    if isinstance(recorded, dict):
        for key in sorted(set(recorded) | set(actual), key=str):
            if key not in actual:
                return f"{path}/{key}: recorded but now missing"
            if key not in recorded:
                return f"{path}/{key}: new, now {actual[key]!r:.200}"
            found = first_difference(recorded[key], actual[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(recorded, list):
        for index, (old, new) in enumerate(zip(recorded, actual, strict=False)):
            found = first_difference(old, new, f"{path}[{index}]")
            if found:
                return found
        if len(recorded) != len(actual):
            return f"{path}: recorded {len(recorded)} items, now {len(actual)}"
        return None
    if recorded != actual:
        return f"{path or '/'}: recorded {recorded!r:.200}, now {actual!r:.200}"
    return None


def compare(recording: dict[str, Any]) -> str | None:
    """Replay a recording against the engine; None if identical, else the first difference."""
    spec = get_game(recording["game"])
    state = spec.new_state(recording["seed"], recording["players"], recording["variant"])
    for index, step in enumerate(recording["steps"]):
        if state.is_terminal():
            return f"step {index}: the game is over now but the recording goes on"
        actual = normalised(
            {
                "mover": state.current_player(),
                "legal": state.legal_actions(),
                "observations": [state.observation(seat) for seat in range(recording["players"])],
                "public": state.public_view(),
            }
        )
        expected = {key: step[key] for key in actual}
        found = first_difference(expected, actual)
        if found:
            return f"step {index}: {found}"
        state.apply(step["action"])
    if not state.is_terminal():
        return f"after {len(recording['steps'])} steps the game goes on; it ended in the recording"
    ending = normalised(
        {"scores": state.scores(), "ranking": state.ranking(), "public_end": state.public_view()}
    )
    found = first_difference({k: recording[k] for k in ending}, ending)
    return f"at the end: {found}" if found else None


def load(path: Path) -> dict[str, Any]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return json.load(handle)


def write(path: Path, recording: dict[str, Any]) -> None:
    text = json.dumps(recording, sort_keys=True, separators=(",", ":"))
    # mtime=0: the same recording gives the same bytes, so only real changes show in git.
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as handle:
        handle.write(text.encode("utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regenerate", action="store_true", required=True)
    parser.add_argument("games", nargs="*", help="only these games (default: all)")
    args = parser.parse_args()
    FOLDER.mkdir(exist_ok=True)
    for entry in RECORDINGS:
        if args.games and entry[0] not in args.games:
            continue
        path = FOLDER / name_of(*entry)
        write(path, normalised(record(*entry)))
        print(f"wrote {path.relative_to(FOLDER.parents[2])} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
