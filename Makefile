# The two set-up commands are `make serve` and `make test`; each creates .venv if it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: serve test lint bench clean cluster cluster-stop

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev,bench]'
	touch $@ $(STAMP)

serve: $(STAMP)
	$(BIN)/sgmahjong serve --host $(HOST) --port $(PORT)

# a local cluster: PostgreSQL in ./data/cluster, WORKERS server processes, HAProxy on PORT (deploy/README.md)
WORKERS ?= 2
cluster: $(STAMP)
	$(BIN)/sgmahjong cluster up --workers $(WORKERS) --host $(HOST) --port $(PORT) --data data/cluster

cluster-stop: $(STAMP)
	$(BIN)/sgmahjong cluster down --data data/cluster

test: $(DEVSTAMP)
	$(BIN)/python -m pytest

lint: $(DEVSTAMP)
	$(BIN)/ruff check sgmahjong tests bench
	$(BIN)/mypy

bench: $(DEVSTAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
