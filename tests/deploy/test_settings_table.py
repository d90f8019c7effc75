"""The one settings table (ladder/settings_table.py) is the only list of environment variables.

The readers (``ladder/settings.py``, ``deploy/gunicorn.conf.py``) take every variable through the
table's functions, the rest of the server reads only names the table has, and the env example
and docs/settings.md are exactly what ``scripts/render_settings.py`` makes of the table today.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from ladder import settings_table
from ladder.settings_table import BY_NAME, GUNICORN, SECTIONS, SETTINGS, SettingError

ROOT = Path(__file__).resolve().parents[2]
SETTINGS_PY = ROOT / "ladder" / "settings.py"
GUNICORN_CONF = ROOT / GUNICORN
READERS = {"env_bool": "bool", "env_int": "int", "env_float": "float", "env_str": "str"}
READERS |= {"env_list": "list", "env_path": "path"}
# Read by the server's code but not settings: the sandbox passes PATH on to the bots.
NOT_SETTINGS = {"PATH"}
# The ``monsoon`` command runs on a bot author's machine and reads its own variables there
# (docs/languages.md); the test settings set variables for the suite.
NOT_SERVER = {ROOT / "workers" / "cli", ROOT / "ladder" / "settings_test.py"}


def render_settings() -> ModuleType:
    """``scripts/render_settings.py`` (scripts/ is not a package)."""
    path = ROOT / "scripts" / "render_settings.py"
    spec = importlib.util.spec_from_file_location("render_settings", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _constants(tree: ast.Module) -> dict[str, str]:
    """Module-level ``NAME = "text"`` assignments, for reads that name a variable by constant."""
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and isinstance(node.value.value, str):
                    found[target.id] = node.value.value
    return found


def _name(node: ast.expr, constants: dict[str, str], where: str) -> str:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id in constants:
        return constants[node.id]
    raise AssertionError(f"{where}: an environment variable named by an expression")


def environment_reads(path: Path) -> tuple[set[str], dict[str, str]]:
    """(names read straight from ``os.environ``/``os.getenv``, name -> kind read through the
    table's functions) in one source file."""
    tree = ast.parse(path.read_text(), filename=str(path))
    constants = _constants(tree)
    direct: set[str] = set()
    through_table: dict[str, str] = {}
    for node in ast.walk(tree):
        where = f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            direct.add(_name(node.slice, constants, where))
        if not isinstance(node, ast.Call):
            continue
        function = ast.unparse(node.func)
        if function in ("os.environ.get", "os.environ.setdefault", "os.getenv", "os.environ.pop"):
            direct.add(_name(node.args[0], constants, where))
        elif function in READERS:
            name = _name(node.args[0], constants, where)
            assert through_table.get(name, READERS[function]) == READERS[function], where
            through_table[name] = READERS[function]
    return direct, through_table


def server_sources() -> list[Path]:
    return [
        path
        for folder in ("ladder", "workers")
        for path in sorted((ROOT / folder).rglob("*.py"))
        if not any(path == skip or skip in path.parents for skip in NOT_SERVER)
    ]


def test_the_generated_env_example_and_docs_are_current():
    stale = render_settings().stale_files()
    assert not stale, (
        f"out of date: {sorted(str(p.relative_to(ROOT)) for p in stale)}; "
        "run .venv/bin/python scripts/render_settings.py"
    )


def test_settings_py_reads_the_environment_only_through_the_table():
    direct, through_table = environment_reads(SETTINGS_PY)
    assert direct == set(), "read without the table"
    for name, kind in through_table.items():
        assert name in BY_NAME, f"{name} is read but not in ladder/settings_table.py"
        assert BY_NAME[name].kind == kind, name
    # ... and every row said to be read there is read there.
    claimed = {s.name for s in SETTINGS if s.reader == "ladder/settings.py"}
    assert claimed - set(through_table) == set(), "in the table, never read by settings.py"


def test_the_web_server_config_reads_the_environment_only_through_the_table():
    direct, through_table = environment_reads(GUNICORN_CONF)
    assert direct == set()
    assert set(through_table) <= set(BY_NAME)
    assert {s.name for s in SETTINGS if s.reader == GUNICORN} <= set(through_table)


def test_the_rest_of_the_server_reads_only_names_of_the_table():
    unknown = {}
    for path in server_sources():
        direct, through_table = environment_reads(path)
        for name in (direct | set(through_table)) - set(BY_NAME) - NOT_SETTINGS:
            unknown[name] = str(path.relative_to(ROOT))
    assert unknown == {}


def test_deployment_files_set_only_settings_of_the_table():
    compose = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())
    names = {
        name
        for service in ("migrate", "web", "worker", "beat", "flower")
        for name in compose["services"][service].get("environment", {})
    }
    for unit in (ROOT / "deploy" / "systemd").glob("*.service"):
        for line in unit.read_text().splitlines():
            if line.startswith("Environment="):
                names.add(line.removeprefix("Environment=").split("=", 1)[0])
    assert names and names - set(BY_NAME) == set()


def test_every_row_is_well_formed():
    assert len(BY_NAME) == len(SETTINGS), "a name twice"
    sections = {section.key for section in SECTIONS}
    for row in SETTINGS:
        assert row.section in sections, row.name
        assert row.meaning and row.name.isupper(), row.name
        if row.default is None:
            assert row.default_text, f"{row.name}: a computed default must say what it is"
        else:  # the default, written as the variable, reads back as itself
            environ = {row.name: settings_table.env_value(row.default)}
            reader = getattr(settings_table, f"env_{row.kind}")
            expected = list(row.default) if isinstance(row.default, tuple) else row.default
            assert reader(row.name, environ=environ) == expected, row.name


@pytest.mark.parametrize(
    "reader, name, raw, complaint",
    [
        ("env_int", "MONSOON_QUEUE_TARGET", "eight", "MONSOON_QUEUE_TARGET must be an integer"),
        ("env_float", "MONSOON_LIVE_INTERVAL_SECONDS", "1s", "must be a number, not '1s'"),
        ("env_bool", "DEBUG", "maybe", "DEBUG must be a boolean"),
        ("env_int", "MONSOON_NOT_A_SETTING", "1", "not in the settings table"),
        ("env_str", "MONSOON_QUEUE_TARGET", "8", "is a int setting, read as str"),
    ],
)
def test_a_bad_value_or_an_unknown_name_is_refused_by_name(reader, name, raw, complaint):
    with pytest.raises(SettingError, match=complaint):
        getattr(settings_table, reader)(name, environ={name: raw})


def test_unset_and_blank_values_take_the_tables_default():
    assert settings_table.env_int("MONSOON_QUEUE_TARGET", environ={}) == 8
    assert (
        settings_table.env_int("MONSOON_QUEUE_TARGET", environ={"MONSOON_QUEUE_TARGET": " "}) == 8
    )
    assert settings_table.env_list("MONSOON_METRICS_ALLOWED_NETWORKS", environ={}) == [
        "127.0.0.0/8",
        "::1/128",
    ]
    assert settings_table.env_bool("DEBUG", environ={"DEBUG": ""}) is False
    with pytest.raises(SettingError, match="computed default"):
        settings_table.env_int("WEB_CONCURRENCY", environ={})
    assert settings_table.env_int("WEB_CONCURRENCY", 3, environ={}) == 3
