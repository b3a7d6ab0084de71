"""Fixtures: the app on a real SQLite file and a throwaway PostgreSQL database, side by side."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
import route_build_cache
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, text

from servicematch.app import create_app
from servicematch.ledger import terms as ledger_terms
from servicematch.ledger.models import Terms
from servicematch.schema.migrate import upgrade
from servicematch.schema.registry import metadata
from servicematch.settings import Settings

# Every test builds an app of its own: what FastAPI builds for its routes is shared among them.
route_build_cache.install()

# Tests submit fictional phone numbers (555-0100 to 555-0199) and forms without the browser's
# timing, which the quality gate rightly scores low: here it scores and reports, but holds nothing,
# unless a test asks for holds itself (backend/tests/quality, the held-lead tests). Set in the
# environment, so servers and workers the tests start inherit it too.
os.environ.setdefault("SERVICEMATCH_QUALITY_HOLD_BELOW", "0")

POSTGRES_ADMIN_URL = os.environ.get(
    "SERVICEMATCH_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
# SERVICEMATCH_TEST_DATABASES=sqlite runs the suite on one backend while iterating locally.
BACKENDS = os.environ.get("SERVICEMATCH_TEST_DATABASES", "sqlite,postgresql").split(",")


def _create_postgres_database() -> tuple[str, str]:
    name = f"servicematch_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    base = POSTGRES_ADMIN_URL.rsplit("/", 1)[0].replace("postgresql://", "postgresql+psycopg://", 1)
    return name, f"{base}/{name}"


def _drop_postgres_database(name: str) -> None:
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session", params=BACKENDS)
def database_url(request, tmp_path_factory) -> Iterator[str]:
    """A migrated database of each backend, created for this run and removed after it."""
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("sqlite") / "servicematch.db"
        url = f"sqlite:///{path}"
        upgrade(url)
        yield url
        return
    name, url = _create_postgres_database()
    try:
        upgrade(url)
        yield url
    finally:
        _drop_postgres_database(name)


@pytest.fixture(scope="session")
def static_dir(tmp_path_factory) -> Path:
    """A stand-in for the built site, so API tests do not depend on a frontend build."""
    root = tmp_path_factory.mktemp("site")
    (root / "assets").mkdir()
    (root / "index.html").write_text(
        '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Default</title>'
        '<meta name="description" content="Default" /></head>'
        '<body><div id="root"></div><script type="module" src="/assets/app-1234.js"></script></body></html>'
    )
    (root / "assets" / "app-1234.js").write_text("console.log('app')")
    (root / "robots.txt").write_text("User-agent: *\n")
    return root


@pytest.fixture
def settings(database_url: str, static_dir: Path, tmp_path: Path) -> Settings:
    return Settings(
        environment="test",
        database_url=database_url,
        static_dir=static_dir,
        secret_key="test-secret-key",
        # `serve`'s worker is a spawned process: starting and stopping one costs each test about
        # 2 s. Tests of the worker turn it on (tests/delivery/test_delivery_in_app.py).
        worker_enabled=False,
    )


@pytest.fixture(autouse=True)
def accounts_on_credit(monkeypatch) -> None:
    """New buyers and providers pay on credit with no limit here, as every account did before money
    came (and still does after the migration): a test about routing, delivery or the portals needs
    no funding. In production a new account is prepaid and empty; tests about money ask for that
    with the `prepaid_by_default` fixture, or set an account's terms themselves."""
    monkeypatch.setattr(ledger_terms, "NEW_ACCOUNT_TERMS", Terms.CREDIT)


@pytest.fixture
def prepaid_by_default(accounts_on_credit, monkeypatch) -> None:
    """A new account is prepaid and empty, as in production."""
    monkeypatch.setattr(ledger_terms, "NEW_ACCOUNT_TERMS", Terms.PREPAID)


def _empty_all_tables(engine: Engine) -> None:
    with engine.begin() as connection:
        for table in reversed(metadata.sorted_tables):
            connection.execute(table.delete())


@pytest.fixture
def app(settings: Settings):
    application = create_app(settings)
    yield application
    application.state.lead_store.stop()  # tests without a TestClient never ran the lifespan's shutdown
    _empty_all_tables(application.state.engine)
    application.state.engine.dispose()


@pytest.fixture
def client(app) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture
def earlier_database(database_url: str, tmp_path) -> Iterator[str]:
    """An empty database of the tests' kind, of its own (to migrate step by step)."""
    if database_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'earlier.db'}"
        return
    name = f"servicematch_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{database_url.rsplit('/', 1)[0]}/{name}"
        finally:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def raw_engine(database_url: str) -> Iterator[Engine]:
    engine = create_engine(database_url)
    yield engine
    engine.dispose()


def table_names(engine: Engine) -> set[str]:
    from sqlalchemy import inspect

    return set(inspect(engine).get_table_names())


__all__ = ["table_names", "text"]
