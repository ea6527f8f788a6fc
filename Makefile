# One command to run the app, one to run the tests (see README.md).
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test setup lint test-deps clean messages local-images checker

$(STAMP): requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $(STAMP)

setup: $(STAMP)

## make run: set up, migrate SQLite, load the demo tournament, serve on 127.0.0.1:8000 with a
## background worker beside it (scripts/run_dev.py; Ctrl-C stops both)
## (development mode, asked for here: the settings default to production mode)
run: export DJANGO_DEBUG = true
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) scripts/run_dev.py 127.0.0.1:8000

## make test: set up and run the whole test suite (SQLite, real browser and nginx included).
## Two processes for everything but the tests marked `alone` (tests/hosting: slow clients and a
## crowd timed through nginx and gunicorn), which run afterwards on their own: they must not share the CPU.
test: $(STAMP) test-deps
	$(PY) -m pytest -n 2 -m "not alone"
	$(PY) -m pytest -m alone tests/hosting

test-deps:
	@bash scripts/ensure-chromium.sh
	@bash scripts/ensure-nginx.sh

lint: export DJANGO_DEBUG = true
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(PY) manage.py makemigrations --check --dry-run

## make local-images: the three base images of docker-compose.yml built from Debian's packages
## (no Docker Hub), their names written into .env; REFRESH=1 takes newer security fixes.
## Needs root, Docker and debootstrap (README, "Without Docker Hub"); the system's python3.
local-images:
	python3 scripts/local_images.py $(if $(REFRESH),--refresh)

## make checker: the free checker as a program of its own (fide-pairings/README.md): its wheel
## and its single-file program in dist/ (scripts/build_checker.py; standard library only)
checker:
	$(PYTHON) scripts/build_checker.py

## make messages: extract the strings to translate into locale/ru (new ones untranslated)
## and compile the catalogue the app loads (polib: no system gettext needed for compiling).
messages: export DJANGO_DEBUG = true
messages: $(STAMP)
	$(PY) manage.py makemessages -l ru --no-location --ignore='.venv/*' --ignore='tests/*' \
	  --ignore='benchmarks/*' --ignore='scripts/*' --ignore='staticfiles/*' --ignore='docker/*' --ignore='artifacts/*'
	$(PY) -c "import polib; polib.pofile('locale/ru/LC_MESSAGES/django.po').save_as_mofile('locale/ru/LC_MESSAGES/django.mo')"

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles
