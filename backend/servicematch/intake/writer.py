"""The batched LeadStore (group commit): one thread stores the leads that arrive together, in one transaction.

A transaction and its commit cost far more than the rows in it, and SQLite takes one writer
at a time. So request handlers check, encrypt and build their lead, hand it to this store and
wait; its thread takes the first lead queued, waits at most SERVICEMATCH_LEAD_BATCH_WAIT_MS
(1 ms) for the ones right behind it and stores them with `LeadTransactions.store_together`.

Invariants (tests/intake/test_batch_storage.py guards each):
1. A request is answered only after its lead is committed (or found already stored), so a 202
   still means the lead is on disk; while it waits it holds no thread.
2. A batch is at most MAX_BATCH leads, so one transaction never keeps the write lock long.
3. One lead never costs another its place: should a batch's transaction fail (a twin committed
   by another process meanwhile, side effects that raise), it is rolled back and each lead is
   stored in a transaction of its own; a lead that fails alone gets its own failure.
4. Within a batch, leads see each other as if stored one by one in queue order: a repeated
   requestId answers with the first lead's answer (409 if the body differs), and a repeated
   phone for the same service is a duplicate; provider matching counts the batch's unsaved
   deliveries against daily caps (delivery/matching.py).
5. The thread never dies on a failure, and a lead whose request stopped waiting (timed out) is
   still stored: its retry, with the same requestId, replays it.
6. `stop` stores what is queued, then ends the thread; `store` after `stop` starts it again.

On SQLite the single write lock is taken in-process (db/sqlite_writer.py), so the batch's reads
run before it and the next transaction starts the moment this one commits.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time

from .service import LeadTransactions, NewLead, StoredLead
from .store import STORE_WAIT_SECONDS, as_answer, not_saved

log = logging.getLogger("servicematch.intake")

# A lead, the event loop its request waits on, and the future that hands it the outcome there.
Queued = tuple[NewLead, asyncio.AbstractEventLoop, asyncio.Future]

# Bounds one transaction (and so how long the others wait for the write lock) under a burst.
MAX_BATCH = 100


class BatchedLeadStore:
    """A thread that stores queued leads in batches; `store` returns once its lead is committed."""

    def __init__(self, transactions: LeadTransactions, *, batch_wait_ms: float,
                 wait_seconds: float = STORE_WAIT_SECONDS) -> None:
        self.transactions = transactions
        self._wait_seconds = wait_seconds
        self._batch_wait_seconds = batch_wait_ms / 1000
        self._queue: queue.SimpleQueue[Queued | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    async def store(self, new_lead: NewLead) -> StoredLead:
        """The stored lead (or the earlier one its requestId names); raises the lead's refusal."""
        self._ensure_started()
        loop = asyncio.get_running_loop()
        answer = loop.create_future()
        self._queue.put((new_lead, loop, answer))
        try:
            async with asyncio.timeout(self._wait_seconds):
                return await answer
        except TimeoutError:
            # The lead may still be written; the browser's retry carries the same requestId,
            # which then answers with that lead instead of storing it twice.
            log.error("lead %s was not stored within %.0f s", new_lead.lead.request_id, self._wait_seconds)
            raise not_saved() from None

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
            # Every lead taken is stored, those whose request already gave up (timed out) too:
            # its retry, with the same requestId, replays it.
            try:
                self._write(batch)
            except Exception:  # never let the thread die and leave later requests unanswered
                log.exception("the lead writer failed on a batch of %d", len(batch))
            if stopping:
                return

    def _write(self, batch: list[Queued]) -> None:
        new_leads = [new_lead for new_lead, _, _ in batch]
        outcomes = self._store(new_leads)
        # One wake-up of each waiting event loop per batch, not one per lead: each costs the loop
        # a write to its self-pipe and a read from it.
        answers: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future, StoredLead | Exception]]] = {}
        for (new_lead, loop, answer), outcome in zip(batch, outcomes, strict=True):
            answers.setdefault(loop, []).append((answer, as_answer(new_lead.lead.request_id, outcome)))
        for loop, settled in answers.items():
            try:
                loop.call_soon_threadsafe(_settle, settled)
            except RuntimeError:  # that loop is closed: nobody is listening any more
                log.warning("%d stored leads had nobody left to answer", len(settled))

    def _store(self, new_leads: list[NewLead]) -> list[StoredLead | Exception]:
        """Each lead's outcome: the batch together, or each alone once together failed."""
        try:
            return self.transactions.store_together(new_leads)
        except Exception as failure:  # becomes the outcome of the lead, or each is stored alone
            if len(new_leads) == 1:
                return [failure]
            log.warning("storing %d leads together failed; storing each alone", len(new_leads), exc_info=True)
            return [self._store_alone(item) for item in new_leads]

    def _store_alone(self, item: NewLead) -> StoredLead | Exception:
        try:
            return self.transactions.store_one(item)
        except Exception as failure:  # noqa: BLE001 - this lead's own outcome; the caller decides what to say
            return failure


def _settle(settled: list[tuple[asyncio.Future, StoredLead | Exception]]) -> None:
    """On the waiting requests' event loop: hand each its outcome."""
    for answer, outcome in settled:
        if answer.done():  # its request gave up waiting; nobody is listening
            continue
        if isinstance(outcome, Exception):
            answer.set_exception(outcome)
        else:
            answer.set_result(outcome)
