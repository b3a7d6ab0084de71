"""Where an accepted lead is committed: a LeadStore, chosen by SERVICEMATCH_LEAD_STORE in create_app.

- `simple`: each lead in a transaction of its own, on a thread of this store's pool.
- `batched` (intake/writer.py): one thread stores the leads that arrive together in one
  transaction (group commit).

Both answer only after the lead's commit, with the stored lead or the earlier one its requestId
names; both refuse a reused requestId with a 409 and turn any other failure, or a commit that
takes longer than `wait_seconds`, into a 503 with Retry-After (the browser's retry carries the
same requestId, so it never stores the lead twice).
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Protocol

from fastapi import Depends

from servicematch.deps import app_part
from servicematch.errors import ServiceMatchError

from .service import LeadTransactions, NewLead, StoredLead

log = logging.getLogger("servicematch.intake")

NOT_SAVED = "We could not save your request just now. Please try again in a moment."
STORE_WAIT_SECONDS = 30.0
# As many leads in flight as the SQLite engine has pooled connections (db/session.py).
SIMPLE_STORE_THREADS = 40


class LeadStore(Protocol):
    transactions: LeadTransactions

    async def store(self, new_lead: NewLead) -> StoredLead:
        """The stored lead (or the earlier one its requestId names); raises the lead's refusal."""
        ...

    def stop(self) -> None:
        """Finish what is under way; called when the app shuts down."""
        ...


def not_saved() -> ServiceMatchError:
    return ServiceMatchError(NOT_SAVED, status_code=503, headers={"Retry-After": "5"})


def as_answer(request_id: str, outcome: StoredLead | Exception) -> StoredLead | ServiceMatchError:
    """A refusal is the client's to hear; any other failure is logged and becomes a 503."""
    if isinstance(outcome, Exception) and not isinstance(outcome, ServiceMatchError):
        log.error("storing lead %s failed", request_id, exc_info=outcome)
        return not_saved()
    return outcome


class SimpleLeadStore:
    """One lead, one transaction: no queue and no batch, the yardstick for the batched store."""

    def __init__(self, transactions: LeadTransactions, *, wait_seconds: float = STORE_WAIT_SECONDS) -> None:
        self.transactions = transactions
        self._wait_seconds = wait_seconds
        # Its own pool: a timed-out wait must not cancel (or hold up) a commit already under way.
        self._pool = ThreadPoolExecutor(max_workers=SIMPLE_STORE_THREADS, thread_name_prefix="lead-store")

    async def store(self, new_lead: NewLead) -> StoredLead:
        request_id = new_lead.lead.request_id
        stored = asyncio.get_running_loop().run_in_executor(self._pool, self.transactions.store_one, new_lead)
        try:
            outcome = await asyncio.wait_for(stored, timeout=self._wait_seconds)
        except TimeoutError:
            log.error("lead %s was not stored within %.0f s", request_id, self._wait_seconds)
            raise not_saved() from None
        except Exception as failure:  # noqa: BLE001 - sorted into refusal or 503 below
            outcome = failure
        answer = as_answer(request_id, outcome)
        if isinstance(answer, Exception):
            raise answer
        return answer

    def stop(self) -> None:
        self._pool.shutdown(wait=True)


# What a route asks for to store leads through the app's writer.
LeadStoreDep = Annotated[LeadStore, Depends(app_part("lead_store"))]
