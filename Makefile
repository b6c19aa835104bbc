# Two commands matter: `make demo` and `make test`. Everything else supports them.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
PORT   ?= 8000
PLAYERS ?= 36

.PHONY: demo test lint bench install messages clean rehearsal backup restore serve

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

## A real event on this laptop: empty installation, LAN server, scheduler, backups (README).
## make serve [PORT=8000] [HTTPS=1 [HTTPS_PORT=8002]] [BACKUP_DIR=/media/usb/championship] [KEEP=30]
serve: $(STAMP)
	$(BIN)/python -m laptop serve --port $(PORT) $(if $(HTTPS),--https) $(if $(HTTPS_PORT),--https-port $(HTTPS_PORT)) \
		$(if $(BACKUP_DIR),--backup-dir "$(BACKUP_DIR)") $(if $(KEEP),--keep $(KEEP))

## Set up and run the whole suite: ruff, import-linter (the rooms' contracts), mypy (the pure
## packages), then pytest on every core (pytest-xdist; `make test TEST_WORKERS=0`: one process).
## One worker more than cores: much of the suite waits (browsers, servers in subprocesses, a
## one-minute auction stop), and on two cores three workers finish first (pytest on SQLite,
## 2026-11-25: 2 workers 395 s, 3 workers 358–364 s, 4 workers 393 s). CI: TEST_WORKERS=auto.
## Branch coverage ([tool.coverage.*] in pyproject.toml): one line per room and sub-package
## (scripts/coverage_rooms.py), failing under the floor `fail_under`. It costs about 40 % more
## CPU in the in-process tests (2026-11-27); `make test COVERAGE=0` skips it.
COVERAGE ?= 1
TEST_WORKERS ?= $(shell $(PYTHON) -c "import os; print((os.cpu_count() or 1) + 1)")
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/mypy referee/rules tournament/seating
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup $(if $(filter 1,$(COVERAGE)),--cov --cov-report= --cov-fail-under=0)
	$(if $(filter 1,$(COVERAGE)),$(BIN)/python scripts/coverage_rooms.py)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/ruff format --check . || true

## Benchmarks: each prints its figures.
bench: $(STAMP)
	@demo=$$(mktemp -d); trap 'rm -rf "$$demo"' EXIT; \
	for script in benchmarks/bench_*.py; do \
		echo "== $$script"; BENCH_DEMO_CACHE=$$demo/demo.sqlite3 $(BIN)/python $$script || exit 1; \
		echo; \
	done

## The dress rehearsal: the real stack, 120 players, faults injected (< 10 minutes).
rehearsal: $(STAMP)
	$(BIN)/python -m rehearsal.run

## Back up the database (pg_dump) and every tournament as JSON; restore into an empty database.
backup: $(STAMP)
	PYTHON=$(BIN)/python bash scripts/backup.sh

## A laptop copy (*.sqlite3, or LAPTOP=1 for the newest by content in every backup folder) goes
## back with `python -m laptop restore`; refused when older than the database unless OLDER=1.
restore: $(STAMP)
	@case "$(FILE)$(LAPTOP)" in \
		*.sqlite3|1) $(BIN)/python -m laptop restore $(FILE) $(if $(BACKUP_DIR),--backup-dir "$(BACKUP_DIR)") $(if $(OLDER),--older) ;; \
		*) PYTHON=$(BIN)/python bash scripts/restore.sh $(FILE) --create ;; \
	esac

## Recreate the translation catalogues (needs GNU gettext) and compile them.
messages: $(STAMP)
	$(BIN)/python manage.py makemessages -l de -l en --no-obsolete --ignore=.venv --ignore=staticfiles \
		--ignore='tests/*' --ignore='benchmarks/*' --ignore='referee/rules/*' --ignore='tournament/seating/*'
	$(BIN)/python scripts/fill_po.py locale/de/LC_MESSAGES/django.po locale/glossary-de*.json
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
