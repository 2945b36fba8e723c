# Snapclass: `make run` sets up and serves the site; `make test` sets up and runs every test.
# The newest supported Python on PATH that runs (3.13, 3.12, then 3.11), unless PYTHON=...
# names one. "Runs", not "is on PATH": a pyenv shim is on PATH for every version pyenv has
# but fails for the ones not selected.
SUPPORTED_PYTHONS := python3.13 python3.12 python3.11
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell for p in $(SUPPORTED_PYTHONS); do \
	$$p -c '' >/dev/null 2>&1 && { echo $$p; break; }; done)
endif
# Python writes its bytecode caches even where the environment says not to: without them every
# pytest process rewrites the asserts of all the test modules again at collection (9.4 CPU-s
# a process rather than 3.5), and every Daphne a test starts compiles the project anew.
unexport PYTHONDONTWRITEBYTECODE
# VENV=.venv313 PYTHON=... keeps a second interpreter's environment beside the first.
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Connections waiting to be accepted (classroom/server/daphne_limits.py LISTEN_BACKLOG; -b/-p
# would give Twisted's 50, too few for a class connecting at once).
LISTEN_BACKLOG := 1024
# Daphne's own cap on incoming WebSocket messages (the app refuses frames over 4 KiB).
WS_MAX_BYTES := 65536
# Daphne's timeouts (as classroom/server/daphne_limits.py DAPHNE_TIMEOUT_ARGS): a request must arrive
# and be answered within 30 s each, a WebSocket handshake within 20 s, a silent socket goes.
DAPHNE_TIMEOUTS := --http-timeout 30 --websocket_connect_timeout 20 --ping-interval 20 \
	--ping-timeout 30 --application-close-timeout 10

.PHONY: setup install lock upgrade run cluster test test-pythons check lint lint-js test-js format typecheck messages bench bench-commotion bench-riff-raff bench-analytics bench-analytics-school bench-capacity bench-tax bench-faults bench-joins bench-exports bench-purge lighthouse clean

$(BIN)/python:
	@test -n "$(PYTHON)" || { echo "Snapclass needs Python 3.11, 3.12 or 3.13, and none of" \
		"$(SUPPORTED_PYTHONS) runs here: install one, or name one with PYTHON=/path/to/python3"; \
		exit 1; }
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		>/dev/null 2>&1 || { echo "Snapclass needs Python 3.11 or later (3.11, 3.12 and 3.13" \
		"are tested), and PYTHON=$(PYTHON) is older or does not run"; exit 1; }
	$(PYTHON) -m venv $(VENV)

# The lock files (`make lock`): every package pinned with its hashes, one file for Python 3.11,
# 3.12 and 3.13 on any platform. run.txt is the site's packages (make run, make cluster); dev.txt
# adds the tools and test libraries (make setup, make check, make test, CI), at the same versions.
RUN_LOCK := requirements/run.txt
DEV_LOCK := requirements/dev.txt

# Installs a lock file's packages, each checked against its hashes, then the project itself
# without dependencies, so nothing comes in unpinned. `pip check` fails when pyproject.toml asks
# for a package or version the lock does not give (tests/test_lock_files.py checks the dev extras).
define install_lock
	$(BIN)/python -m pip install --quiet --require-hashes -r $(1)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	@$(BIN)/python -m pip check >/dev/null || { $(BIN)/python -m pip check; \
		echo "pyproject.toml and $(1) disagree: run \`make lock\` and commit requirements/"; exit 1; }
endef

$(VENV)/.installed-run: $(RUN_LOCK) pyproject.toml | $(BIN)/python
	$(call install_lock,$(RUN_LOCK))
	touch $@

$(VENV)/.installed: $(DEV_LOCK) pyproject.toml | $(BIN)/python
	$(call install_lock,$(DEV_LOCK))
	touch $@ $(VENV)/.installed-run

# ESLint for the site's scripts, from package-lock.json (Node and npm: Debian's nodejs, npm);
# serving the site needs neither (`make run` and `make cluster` skip it).
node_modules/.installed: package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "Snapclass's script checks need Node.js and npm"; exit 1; }
	npm ci --no-audit --no-fund
	touch $@

setup: $(VENV)/.installed node_modules/.installed

# A school's server (docs/deploy.md): the site's packages from requirements/run.txt, no tools.
install: $(VENV)/.installed-run

# Recompiles the lock files from pyproject.toml, keeping every pinned version that still fits
# (a new or changed requirement moves only what it must); `make upgrade` takes the newest
# versions pyproject.toml allows, then runs the whole suite on them. uv (a dev package) resolves
# for every supported Python at once; the lock files name no package index.
LOCK_ARGS := --universal --python-version 3.11 --generate-hashes --custom-compile-command "make lock" \
	--quiet
lock: $(BIN)/uv
	$(BIN)/uv pip compile pyproject.toml --extra dev $(LOCK_ARGS) $(LOCK_UPGRADE) -o $(DEV_LOCK)
	$(BIN)/uv pip compile pyproject.toml --constraint $(DEV_LOCK) $(LOCK_ARGS) -o $(RUN_LOCK)

upgrade:
	$(MAKE) lock LOCK_UPGRADE=--upgrade
	$(MAKE) test

# uv from the dev lock, without the project: `make lock` must run while pyproject.toml and the
# lock disagree, which stops `make setup`.
$(BIN)/uv: | $(BIN)/python
	$(BIN)/python -m pip install --quiet --require-hashes -r $(DEV_LOCK)

# The scripts' checks: ESLint (a warning fails it too) and the pure modules' tests under Node.
ESLINT := npx --no -- eslint --max-warnings 0 static/js tests/js eslint.config.js
NODE_TESTS := node --test tests/js/

run: $(VENV)/.installed-run
	$(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py collectstatic --noinput -v0
	@echo "Snapclass is running at http://$(HOST):$(PORT)/  (Ctrl+C stops it)"
	@# The background task worker (prepared downloads) beside Daphne, at a lower CPU priority;
	@# it stops with Daphne, however Daphne stops.
	$(BIN)/python manage.py tasks_worker -v0 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	$(BIN)/python -m classroom.server.serve -e tcp:port=$(PORT):interface=$(HOST):backlog=$(LISTEN_BACKLOG) \
		--websocket-max-message-size $(WS_MAX_BYTES) --websocket-max-frame-size $(WS_MAX_BYTES) \
		$(DAPHNE_TIMEOUTS) classroom.asgi:application

# Several processes behind HAProxy (the production layout, classroom/server/haproxy.cfg): needs
# PostgreSQL, Redis and HAProxy (Debian's package), which every Snapclass machine has.
PROCESSES ?= 2
CLUSTER_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/snapclass
CLUSTER_REDIS_URL ?= redis://127.0.0.1:6379/0
cluster: $(VENV)/.installed-run
	DATABASE_URL=$(CLUSTER_DATABASE_URL) $(BIN)/python -m classroom.server.database_create
	DATABASE_URL=$(CLUSTER_DATABASE_URL) $(BIN)/python manage.py migrate --noinput -v0
	$(BIN)/python manage.py collectstatic --noinput -v0
	DATABASE_URL=$(CLUSTER_DATABASE_URL) REDIS_URL=$(CLUSTER_REDIS_URL) \
		$(BIN)/python manage.py cluster --processes $(PROCESSES) --host $(HOST) --port $(PORT)

# Tests that need PostgreSQL and Redis (the cluster and fault tests) fail rather than skip
# when they are missing: every Snapclass machine, CI included, runs both on 127.0.0.1.
TEST_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/snapclass_tests
TEST_REDIS_URL ?= redis://127.0.0.1:6379/14
# Workers of the parallel run (pytest-xdist; tests/conftest.py keeps each file on one worker,
# and gives the first worker the paced lane: the real-process tests one at a time, then the
# longest game-paced browser file, while the other two take the busy rest); the tests marked
# `alone` (they measure time or load) run after it, one at a time.
TEST_WORKERS ?= 3
test: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy classroom games
	$(ESLINT)
	$(NODE_TESTS)
	SNAPCLASS_REQUIRE_SERVICES=1 $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadscope \
		-m "not alone"
	@echo "The tests that measure time or load, alone, so no other test's load is measured:"
	SNAPCLASS_REQUIRE_SERVICES=1 $(BIN)/python -m pytest -q -m alone
	@echo "The authorization and live-table tests again, on PostgreSQL:"
	SNAPCLASS_REQUIRE_SERVICES=1 DATABASE_URL=$(TEST_POSTGRES_URL) $(BIN)/python -m pytest -q \
		-n 2 --dist loadscope \
		tests/classroom/test_authorization.py tests/classroom/sockets/test_authorization.py \
		tests/classroom/sockets/test_table.py tests/classroom/hosting/test_log_store.py
	@echo "The socket authorization and fuzz tests again, on PostgreSQL and Redis (the cluster's"
	@echo "channel layer and leases):"
	SNAPCLASS_REQUIRE_SERVICES=1 DATABASE_URL=$(TEST_POSTGRES_URL) REDIS_URL=$(TEST_REDIS_URL) \
		SNAPCLASS_LEASE_PREFIX=tests-$$$$ SNAPCLASS_CHANNEL_PREFIX=tests-$$$$ \
		$(BIN)/python -m pytest -q tests/classroom/sockets/test_authorization.py \
		tests/faults/test_fuzz.py
	@$(MAKE) --no-print-directory test-pythons

# The quick suite: no browser, no real server processes, nothing that measures time.
QUICK_TESTS := not e2e and not cluster and not slow and not alone
# The quick suite again under each other supported Python on this machine, each in an
# environment of its own (.venv311, .venv312, .venv313) installed from the same lock: the first
# python3.X on PATH that runs, else a pyenv build of it (pyenv's shims on PATH run only the
# selected versions). A version found nowhere is named and skipped.
test-pythons: $(VENV)/.installed
	@main=$$($(BIN)/python -c 'import sys; print("%d.%d" % sys.version_info[:2])'); \
	pyenv_root=$$(pyenv root 2>/dev/null); \
	for version in $(SUPPORTED_PYTHONS:python%=%); do \
		[ "$$version" = "$$main" ] && continue; \
		python=; \
		for candidate in python$$version \
				$${pyenv_root:+$$pyenv_root/versions/*/bin/python$$version}; do \
			$$candidate -c '' >/dev/null 2>&1 && { python=$$(command -v $$candidate); break; }; \
		done; \
		[ -n "$$python" ] || { echo "Python $$version: not on this machine, skipped"; continue; }; \
		venv=.venv$$(echo $$version | tr -d .); \
		echo "The quick suite under Python $$version ($$python, in $$venv):"; \
		$(MAKE) --no-print-directory VENV=$$venv PYTHON=$$python $$venv/.installed || exit 1; \
		SNAPCLASS_REQUIRE_SERVICES=1 $$venv/bin/python -m pytest -q -n $(TEST_WORKERS) \
			--dist loadscope -m "$(QUICK_TESTS)" || exit 1; \
	done

# The quick loop: lint, import contracts, types and every test but the browser, cluster and
# fault/soak ones (those need real processes; `make test` runs them all).
check: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/mypy classroom games
	$(ESLINT)
	$(NODE_TESTS)
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadscope -m "not e2e and not cluster and not slow"

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(ESLINT)

# The scripts alone: ESLint and the pure modules' tests under Node.
lint-js: node_modules/.installed
	$(ESLINT)

test-js: node_modules/.installed
	$(NODE_TESTS)

format: setup
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: setup
	$(BIN)/mypy classroom games

# Flip-to-tablet latency of live tables against a raw websockets yardstick, in alternating
# blocks, three runs of 1,000 flips a side (~12 min; prints JSON, exits 1 on a missed flip).
bench: setup
	$(BIN)/python tests/load/bench_tables.py

# Commotion: engine inputs per second (all-bot tables of 6), and play-to-tablet latency with
# ten racing tables on one Daphne (prints JSON).
bench-commotion: setup
	$(BIN)/python tests/load/bench_commotion.py

# Riff Raff: ten all-bot tables simulating (pymunk) and streaming in one process (prints JSON).
bench-riff-raff: setup
	$(BIN)/python tests/load/bench_riff_raff.py

# Server time of the class overview and a student's progress page on a seeded class of
# 30 students x 20 sessions x 200 trials, the class's printed reports as the task worker builds
# them, and when its trials CSV starts streaming (prints JSON). Seeds a throwaway SQLite file.
bench-analytics: setup
	tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
		export DATABASE_URL="sqlite:///$$tmp/bench.sqlite3" && \
		$(BIN)/python manage.py migrate --noinput -v0 && \
		$(BIN)/python tests/load/bench_analytics.py

# The same pages at a school's year of trials: 30 classes x 30 students x 200 sessions x 200
# trials (36 M) seeded in SQL into a throwaway PostgreSQL database, which is dropped after.
# Prints JSON (seeding and building the indexes take about 20 minutes on two cores); e.g.
# SCHOOL_ARGS="--classes 3" for a first try.
SCHOOL_BENCH_DATABASE := snapclass_bench_school_$(shell date +%s)
SCHOOL_ARGS ?=
bench-analytics-school: setup
	export DATABASE_URL=postgres://postgres@127.0.0.1:5432/$(SCHOOL_BENCH_DATABASE) && \
		trap '$(BIN)/python -m classroom.server.database_create --drop' EXIT INT TERM && \
		$(BIN)/python -m classroom.server.database_create && \
		$(BIN)/python manage.py migrate --noinput -v0 && \
		$(BIN)/python tests/load/bench_analytics.py --size school $(SCHOOL_ARGS)

# Students one process holds with flip-to-last-tablet p99 <= 100 ms: ramps classes of 30 (each
# with its teacher's console and projector open) on one process (SQLite), then on two
# (PostgreSQL + Redis) with and without session affinity, and compares the two Redis channel
# layers at a fixed load. Needs Redis and PostgreSQL for the last three; ~40 min (prints
# JSON). Exits 1 naming the table, flip and tablets of any lost flip.
bench-capacity: setup
	$(BIN)/python tests/load/bench_capacity.py

# The cluster tax: the same classes on one process and on two behind HAProxy, in turns; CPU-s
# per 1,000 student-flips of each and their ratio. Needs Redis and PostgreSQL; ~10 min (prints
# JSON). TAX_STUDENTS=600 TAX_TURNS=2 by default.
TAX_STUDENTS ?= 600
TAX_TURNS ?= 2
bench-tax: setup
	$(BIN)/python tests/load/bench_tax.py --students $(TAX_STUDENTS) --turns $(TAX_TURNS)

# Faults while scripted tablets play (kill -9, SIGSTOP of an owner, Redis stopped, PostgreSQL
# connections terminated), embedded and two-process cluster: acknowledged inputs lost or
# applied twice, resume p50/max. Needs PostgreSQL and redis-server (it runs a private one);
# ~8 min (prints JSON).
bench-faults: setup
	$(BIN)/python tests/load/bench_faults.py

# 30, 120 and 300 tablets joining one lobby at the same instant: join and all-in-the-lobby
# times, and the CPU the server and the tablets used meanwhile (prints JSON).
bench-joins: setup
	$(BIN)/python tests/load/bench_joins.py

# Live flip-to-tablet p99 in alternating blocks, the site idle and while the task worker builds a class
# workbook of 120,000 trials (target: at most 1.5x the idle p99), and the xlsx writers timed on
# the same rows; 4-8 min (prints JSON).
bench-exports: setup
	$(BIN)/python tests/load/bench_exports.py

# Deleting a 15,000-trial session (30 children x 500) while a class plays and tablets join
# elsewhere: each concurrent write's wait for SQLite's write lock while the task worker purges
# it in batches (target: at most 200 ms), beside the same writes alone and while a session is
# deleted in one transaction; 3-6 min (prints JSON).
bench-purge: setup
	$(BIN)/python tests/load/bench_purge.py

# Lighthouse (package.json) over the public, teacher and tablet pages of a classroom built
# through the site (tests/e2e/classroom_site.py), in headless /usr/bin/chromium; prints each
# page's scores as JSON (docs/benchmarks.md). Slow, so not part of `make test`.
lighthouse: setup
	$(BIN)/python tests/load/bench_lighthouse.py

# Needs GNU gettext (Debian: gettext); the compiled .mo files are committed.
messages: setup
	$(BIN)/python manage.py makemessages -l zh_Hant --no-obsolete --ignore=.venv --ignore=tests
	$(BIN)/python manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) .venv3?? node_modules staticfiles .pytest_cache .ruff_cache .mypy_cache
