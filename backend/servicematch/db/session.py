"""Engine and session factory for one database URL."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.orm import Session, sessionmaker

from servicematch.db.sqlite_writer import SQLiteWriterQueue

SQLITE_BUSY_TIMEOUT_SECONDS = 30
# PostgreSQL: a pooled connection unused for longer than this is pinged before it is handed out.
PING_AFTER_IDLE_SECONDS = 1.0
_CHECKED_IN_AT = "servicematch.checked_in_at"
# Starlette runs sync endpoints on a pool of 40 threads; each may hold one connection.
SQLITE_POOL_SIZE = 40


def prepare_sqlite_file(path: str | Path) -> None:
    """Create a missing database file (and its directory) readable by the owner only: it holds
    IP addresses and consent records. SQLite gives its -wal and -shm files the file's mode."""
    path = Path(path)
    if not path.parent.exists():
        path.parent.mkdir(mode=0o700, parents=True)
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


def make_engine(url: str) -> Engine:
    """An engine tuned for the backend: SQLite gets WAL, a busy timeout and in-process writer queueing."""
    if url.startswith("sqlite"):
        path = make_url(url).database
        in_memory = not path or path == ":memory:"
        if not in_memory:
            prepare_sqlite_file(path)
        # As many connections as the server has request threads, so none is opened per request.
        pooling = {} if in_memory else {"pool_size": SQLITE_POOL_SIZE, "max_overflow": SQLITE_POOL_SIZE}
        engine = create_engine(
            url, connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_SECONDS},
            hide_parameters=True, **pooling
        )
        SQLiteWriterQueue(timeout_seconds=SQLITE_BUSY_TIMEOUT_SECONDS).install(engine)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # hide_parameters: a failed statement's error (and so its log line) names the SQL, never the
    # values: IP addresses, user agents, page URLs and click data stay out of the logs.
    engine = create_engine(url, pool_size=10, max_overflow=20, hide_parameters=True)
    ping_when_idle(engine, PING_AFTER_IDLE_SECONDS)
    return engine


def ping_when_idle(engine: Engine, idle_seconds: float) -> None:
    """Ping a pooled connection as it is checked out, if it sat unused for more than `idle_seconds`.

    SQLAlchemy's `pool_pre_ping` pings at every checkout: a round trip to the server before each
    request's first statement and each batch of the lead writer (a quarter of its time on
    PostgreSQL). A connection checked in a moment ago was alive a moment ago; one that sat idle
    (through a database restart, a proxy's idle timeout) is pinged, and a dead one is replaced
    before anyone uses it. Should the server go away within that moment, the statement fails,
    SQLAlchemy discards every pooled connection, and the next checkout connects afresh.
    """

    @event.listens_for(engine, "checkin")
    def _note_checkin(_dbapi_connection, record) -> None:
        record.info[_CHECKED_IN_AT] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping_if_idle(dbapi_connection, record, _proxy) -> None:
        # `info` is emptied when a connection is replaced: a new one has no check-in time.
        checked_in_at = record.info.get(_CHECKED_IN_AT)
        if checked_in_at is None or time.monotonic() - checked_in_at <= idle_seconds:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)  # what pool_pre_ping runs
        except engine.dialect.loaded_dbapi.Error as failure:
            if engine.dialect.is_disconnect(failure, dbapi_connection, None):
                # The pool drops this connection and checks out another (up to three tries).
                raise DisconnectionError(f"pinging an idle connection failed: {failure}") from failure
            raise


def make_session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(bind=engine, expire_on_commit=False)


def session_scope(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One session per request: committed by the caller, rolled back and closed on any error."""
    session = factory()
    try:
        yield session
    except Exception:
        session.rollback()
        raise
    finally:
        session.close()
