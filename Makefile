# Two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Every entry point reads DJANGO_SETTINGS_MODULE (config/entry.py; unset: production). The
# targets here run on a developer's machine: the local settings, unless told otherwise.
# Passed to each command, not exported: pytest keeps config.settings.test (pyproject.toml).
DEV_SETTINGS ?= config.settings.local

.PHONY: install messages docs run dev test lint format bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e '.[dev]'
	touch $@

install: $(VENV)/.installed messages docs

# The catalogues (locale/*/LC_MESSAGES/*.po) compiled to .mo, which git does not keep:
# needs GNU gettext's msgfmt (Debian: apt-get install gettext; .ci/run installs it).
messages: $(VENV)/.installed
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(BIN)/python manage.py compilemessages \
		--ignore '.venv' --ignore 'staticfiles' -v 0

# The manual (docs/, MkDocs Material) built strictly into site/, which git does not keep:
# the app serves it at /docs/ (web/manual.py), nothing in it from outside.
docs: $(VENV)/.installed
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict -q

# SQLite + eager Celery: no services needed. Served by uvicorn (ASGI), so the live streams
# (/api/.../stream/) work too; on SQLite they poll once a second.
run: install
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(BIN)/python manage.py migrate --noinput
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) HOST=$(HOST) PORT=$(PORT) $(BIN)/python manage.py load_demo
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(BIN)/uvicorn config.asgi:application \
		--host $(HOST) --port $(PORT)

# `make run` with the code reloaded on change, watching the source folders only (a club
# laptop serving an evening runs `make run`: no watcher polling the tree on battery).
dev: install
	DJANGO_SETTINGS_MODULE=$(DEV_SETTINGS) $(BIN)/uvicorn config.asgi:application \
		--host $(HOST) --port $(PORT) --reload $(foreach d,config core eventstore games players tournaments web demo,--reload-dir $(d))

# The whole suite. Uses PostgreSQL/Redis when DATABASE_URL/CELERY_BROKER_URL point at them.
test: install
	$(BIN)/python -m pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# Solver and pairing need nothing else; replay and api need PostgreSQL (see bench/README.md).
bench: install
	$(BIN)/pip install -q -e '.[dev,bench]'
	$(BIN)/python bench/solver.py
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/cache.py
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/api.py
	$(BIN)/python bench/action_input.py
	$(BIN)/python bench/action_cpu.py
	$(BIN)/python bench/export.py
	$(BIN)/python bench/verify.py
	$(BIN)/python bench/pages.py
	$(BIN)/python bench/bracket_page.py

clean:
	rm -rf $(VENV) db.sqlite3 .pytest_cache .ruff_cache .hypothesis site
