"""Events wait in memory and are written in batches by one thread, off the request path.

A flood cannot slow lead intake: a request only appends to a bounded queue (events beyond it
are dropped), and the database sees one multi-row INSERT per second at most, not one write per
event competing with leads for SQLite's single write lock or PostgreSQL's connections.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time
from collections import deque
from dataclasses import asdict
from datetime import datetime

from sqlalchemy import insert
from sqlalchemy.orm import Session, sessionmaker

from servicematch.events.intake import CheckedEvent
from servicematch.events.models import FunnelEvent
from servicematch.events.rollup import roll_up_and_prune
from servicematch.kernel.clock import utcnow

log = logging.getLogger("servicematch.events")

MAX_QUEUED = 20_000
FLUSH_SECONDS = 1.0
ROLLUP_EVERY_SECONDS = 3600.0
# The first roll-up waits a little after start-up, out of the way of a process that is warming up.
FIRST_ROLLUP_AFTER_SECONDS = 60.0


class EventBuffer:
    def __init__(self, session_factory: sessionmaker[Session], *, retention_days: int) -> None:
        self._session_factory = session_factory
        self._retention_days = retention_days
        self._queue: deque[tuple[datetime, CheckedEvent]] = deque()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_rollup = 0.0
        self.dropped = 0

    def add(self, event: CheckedEvent) -> bool:
        """Queue an event; False (dropped) when the queue is full."""
        with self._lock:
            if len(self._queue) >= MAX_QUEUED:
                self.dropped += 1
                return False
            self._queue.append((utcnow(), event))
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(target=self._run, name="funnel-events", daemon=True)
                self._thread.start()
                atexit.register(self.stop)
        return True

    def flush(self) -> int:
        """Write everything queued now; returns how many events were written."""
        with self._lock:
            batch = list(self._queue)
            self._queue.clear()
        if not batch:
            return 0
        rows = [{**asdict(event), "at": at} for at, event in batch]
        try:
            with self._session_factory() as session:
                session.execute(insert(FunnelEvent), rows)
                session.commit()
        except Exception:  # analytics must never take the site down: say so, move on
            log.exception("could not store %d funnel events; they are dropped", len(rows))
            return 0
        return len(rows)

    def _run(self) -> None:
        self._last_rollup = time.monotonic() - ROLLUP_EVERY_SECONDS + FIRST_ROLLUP_AFTER_SECONDS
        while not self._stop.wait(FLUSH_SECONDS):
            self.flush()
            if time.monotonic() - self._last_rollup >= ROLLUP_EVERY_SECONDS:
                self._last_rollup = time.monotonic()
                try:
                    roll_up_and_prune(self._session_factory, retention_days=self._retention_days)
                except Exception:  # retried at the next interval
                    log.exception("funnel roll-up failed; retrying in an hour")

    def stop(self) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=5)
        self.flush()
