# `make run` and `make test` work on a fresh machine: they create .venv and install what they need.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Two stamps, one .venv: `make run` installs what playing needs (the runtime with the extras
# the tour and a player use: web, png); `make test` then adds the test and docs tools to the
# same .venv. A newer pyproject.toml or lock redoes both.
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
RUN_EXTRAS := web,png
TEST_EXTRAS := dev,docs

.PHONY: run test lint typecheck unit docs bench clean

$(RUN_STAMP): pyproject.toml requirements/lock.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c requirements/lock.txt -e '.[$(RUN_EXTRAS)]'
	touch $(RUN_STAMP)

$(TEST_STAMP): $(RUN_STAMP)
	$(BIN)/python -m pip install --quiet -c requirements/lock.txt -e '.[$(TEST_EXTRAS)]'
	touch $(TEST_STAMP)

# The tour draws its maps as PNG too (cairosvg, which needs the system's cairo library).
run: $(RUN_STAMP)
	bash scripts/ensure_cairo.sh
	$(BIN)/python -m ordnance.cli.tour

# The four checks run side by side (make -j), each one's output printed whole when it ends, and
# pytest spreads the test files over the cores (pytest-xdist, a whole file to one worker, so a
# module's servers and fixtures start once; PYTEST_WORKERS=0 runs them all in one process).
# One failing check fails `make test`.
PYTEST_WORKERS ?= auto

# The checks must leave the checkout as they found it (no test writes inside it, `make docs`
# regenerates docs/reference/cli.md identically): tree_unchanged.py compares `git status`
# before and after, and fails `make test` on any difference (it skips outside a git checkout).
test: $(TEST_STAMP)
	$(BIN)/python scripts/tree_unchanged.py -- \
		$(MAKE) --no-print-directory -j4 --output-sync=target lint typecheck unit docs

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts

typecheck: $(TEST_STAMP)
	$(BIN)/mypy --strict src/ordnance

unit: $(TEST_STAMP)
	bash scripts/ensure_postgres.sh
	bash scripts/ensure_cairo.sh
	bash scripts/ensure_chromium.sh
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile

# The documentation site (mkdocs.yml): the CLI reference regenerated from the CLI's own help,
# then a strict build into site/. NO_MKDOCS_2_WARNING silences Material's notice about MkDocs 2.
docs: $(TEST_STAMP)
	$(BIN)/python scripts/gen_cli_reference.py
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

bench: $(TEST_STAMP)
	$(BIN)/python benchmarks/bench_odds.py
	$(BIN)/python benchmarks/bench_chances.py
	$(BIN)/python benchmarks/bench_ledger.py
	$(BIN)/python benchmarks/bench_los.py
	$(BIN)/python benchmarks/bench_vv_ai.py
	$(BIN)/python benchmarks/bench_vsav.py
	$(BIN)/python benchmarks/bench_cli.py
	$(BIN)/python benchmarks/bench_web.py
	$(BIN)/python benchmarks/bench_first.py
	$(BIN)/python benchmarks/bench_first.py --warm
	bash scripts/ensure_chromium.sh
	$(BIN)/python benchmarks/bench_board.py

clean:
	rm -rf $(VENV) site .mypy_cache .pytest_cache .ruff_cache .hypothesis
