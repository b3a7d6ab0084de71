"""PostgreSQL: a pooled connection is pinged only after sitting idle, and a dead one is replaced."""

from __future__ import annotations

import time

import psycopg
import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import DBAPIError

from servicematch.db.session import PING_AFTER_IDLE_SECONDS, make_engine, ping_when_idle


@pytest.fixture
def postgres_url(database_url: str) -> str:
    if not database_url.startswith("postgresql"):
        pytest.skip("SQLite has no server to lose and is not pinged")
    return database_url


def one_connection_engine(url: str, idle_seconds: float) -> Engine:
    """Every checkout gets the same pooled connection, or its replacement."""
    engine = create_engine(url, pool_size=1, max_overflow=0)
    ping_when_idle(engine, idle_seconds)
    return engine


def count_pings(engine: Engine, monkeypatch) -> list[bool]:
    pings: list[bool] = []
    do_ping = engine.dialect.do_ping

    def counted(dbapi_connection):
        pings.append(True)
        return do_ping(dbapi_connection)

    monkeypatch.setattr(engine.dialect, "do_ping", counted)
    return pings


def backend_pid(engine: Engine) -> int:
    with engine.connect() as connection:
        return connection.execute(text("SELECT pg_backend_pid()")).scalar_one()


def terminate(url: str, pid: int) -> None:
    """What a database restart or a proxy's idle timeout does to a pooled connection."""
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://", 1), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_the_app_engine_replaces_a_connection_that_died_while_idle_before_anyone_uses_it(postgres_url):
    engine = make_engine(postgres_url)
    try:
        first = backend_pid(engine)
        terminate(postgres_url, first)
        time.sleep(PING_AFTER_IDLE_SECONDS + 0.3)
        assert backend_pid(engine) != first  # no error: the ping found it dead, the pool connected anew
    finally:
        engine.dispose()


def test_a_connection_checked_in_a_moment_ago_is_not_pinged_and_one_left_idle_is(postgres_url, monkeypatch):
    busy, idle = one_connection_engine(postgres_url, 60.0), one_connection_engine(postgres_url, 0.0)
    try:
        busy_pings, idle_pings = count_pings(busy, monkeypatch), count_pings(idle, monkeypatch)
        for _ in range(5):
            backend_pid(busy)
            backend_pid(idle)
            time.sleep(0.01)
        assert len(busy_pings) == 0
        assert len(idle_pings) == 4  # every checkout but the first, which made the connection
    finally:
        busy.dispose()
        idle.dispose()


def test_a_connection_that_dies_within_the_moment_fails_one_statement_and_the_pool_recovers(postgres_url):
    # The price of not pinging every checkout, paid only when the server goes away mid-moment.
    engine = one_connection_engine(postgres_url, 60.0)
    try:
        first = backend_pid(engine)
        terminate(postgres_url, first)
        with pytest.raises(DBAPIError) as failed:
            backend_pid(engine)
        assert failed.value.connection_invalidated
        assert backend_pid(engine) != first
    finally:
        engine.dispose()
