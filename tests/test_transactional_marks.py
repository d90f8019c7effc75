"""Every transactional test restores the database it found, so test order never matters.

A ``transaction=True`` test ends with a flush, and Django's flush re-creates the content types
and permissions afterwards unless the test used ``serialized_rollback``. The next test that
does use it then loads its snapshot onto those rows and fails with a duplicate key: six ladder
tests errored that way once a kit test with a live server came to run before them. So every
transactional test here also asks for ``serialized_rollback``.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent


def _django_db_marks(tree: ast.AST):
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "django_db"
        ):
            yield node


def test_every_transactional_test_asks_for_a_serialized_rollback():
    lacking = []
    for path in sorted(TESTS.rglob("*.py")):
        for mark in _django_db_marks(ast.parse(path.read_text(), str(path))):
            options = {k.arg: k.value for k in mark.keywords}
            transactional = options.get("transaction")
            if not (isinstance(transactional, ast.Constant) and transactional.value is True):
                continue
            rollback = options.get("serialized_rollback")
            if not (isinstance(rollback, ast.Constant) and rollback.value is True):
                lacking.append(f"{path.relative_to(TESTS)}:{mark.lineno}")
    assert lacking == []
