# Two commands matter: `make run` and `make test`. The rest are their parts.
HOST ?= 127.0.0.1
PORT ?= 8000
UV := python3 -m uv
NPM_STAMP := frontend/node_modules/.installed

.PHONY: run test install install-python install-frontend build migrate test-backend test-frontend lint bench

run: install build migrate
	HOST=$(HOST) PORT=$(PORT) $(UV) run --frozen servicematch serve --no-migrate

test: install build
	bash scripts/test.sh

install: install-python install-frontend

install-python:
	@python3 -m uv --version >/dev/null 2>&1 || python3 -m pip install --quiet "uv>=0.5"
	$(UV) sync --frozen --quiet

install-frontend: $(NPM_STAMP)

$(NPM_STAMP): frontend/package.json frontend/package-lock.json
	@# `npm ci` refuses this lock file: npm 11 records other platforms' optional binaries
	@# without versions. `npm install` still installs exactly the locked versions.
	cd frontend && npm install --no-audit --no-fund --loglevel=error
	touch $@

build: install-frontend
	cd frontend && npm run build --silent

migrate: install-python
	$(UV) run --frozen servicematch migrate

test-backend: install-python
	$(UV) run --frozen pytest backend/tests

test-frontend: install-frontend
	cd frontend && npm test --silent

lint: install
	$(UV) run --frozen ruff check backend e2e bench
