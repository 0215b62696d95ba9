# One-command paths for a new machine: `make run` serves the site, `make test` runs every test.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Where `make run` serves (override: make run PORT=8001).
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run worker test test-fast lint bench install messages compilemessages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Reinstall only when the project metadata changes.
$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The exact solver compiled with mypyc (scripts/build-solver; the source runs
# when this fails or is stale, see engine/solver/native.py).
NATIVE := engine/solver/search.compiled-from
$(NATIVE): $(STAMP) engine/solver/search.py engine/cards.py engine/tricks.py
	PYTHON=$(abspath $(BIN))/python scripts/build-solver

install: $(STAMP) $(NATIVE)

# The suite runs in TEST_WORKERS processes (pytest-xdist), a file per worker at
# a time (a file's module fixtures start their servers once); TEST_WORKERS=0
# runs it in this one process. The fault tests (real outages, timed recovery)
# run afterwards on their own, with the machine to themselves.
TEST_WORKERS ?= 3
test: lint
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --ignore=tests/faults $(PYTEST_ARGS)
	$(BIN)/python -m pytest tests/faults $(PYTEST_ARGS)

# The pure part alone (rules, bots, solver; no Django, no servers), for a quick
# answer while working on the engine, in two processes: under 30 s on an idle
# machine. It leaves out the comparisons of whole-deal exact analyses (seconds
# each), which `make test` runs.
test-fast: install
	$(BIN)/python -m pytest -n 2 -m "not whole_deal_solves" tests/engine tests/ai tests/solver $(PYTEST_ARGS)

# Style, the declared layers (pyproject.toml [tool.importlinter]) and types:
# strict on the engine, the default level on the site ([tool.mypy]).
lint: install
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy --strict engine
	$(BIN)/mypy

bench: install
	$(BIN)/python -m engine bench

run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(BIN)/daphne -b $(HOST) -p $(PORT) blotsite.asgi:application

# With REDIS_URL set, bots and turn clocks run here, beside `make run`.
worker: install
	$(BIN)/python manage.py blotworker

# Translations (docs/languages.md). `make messages` finds every marked string in
# the code and templates, adds the new ones to each catalogue (untranslated; changed
# ones marked fuzzy) and compiles the shipped .mo files. Finding strings needs GNU
# xgettext (Debian's `gettext` package) on the developer's machine only: running
# and testing the site use the compiled files in the repository.
LOCALES := fr ru hy ka
messages: $(STAMP)
	$(BIN)/python manage.py makemessages $(addprefix --locale ,$(LOCALES)) \
		--no-obsolete --add-location file \
		--ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*'
	$(BIN)/python scripts/compilemessages.py

# Only compile (pure Python, after editing translations by hand).
compilemessages: $(STAMP)
	$(BIN)/python scripts/compilemessages.py
