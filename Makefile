# Two commands matter: `make run` and `make test`. The rest are their parts.
HOST ?= 127.0.0.1
PORT ?= 8000
UV := python3 -m uv
NPM_STAMP := frontend/node_modules/.installed
TOOLS_STAMP := frontend/tools/openapi-types/node_modules/.installed
# Where `make build` puts the site (the server's SERVICEMATCH_STATIC_DIR); `make build DIST=/tmp/site`
# builds a copy elsewhere.
DIST ?= frontend/dist
DIST_PATH := $(abspath $(DIST))

.PHONY: run test test-deploy install install-python install-frontend build api-types migrate test-backend test-frontend lint bench screens

run: install build migrate
	HOST=$(HOST) PORT=$(PORT) $(UV) run --frozen servicematch serve --no-migrate

# The clock starts when make reads this file, so the total counts the install and the build.
STARTED := $(shell date +%s)

test: install build
	@bash scripts/test.sh; status=$$?; \
	echo "make test: $$(( $$(date +%s) - $(STARTED) )) s in all (exit status $$status)"; exit $$status

install: install-python install-frontend

# Compiled once here: where PYTHONDONTWRITEBYTECODE is set (these machines set it), every Python
# process (the server, its worker, each CLI command and test process) would otherwise compile
# every module it imports from source, about 2 s of CPU each. Python still reads the files.
install-python:
	@python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet "uv>=0.5" \
		|| python3 -m pip install --quiet --break-system-packages "uv>=0.5"
	$(UV) sync --frozen --quiet --compile-bytecode
	$(UV) run --frozen python -m compileall -q backend/servicematch >/dev/null

install-frontend: $(NPM_STAMP) $(TOOLS_STAMP)

$(NPM_STAMP): frontend/package.json frontend/package-lock.json
	@# `npm ci` refuses this lock file: npm 11 records other platforms' optional binaries
	@# without versions. `npm install` still installs exactly the locked versions.
	cd frontend && npm install --no-audit --no-fund --loglevel=error
	touch $@

# openapi-typescript lives in a package of its own: it wants TypeScript 5, the app uses 7.
$(TOOLS_STAMP): frontend/tools/openapi-types/package.json frontend/tools/openapi-types/package-lock.json
	cd frontend/tools/openapi-types && npm install --no-audit --no-fund --loglevel=error
	touch $@

# The browser's bundles, then every public page rendered to HTML from the server's catalogue
# export (frontend/scripts/prerender.mjs; the server sends them while its data matches).
# scripts/build.sh reuses a cached build while none of its inputs changed.
build: install api-types
	bash scripts/build.sh $(DIST_PATH)

# The browser's API types (frontend/src/lib/api-schema.ts, committed) from the server's OpenAPI
# schema; backend/tests/web/test_api_types.py fails when they are out of date.
API_SCHEMA := frontend/node_modules/.cache/openapi.json
api-types: install
	@mkdir -p $(dir $(API_SCHEMA))
	$(UV) run --frozen python -m servicematch.api_schema > $(API_SCHEMA)
	frontend/tools/openapi-types/node_modules/.bin/openapi-typescript $(API_SCHEMA) -o frontend/src/lib/api-schema.ts --silent

migrate: install-python
	$(UV) run --frozen servicematch migrate

test-backend: install-python
	$(UV) run --frozen pytest backend/tests

test-frontend: install-frontend
	cd frontend && npm test --silent

# The production deployment of deploy/ (docs/deployment.md, "How it is tested"): nginx with the
# project's site file, the systemd units' own command lines, 1,000 leads through nginx with a web
# process and a worker killed halfway. It installs Debian's nginx (and redis-server, when no Redis
# answers on 127.0.0.1:6379) with apt-get, so it expects root, and PostgreSQL running as `make test`
# leaves it. About 3 minutes.
test-deploy: install build
	$(UV) run --frozen pytest -n 0 -q -s deploy/tests

lint: install
	$(UV) run --frozen ruff check backend e2e bench scripts deploy

# Screenshots of every page type at 390 and 1280 px into docs/screens/ (the visual test's baselines).
screens: install build
	$(UV) run --frozen python scripts/screens.py
