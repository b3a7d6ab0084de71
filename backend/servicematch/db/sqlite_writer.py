"""Queue this process's SQLite writers on a Python lock instead of SQLite's busy handler.

SQLite lets one connection write at a time. A connection that finds the write lock taken
sleeps in SQLite's busy handler, in steps that grow to 100 ms, and retries; under load the
lock is often free while every writer that wants it is asleep, and throughput falls to a
fraction of what the database can do. Here each connection of the engine takes a process-wide
lock before its first write statement and gives it back right after its COMMIT or ROLLBACK,
so the next writer starts the moment the previous one is done. Reads never wait for it (WAL
lets them run beside the writer). The busy timeout stays as the fallback for writers in
other processes, such as a separate `servicematch worker`.

pysqlite opens a transaction implicitly just before the first INSERT, UPDATE, DELETE or
REPLACE of a connection, so that is where the lock is taken: a transaction's reads before
its first write run outside the lock, as they did before.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

from sqlalchemy import Engine, event

WRITE_VERBS = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def _is_write(statement: str) -> bool:
    return statement.lstrip()[:7].upper().startswith(WRITE_VERBS)


class SQLiteWriterQueue:
    """One writer at a time for every connection of one engine; installed by `install`."""

    def __init__(self, timeout_seconds: float) -> None:
        self._lock = threading.Lock()
        self._timeout = timeout_seconds
        self._owner: Any = None  # the DBAPI connection whose transaction holds the lock

    def acquire_for(self, dbapi_connection: Any) -> None:
        if self._owner is dbapi_connection:
            return
        if not self._lock.acquire(timeout=self._timeout):
            # The same error SQLite gives when its own busy timeout runs out.
            raise sqlite3.OperationalError("database is locked")
        self._owner = dbapi_connection

    def release_for(self, dbapi_connection: Any) -> None:
        if self._owner is dbapi_connection:
            self._owner = None
            self._lock.release()

    def install(self, engine: Engine) -> None:
        """Take the lock before a connection's first write; give it back when that transaction ends."""

        @event.listens_for(engine, "before_cursor_execute")
        def _queue_for_write(conn, _cursor, statement, _parameters, _context, _executemany) -> None:
            if _is_write(statement):
                self.acquire_for(conn.connection.dbapi_connection)

        # Release after the DBAPI call itself, so the next writer never meets SQLite's lock. The
        # pool's reset-on-return and a closed connection both end the transaction too.
        dialect = engine.dialect
        for name in ("do_commit", "do_rollback", "do_close", "do_terminate"):
            setattr(dialect, name, self._releasing(getattr(dialect, name)))

    def _releasing(self, end_transaction):
        def wrapper(connection, *args, **kwargs):
            try:
                return end_transaction(connection, *args, **kwargs)
            finally:
                # The dialect is handed the pool's proxy or the raw DBAPI connection, depending on the caller.
                self.release_for(getattr(connection, "dbapi_connection", connection))

        return wrapper
