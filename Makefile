# Monsoon: two commands on a fresh machine (Python 3.11, pip, apt as root).
#   make demo   - the whole ladder service on this machine (web, worker, beat), Ctrl-C stops it
#   make test   - ruff (lint + format), the import contracts, mypy + the whole test suite
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo demo-match test coverage install lint typecheck sandbox

# Test processes (pytest-xdist); the end-to-end and the browser tests each keep to one of them.
TEST_WORKERS ?= 2
PYTEST_PARALLEL = -n $(TEST_WORKERS) --dist loadgroup

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy .

# mypy with the Django/DRF plugins over the whole tree (configured in pyproject.toml).
typecheck: install
	$(BIN)/mypy .

# Bots run in bubblewrap sandboxes: bwrap, libseccomp and Debian's python3 (installed when missing).
sandbox:
	scripts/ensure-sandbox.sh

# The ladder's tests run against a real PostgreSQL (and the workers' against Redis):
# scripts/ensure-services.sh installs/starts them and prints the DATABASE_URL to use.
test: lint sandbox
	services=$$(scripts/ensure-services.sh) && export $$services && $(BIN)/pytest $(PYTEST_PARALLEL)

# The whole suite under coverage.py (line coverage of the five packages, summed over the test
# processes); prints the total and the files below it.
COVERED = engine bots workers ladder rl
coverage: install sandbox
	services=$$(scripts/ensure-services.sh) && export $$services && \
		$(BIN)/pytest $(PYTEST_PARALLEL) $(addprefix --cov=,$(COVERED)) --cov-report=term

# The ladder demo: SQLite and a filesystem broker in demo-data/ (reused by the next run),
# gunicorn, a Celery worker and beat; see scripts/demo.py --help (e.g. DEMO_ARGS="--reset").
demo: install sandbox
	$(BIN)/python scripts/demo.py $(DEMO_ARGS)

# One visible match in the terminal, no service.
demo-match: install sandbox
	$(BIN)/monsoon play batavia --seed 2026 --bot greedy --bot random --bot greedy --bot random \
		--log demo-logs/batavia-2026.json --verbose
