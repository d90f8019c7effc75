"""The layers hold: the engine imports only the standard library, and the import contracts in
pyproject.toml (``lint-imports``) are kept, and would be noticed if broken."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def imported_top_levels(folder: Path) -> dict[str, list[str]]:
    """Each absolute import's top-level module, with the files that import it."""
    found: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], []).append(str(path.relative_to(ROOT)))
    return found


def test_the_engine_imports_only_the_standard_library():
    allowed = set(sys.stdlib_module_names) | {"engine", "__future__"}
    foreign = {
        name: files
        for name, files in imported_top_levels(ROOT / "engine").items()
        if name not in allowed
    }
    assert foreign == {}


def test_the_import_contracts_are_kept():
    done = subprocess.run(
        [str(LINT_IMPORTS)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "broken" not in done.stdout.replace("0 broken", "")


def test_a_broken_contract_is_reported(tmp_path):
    """The check can fail: a low layer importing a high one breaks a forbidden contract."""
    package = tmp_path / "demo_layers"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "high.py").write_text("VALUE = 1\n")
    (package / "low.py").write_text("from demo_layers import high\n")
    config = tmp_path / "contracts.toml"
    config.write_text(
        '[tool.importlinter]\nroot_packages = ["demo_layers"]\n\n'
        '[[tool.importlinter.contracts]]\nname = "low knows nothing of high"\n'
        'type = "forbidden"\nsource_modules = ["demo_layers.low"]\n'
        'forbidden_modules = ["demo_layers.high"]\n'
    )
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [str(LINT_IMPORTS), "--config", str(config), "--no-cache"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode != 0
    assert "BROKEN" in done.stdout and "demo_layers.low -> demo_layers.high" in done.stdout


def test_make_lint_runs_every_gate():
    """make test starts with make lint: a format change, a lint finding, a forbidden import or a
    type error each stop it before the tests."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = makefile.split("\nlint:", 1)[1].split("\n\n", 1)[0]
    for gate in ("ruff check .", "ruff format --check .", "lint-imports", "mypy ."):
        assert gate in recipe, f"make lint does not run {gate}"
    assert "\ntest: lint" in makefile


def test_the_project_type_checker_reports_a_type_error(tmp_path):
    """mypy with the project's settings fails on a wrong type (the gate can fail)."""
    sample = tmp_path / "wrong.py"
    sample.write_text("def double(x: int) -> int:\n    return x * 2\n\n\ndouble('two')\n")
    done = subprocess.run(
        [
            str(Path(sys.executable).with_name("mypy")),
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--no-incremental",
            str(sample),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'Argument 1 to "double" has incompatible type "str"' in done.stdout
