"""Group commit: one thread stores the leads that arrive together, in one transaction.

A transaction and its commit cost far more than the rows in it, and SQLite takes one writer
at a time. So request handlers check, encrypt and build their lead, hand it to this writer
and wait; the writer takes the first lead queued, waits at most SERVICEMATCH_LEAD_BATCH_WAIT_MS
(1 ms) for the ones right behind it, stores them with `store_leads` and answers each request.
A request is answered only after its lead is committed, so a 202 still means the lead is on
disk; while it waits it holds no thread.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from concurrent.futures import Future

from sqlalchemy.orm import Session, sessionmaker

from servicematch.catalog.loader import CatalogIndex
from servicematch.errors import ServiceMatchError
from servicematch.settings import Settings

from .models import Lead
from .service import NewLead, store_leads

log = logging.getLogger("servicematch.intake")

# Bounds one transaction (and so how long the others wait for the write lock) under a burst.
MAX_BATCH = 100
NOT_SAVED = "We could not save your request just now. Please try again in a moment."


class LeadWriter:
    """A thread that stores queued leads in batches; `store` returns once its lead is committed."""

    def __init__(self, *, session_factory: sessionmaker[Session], settings: Settings, index: CatalogIndex,
                 wait_seconds: float = 30.0) -> None:
        self._store = lambda batch: store_leads(session_factory=session_factory, settings=settings,
                                                index=index, new_leads=batch)
        self._wait_seconds = wait_seconds
        self._batch_wait_seconds = settings.lead_batch_wait_ms / 1000
        self._queue: queue.SimpleQueue[tuple[NewLead, Future] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    async def store(self, new_lead: NewLead) -> Lead:
        """The stored lead (or the earlier one its requestId names); raises the lead's refusal."""
        self._ensure_started()
        answer: Future = Future()
        self._queue.put((new_lead, answer))
        try:
            return await asyncio.wait_for(asyncio.wrap_future(answer), timeout=self._wait_seconds)
        except TimeoutError:
            # The lead may still be written; the browser's retry carries the same requestId,
            # which then answers with that lead instead of storing it twice.
            log.error("lead %s was not stored within %.0f s", new_lead.lead.request_id, self._wait_seconds)
            raise _not_saved() from None

    def stop(self, timeout: float = 10.0) -> None:
        """Store what is queued, then end the thread."""
        thread = self._thread
        if thread is not None and thread.is_alive():
            self._queue.put(None)
            thread.join(timeout)

    def _ensure_started(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        with self._start_lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="lead-writer", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stopping = False
            # Like PostgreSQL's commit_delay: a moment's wait lets the leads arriving right
            # behind this one share its transaction, which costs far more than the wait.
            deadline = time.monotonic() + self._batch_wait_seconds
            while len(batch) < MAX_BATCH:
                try:
                    queued = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if queued is None:
                    stopping = True
                    break
                batch.append(queued)
            for _, answer in batch:
                # From here on the answer cannot be cancelled. One whose request already gave up
                # (timed out) is still stored: its retry, with the same requestId, replays it.
                answer.set_running_or_notify_cancel()
            try:
                self._write(batch)
            except Exception:  # never let the thread die and leave later requests unanswered
                log.exception("the lead writer failed on a batch of %d", len(batch))
            if stopping:
                return

    def _write(self, batch: list[tuple[NewLead, Future]]) -> None:
        try:
            outcomes = self._store([new_lead for new_lead, _ in batch])
        except Exception as failure:  # noqa: BLE001 - store_leads raises only when a batch of one fails
            outcomes = [failure] * len(batch)
        for (new_lead, answer), outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, Exception) and not isinstance(outcome, ServiceMatchError):
                log.error("storing lead %s failed", new_lead.lead.request_id, exc_info=outcome)
                outcome = _not_saved()
            _answer(answer, outcome)


def _not_saved() -> ServiceMatchError:
    return ServiceMatchError(NOT_SAVED, status_code=503, headers={"Retry-After": "5"})


def _answer(answer: Future, outcome: Lead | Exception) -> None:
    if answer.done():  # its request gave up waiting; nobody is listening
        return
    if isinstance(outcome, Exception):
        answer.set_exception(outcome)
    else:
        answer.set_result(outcome)
