"""Background chores a worker runs when it has nothing to send: at most once a period (an hour
unless given), off its thread."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger("servicematch.chores")


class HourlyChore:
    """Poked whenever the worker is idle (or on every round of its loop, `while_busy`); runs `job`
    on a thread of its own (never holding up sends) if its period (an hour unless `every_seconds`
    says otherwise) has passed since it last started and it is not still running."""

    CHECK_EVERY_SECONDS = 3600.0

    def __init__(self, name: str, job: Callable[[], object], *, every_seconds: float | None = None,
                 while_busy: bool = False) -> None:
        self.name = name
        self.job = job
        if every_seconds is not None:
            self.CHECK_EVERY_SECONDS = every_seconds
        self.while_busy = while_busy
        self._checked_at: float | None = None
        self._thread: threading.Thread | None = None

    def poke(self) -> None:
        now = time.monotonic()
        if self._checked_at is not None and now - self._checked_at < self.CHECK_EVERY_SECONDS:
            return
        if self._thread is not None and self._thread.is_alive():
            return
        self._checked_at = now
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        try:
            self.job()
        except Exception:
            log.exception("%s failed; trying again in %.0f s", self.name, self.CHECK_EVERY_SECONDS)
