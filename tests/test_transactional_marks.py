"""Transactional tests leave the database as the suite's other tests expect it.

A ``transaction=True`` test ends with a flush that empties every table and then sends
``post_migrate``, on which content types, permissions and the rows the data migrations seed
(ladders, the organisers group: ``tests/conftest.py``) are made again. A test that asked for
``serialized_rollback`` would instead reload a snapshot of the first database, which both costs
a serialisation of the database at its creation and clashes (duplicate keys) with those
re-created rows: so none asks for it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from engine.registry import all_games
from ladder.accounts.models import ORGANISERS_GROUP
from ladder.ladders.models import Ladder

TESTS = Path(__file__).parent


def _django_db_marks(tree: ast.AST):
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "django_db"
        ):
            yield node


def test_no_transactional_test_asks_for_a_serialized_rollback():
    asking = []
    for path in sorted(TESTS.rglob("*.py")):
        for mark in _django_db_marks(ast.parse(path.read_text(), str(path))):
            if any(k.arg == "serialized_rollback" for k in mark.keywords):
                asking.append(f"{path.relative_to(TESTS)}:{mark.lineno}")
    assert asking == []


@pytest.mark.django_db(transaction=True)
def test_a_flush_leaves_every_ladder_and_the_organisers_group():
    Ladder.objects.all().delete()
    Group.objects.all().delete()
    call_command("flush", verbosity=0, interactive=False)
    tables = {(ladder.game, ladder.num_players) for ladder in Ladder.objects.all()}
    assert tables == {(spec.name, n) for spec in all_games().values() for n in spec.player_counts}
    assert Group.objects.filter(name=ORGANISERS_GROUP).exists()
