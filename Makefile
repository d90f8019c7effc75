# Monsoon: two commands on a fresh machine (Python 3.11, pip, apt as root).
#   make demo   - play the demo
#   make test   - ruff + the whole test suite
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test install lint

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

lint: install
	$(BIN)/ruff check .

# The ladder's tests run against a real PostgreSQL (and the workers' against Redis):
# scripts/ensure-services.sh installs/starts them and prints the DATABASE_URL to use.
test: lint
	services=$$(scripts/ensure-services.sh) && export $$services && $(BIN)/pytest

demo: install
	$(BIN)/monsoon play batavia --no-sandbox --seed 2026 --bot greedy --bot random --bot greedy --bot random \
		--log demo-logs/batavia-2026.json --verbose
