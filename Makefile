# Two commands matter: `make demo` and `make test`. Everything else supports them.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
PORT   ?= 8000
PLAYERS ?= 36

.PHONY: demo test lint bench install messages clean rehearsal backup restore

$(BIN)/python:
	@$(PYTHON) -c 'import sys; assert sys.version_info[:2] == (3, 11), "Python 3.11 is needed, found " + sys.version' 
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

## Set everything up, load the demo championship and serve it on 127.0.0.1:$(PORT).
demo: $(STAMP)
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo --players $(PLAYERS) --addr 127.0.0.1:$(PORT)

## Set up and run the whole suite: ruff, then pytest.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check . || true

## Benchmarks: each prints its figures.
bench: $(STAMP)
	@for script in benchmarks/bench_*.py; do \
		echo "== $$script"; $(BIN)/python $$script || exit 1; echo; \
	done

## The dress rehearsal: the real stack, 120 players, faults injected (< 10 minutes).
rehearsal: $(STAMP)
	$(BIN)/python -m rehearsal.run

## Back up the database (pg_dump) and every tournament as JSON; restore into an empty database.
backup: $(STAMP)
	PYTHON=$(BIN)/python bash scripts/backup.sh

restore: $(STAMP)
	PYTHON=$(BIN)/python bash scripts/restore.sh $(FILE) --create

## Recreate the translation catalogues (needs GNU gettext) and compile them.
messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l de -l en --no-obsolete --ignore=.venv --ignore=staticfiles \
		--ignore='tests/*' --ignore='benchmarks/*' --ignore='referee/rules/*' --ignore='tournament/seating/*'
	$(BIN)/python scripts/fill_po.py locale/de/LC_MESSAGES/django.po locale/glossary-de*.json
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
