"""Recorded games replay exactly: any change of an engine's behaviour is a visible diff.

See ``tests/engine/golden.py`` for what is recorded and how to regenerate on purpose.
"""

from __future__ import annotations

import copy

import pytest

from tests.engine.golden import FOLDER, RECORDINGS, compare, load, name_of

NAMES = [name_of(*entry) for entry in RECORDINGS]


def test_every_game_has_recordings_and_every_file_is_listed():
    assert {entry[0] for entry in RECORDINGS} == {
        "batavia",
        "east_indiaman",
        "borneo",
        "packet_row",
    }
    assert sorted(path.name for path in FOLDER.glob("*.json.gz")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_a_recorded_game_replays_identically(name):
    difference = compare(load(FOLDER / name))
    assert difference is None, (
        f"{name} no longer replays as recorded: {difference}\n"
        "If the change is intended (a rules fix), regenerate with "
        "`python -m tests.engine.golden --regenerate GAME` and say why in the commit message."
    )


def test_a_difference_names_its_step_and_key_path():
    recording = load(FOLDER / NAMES[0])
    changed = copy.deepcopy(recording)
    changed["steps"][7]["observations"][1]["seat"] = 99
    assert compare(changed) == "step 7: /observations[1]/seat: recorded 99, now 1"
    changed = copy.deepcopy(recording)
    changed["steps"][3]["legal"] = changed["steps"][3]["legal"][:-1]
    assert (compare(changed) or "").startswith("step 3: /legal: recorded")
    changed = copy.deepcopy(recording)
    changed["scores"] = [score + 1 for score in changed["scores"]]
    assert (compare(changed) or "").startswith("at the end: /scores[0]")
