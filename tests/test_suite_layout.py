"""The suite's shape: shared test code lives in shared modules, never in conftests or tests.

A test importing from ``conftest.py`` or from another ``test_*.py`` pulls that module's
fixtures, autouse ones included, into a package that never asked for them, and ties tests
together so that deleting one breaks another. Shared helpers belong in ``tests/factories.py``,
``tests/helpers.py``, ``tests/play.py``, ``tests/browser.py`` or a package's helper module;
fixtures in a conftest (which may import them from such a module).
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def forbidden_imports(path: Path) -> list[str]:
    """``module`` of every import in ``path`` that names a conftest or a test module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        else:
            continue
        for module in modules:
            last = module.rsplit(".", 1)[-1]
            if module.startswith("tests.") and (last == "conftest" or last.startswith("test_")):
                found.append(f"{path}:{node.lineno} imports {module}")
    return found


def test_no_test_imports_from_a_conftest_or_a_test_module() -> None:
    offenders = [line for path in sorted(TESTS.rglob("*.py")) for line in forbidden_imports(path)]
    assert offenders == []


def test_the_rule_sees_both_kinds_of_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from tests.ladder.conftest import x\n"
        "from tests.web import test_pages\n"
        "import tests.e2e.test_workers\n"
        "from tests.factories import make_bot\n"
    )
    assert [line.split(" imports ")[1] for line in forbidden_imports(sample)] == [
        "tests.ladder.conftest",
        "tests.web.test_pages",
        "tests.e2e.test_workers",
    ]


def test_every_collected_test_has_a_node_id_of_its_own(request) -> None:
    # pytest-xdist schedules by node id: two items sharing one (schemathesis gives every API
    # operation of a test function the function's id) and all but one of them never run.
    ids = [item.nodeid for item in request.session.items]
    shared = sorted({nodeid for nodeid in ids if ids.count(nodeid) > 1})
    assert shared == []


def test_under_xdist_end_to_end_and_browser_tests_carry_their_group(request) -> None:
    # ``--dist loadgroup`` reads the group from the node id's ``@name`` suffix; without it the
    # end-to-end stacks and the Chromiums of both processes would run at the same time.
    if not request.config.pluginmanager.hasplugin("xdist"):
        return
    for item in request.session.items:
        for marker in ("e2e", "browser"):
            if item.get_closest_marker(marker):
                assert item.nodeid.endswith(f"@{marker}"), item.nodeid
