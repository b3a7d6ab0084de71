"""New work told across processes on PostgreSQL (LISTEN/NOTIFY).

A worker wakes at once for work committed in its own process (kernel/wakeup.py), and the built-in
worker `serve` starts is told through its pipe (worker_process.py). Workers of their own
(`servicematch worker`, several side by side on PostgreSQL) would otherwise find a new lead only
at their next poll. So a web process sends one NOTIFY on CHANNEL after commits of new work, and
each such worker LISTENs and wakes on it. Commits that come while a NOTIFY is being sent share
the next one; a worker that misses one (its connection dropped) still polls.

Only web processes announce and only workers listen: a worker that announced what it heard would
wake every worker in turn, for ever.
"""

from __future__ import annotations

import logging
import threading

import psycopg
from sqlalchemy.engine import make_url

from servicematch.kernel import wakeup

log = logging.getLogger("servicematch.delivery")

CHANNEL = "servicematch_work"
# After a lost connection, how long before trying again.
RECONNECT_SECONDS = 1.0
# How often a listener looks whether it was asked to stop.
LISTEN_TIMEOUT_SECONDS = 1.0


def told_across(database_url: str) -> bool:
    """Whether work is told across processes for this database (PostgreSQL only)."""
    return make_url(database_url).get_backend_name() == "postgresql"


def _conninfo(database_url: str) -> str:
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


class Announcer:
    """A web process's side: a NOTIFY after commits of new work, from a thread of its own."""

    def __init__(self, database_url: str) -> None:
        self._conninfo = _conninfo(database_url)
        self._pending = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="work-announcer", daemon=True)

    def start(self) -> None:
        wakeup.deliveries.subscribe(self._pending.set)
        self._thread.start()

    def stop(self) -> None:
        wakeup.deliveries.unsubscribe(self._pending.set)
        self._stopping.set()
        self._pending.set()
        self._thread.join(5)

    def _run(self) -> None:
        connection: psycopg.Connection | None = None
        while True:
            self._pending.wait()
            if self._stopping.is_set():
                break
            self._pending.clear()
            try:
                if connection is None or connection.closed:
                    connection = psycopg.connect(self._conninfo, autocommit=True)
                connection.execute(f"NOTIFY {CHANNEL}")
            except psycopg.Error:
                log.warning("could not tell the workers of new work; they find it at their next poll",
                            exc_info=True)
                connection = None
                self._stopping.wait(RECONNECT_SECONDS)
        if connection is not None:
            connection.close()


class Listener:
    """A worker's side: each NOTIFY wakes this process's worker."""

    def __init__(self, database_url: str) -> None:
        self._conninfo = _conninfo(database_url)
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="work-listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(LISTEN_TIMEOUT_SECONDS + 5)

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    # Anything committed while this was not listening is found by this look.
                    wakeup.notify()
                    while not self._stopping.is_set():
                        for _ in connection.notifies(timeout=LISTEN_TIMEOUT_SECONDS):
                            wakeup.notify()
            except psycopg.Error:
                log.warning("listening for new work failed; polling meanwhile", exc_info=True)
                self._stopping.wait(RECONNECT_SECONDS)
