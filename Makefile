# The two set-up commands are `make serve` and `make test`; each creates .venv if it is missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev
COMPILESTAMP := $(VENV)/.installed-compile
# the modules compiled with mypyc, and those whose constants they inline: the quoted module names in
# sgmahjong/native.py (COMPILED and INLINED, its one list); rebuilt when one of them changes
NATIVE_MODULES := $(shell grep -o '"sgmahjong\.[a-z0-9_.]*"' sgmahjong/native.py | tr -d '"')
NATIVE_SRC := $(addsuffix .py,$(subst .,/,$(NATIVE_MODULES))) sgmahjong/native.py tools/compile.py
NATIVE := build/mypyc/.compiled
HOST ?= 127.0.0.1
PORT ?= 8000
CHROMIUM ?= /usr/bin/chromium
# the test suite's processes (pytest-xdist): most of its time is spent waiting on servers and browsers,
# so two share even a 2-core machine well; TEST_WORKERS=0 runs it in one process
TEST_WORKERS ?= 2

.PHONY: serve test lint bench train-danger train-advantage train-horizon clean cluster cluster-stop chromium compile static lighthouse pyodide axe docs

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e '.[dev,bench]'
	touch $@ $(STAMP)

# mypyc (from the mypy package) compiles the expert's hot path in place (tools/compile.py): skipped, with
# one line saying so, where there is no C compiler or no Python headers; the package then runs as pure
# Python. The stamp depends on the compiled sources, so an edit recompiles before the next serve/test/bench.
$(COMPILESTAMP): pyproject.toml | $(STAMP)
	$(BIN)/pip install -q -e '.[compile]'
	touch $@

$(NATIVE): $(NATIVE_SRC) | $(COMPILESTAMP)
	$(BIN)/python tools/compile.py --quiet

compile: $(NATIVE)

serve: $(STAMP) $(NATIVE) static
	$(BIN)/sgmahjong serve --host $(HOST) --port $(PORT)

# the static files' hashed, precompressed build (build/static; docs/delivery.md): the server makes it too
# when it is missing or the sources changed, this saves the first page that wait
static: $(STAMP)
	$(BIN)/sgmahjong build-static --quiet

# npm packages, pinned in tools/NAME/package-lock.json (`npm ci` there; node_modules is not committed):
# Lighthouse for tests/test_lighthouse.py and the bench; axe-core for tests/test_axe.py (the pages'
# accessibility audit, docs/accessibility.md); Pyodide, with which the calculator's offline scorer
# runs the server's Python in the browser (docs/delivery.md). `make test` installs all three, `make bench`
# Lighthouse and Pyodide; `make serve` needs none of them: without Pyodide the calculator simply does not offer the offline scorer.
LIGHTHOUSE := tools/lighthouse/node_modules/.package-lock.json
PYODIDE := tools/pyodide/node_modules/.package-lock.json
AXE := tools/axe/node_modules/.package-lock.json
tools/%/node_modules/.package-lock.json: tools/%/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "make: tools/$* needs Node.js and npm: apt-get install nodejs npm"; exit 1; }
	cd tools/$* && npm ci --no-audit --no-fund --loglevel=error
	touch $@

lighthouse: $(LIGHTHOUSE)

pyodide: $(PYODIDE)

axe: $(AXE)

# a local cluster: PostgreSQL in ./data/cluster, WORKERS server processes, HAProxy on PORT (deploy/README.md)
WORKERS ?= 2
cluster: $(STAMP) $(NATIVE)
	$(BIN)/sgmahjong cluster up --workers $(WORKERS) --host $(HOST) --port $(PORT) --data data/cluster

cluster-stop: $(STAMP)
	$(BIN)/sgmahjong cluster down --data data/cluster

test: $(DEVSTAMP) $(NATIVE) chromium $(PYODIDE) static $(LIGHTHOUSE) $(AXE)
	$(BIN)/python -m pytest -n $(TEST_WORKERS)

# The browser tests drive Debian's Chromium (never `playwright install`): installed here when missing
# and we are root (as .ci/run does), else one line says how.
chromium:
	@if [ ! -x "$(CHROMIUM)" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "make: installing Chromium for the browser tests (apt-get install -y chromium)"; \
	    apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium >/dev/null \
	      || { echo "make: could not install chromium with apt-get"; exit 1; }; \
	    test -x "$(CHROMIUM)" || { echo "make: chromium was installed but $(CHROMIUM) is missing"; exit 1; }; \
	  else \
	    echo "make: the browser tests need Chromium at $(CHROMIUM): install it with 'sudo apt-get install chromium'"; \
	    exit 1; \
	  fi; \
	fi

# lint-imports checks the layers and that no import cycle exists (pyproject.toml, [tool.importlinter])
lint: $(DEVSTAMP)
	$(BIN)/ruff check sgmahjong tests bench tools
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: $(DEVSTAMP) $(NATIVE) $(PYODIDE) static $(LIGHTHOUSE)
	$(BIN)/python -m bench

# the learned reading of the discards (sgmahjong/bots/danger.py): its weights from 3,000 seeded hands of
# four strong (about two minutes on two cores; the same data on every machine, the weights up to rounding)
train-danger: $(DEVSTAMP)
	$(BIN)/python -m bench.train_danger --hands 3000 --seed 1 --out sgmahjong/bots/danger_weights.py

# the values at a horizon of a rollout cut short (sgmahjong/bots/horizon.py, the expert's cut option), linear
# and a small network: their weights from quick playouts of 1,500 seeded decision points (500 more held
# out), about three minutes on two cores
train-horizon: $(DEVSTAMP)
	$(BIN)/python -m bench.train_horizon --hands 2000 --seed 1 --out sgmahjong/bots/horizon_weights.py \
		--network-out sgmahjong/bots/horizon_network.py

# the learned advantage of a discard over strong's (sgmahjong/bots/advantage.py): its weights from 1,200
# seeded hands of four strong, each turn's candidates played out on 16 deals (about nine minutes on two cores)
train-advantage: $(DEVSTAMP)
	$(BIN)/python -m bench.train_advantage --hands 1200 --seed 1 --deals 16 --out sgmahjong/bots/advantage_weights.py

# docs/settings.md is generated from ServerSettings, TableOptions and RuleSet (tests/test_docs.py checks it)
docs: $(STAMP)
	$(BIN)/python tools/gen_settings.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache build
	find sgmahjong -name '*.so' -delete
