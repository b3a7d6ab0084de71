"""The delivery worker: claim what is due as slots free up, send, record each attempt.

One dispatcher thread does all database work in batches (claim, complete); a pool of send
threads only talks to receivers. A round never waits for its sends: a slot is refilled as soon
as its send finishes, and each endpoint may hold at most SERVICEMATCH_ENDPOINT_CONCURRENCY slots,
so a slow receiver delays its own deliveries and nobody else's.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Protocol

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session, joinedload, sessionmaker

from servicematch.delivery.claims import Claim, Completion, claim_due, complete_attempts
from servicematch.delivery.content import PayloadBuilder, intake_payload_builder
from servicematch.delivery.models import Delivery, DeliveryStatus, utcnow
from servicematch.delivery.sending import OtherMessages, RoundLeads, prepare_delivery
from servicematch.intake.models import Lead
from servicematch.kernel import wakeup
from servicematch.kernel.chores import HourlyChore
from servicematch.kernel.logs import about_lead
from servicematch.kernel.metrics import count_delivery_attempt, endpoint_kind
from servicematch.outbound.http_sender import DeliveryClient
from servicematch.outbound.outcome import Outcome, Send, SendResult
from servicematch.settings import Settings

log = logging.getLogger("servicematch.delivery")

Clock = Callable[[], datetime]
# An attempt must end this long before its lease does, so its answer is recorded under the lease.
LEASE_MARGIN_SECONDS = 2.0
# While sends are under way, how often the dispatcher looks again without being woken.
BUSY_WAIT_SECONDS = 0.02
# A finished send wakes the dispatcher only once this share of the slots has finished (or
# nothing else is under way): each round costs two transactions, so under load a round records
# and refills several slots at once instead of one, for at most BUSY_WAIT_SECONDS of delay.
WAKE_SHARE = 0.25
# While work is under way, each round of run_forever starts this long after the last: under load
# posts, answers and new leads come every few milliseconds, and a round's claims, reads and records
# cost about the same for one as for several (at 50 leads a second, the dispatcher's CPU a lead
# fell from 5.1 to 3.6 ms; docs/delivery.md, item 12). A quiet worker starts its round at once.
GATHER_SECONDS = 0.015
# An idle worker waits for a wake-up or its poll, but looks at least this often whether it was told
# to stop: `servicematch worker`'s signal handler can only set the flag, not wake the loop.
STOP_LOOK_SECONDS = 1.0


class LeadRouter(Protocol):
    """What decides who gets each accepted lead (servicematch.routing's RoutingStage): the worker
    starts its auctions each round and hands it the answers of the buyer posts it sent."""

    def start_due(self) -> int:
        """Claim accepted leads and start routing them; how many started."""

    def busy(self) -> bool: ...

    def wait(self) -> None:
        """Until every lead being routed has its outcome committed."""

    def settle(self, delivery_ids: list[str]) -> None:
        """Buyer posts among these deliveries have their answers: sell, or pass the lead on (handed
        over and done on the router's own thread; `busy` and `wait` count it until it is)."""

    def sweep(self) -> None:
        """Settle what a stopped worker left unsettled."""

    def close(self) -> None: ...


@functools.cache
def _claimed_deliveries():
    """Every round's claimed deliveries with what their messages are built from: built once, as each
    round reads it (on first use: its loader options need every model mapped)."""
    return (select(Delivery).where(Delivery.id.in_(bindparam("ids", expanding=True)))
            .options(joinedload(Delivery.lead).joinedload(Lead.consent), joinedload(Delivery.provider),
                     joinedload(Delivery.buyer)))


# Buyer posts go to endpoints named "buyer:<id>" (the fixed buyer's endpoint is plain "buyer").
AUCTION_ENDPOINT_PREFIX = "buyer:"


class DeliveryWorker:
    """One worker; several may run side by side on PostgreSQL, one on SQLite."""

    def __init__(
        self, *, session_factory: sessionmaker[Session], settings: Settings, clock: Clock = utcnow,
        payload_builder: PayloadBuilder = intake_payload_builder, router: LeadRouter | None = None,
        messages: OtherMessages | None = None, chores: Sequence[HourlyChore] = (),
    ) -> None:
        if settings.delivery_lease_seconds <= settings.delivery_timeout_seconds:
            # A lease shorter than a send would let a second worker send the same lead meanwhile.
            raise ValueError("SERVICEMATCH_DELIVERY_LEASE_SECONDS must exceed "
                             "SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS")
        self.session_factory = session_factory
        self.settings = settings
        self.clock = clock
        self.payload_builder = payload_builder
        self.router = router
        # Receipts and privacy notices, and the hourly chores (retention, the dashboard's counts):
        # given by whoever composes the worker (servicematch.workers), which knows those rooms.
        self.messages = messages
        self.chores = list(chores)
        self.worker_id = uuid.uuid4().hex[:8]
        self._client = DeliveryClient(allow_private=settings.private_webhooks_allowed)
        self._pool = ThreadPoolExecutor(max_workers=settings.worker_concurrency,
                                        thread_name_prefix="delivery-send")
        self._lock = threading.Lock()
        self._in_flight: Counter[str] = Counter()
        self._finished: list[Completion] = []
        self._wake_after = max(1, int(settings.worker_concurrency * WAKE_SHARE))
        # Set when a send finishes or (in run_forever) when new deliveries are committed.
        self._changed = threading.Event()

    def dispatch(self, *, look: bool = True) -> int:
        """Record the answers that came in, start routing new leads, then start sends for the free
        slots; returns how many sends started.

        `look=False`: only record answers, and look for new work only if one was recorded (its
        settling may have queued a post). Busy rounds that nothing woke pass it, so a worker under
        way does not query for work every few milliseconds when none can have come."""
        recorded = self._record_finished()
        if not look and not recorded:
            return 0
        if self.router is not None:
            self.router.start_due()
        with self._lock:
            # A send that finished after the answers above were recorded still holds its slot until
            # its answer is: a breaker that its failure would trip must trip before the next claim.
            in_flight = self._in_flight + Counter(done.claim.endpoint for done in self._finished)
        free = self.settings.worker_concurrency - sum(in_flight.values())
        if free <= 0:
            return 0
        claims = claim_due(session_factory=self.session_factory, now=self.clock(), settings=self.settings,
                           limit=free, in_flight=in_flight,
                           endpoint_limit=self.settings.endpoint_concurrency)
        prepared = self._prepare(claims)
        for claim in claims:
            with self._lock:
                self._in_flight[claim.endpoint] += 1
            self._pool.submit(self._send, claim, prepared[claim.delivery_id])
        return len(claims)

    def run_until_idle(self, max_rounds: int = 100_000) -> int:
        """Send until nothing is due at the clock's time and nothing is under way; returns attempts."""
        total = 0
        for _ in range(max_rounds):
            self._changed.clear()
            if self.router is not None:
                # Every auction's outcome committed before this round claims its posts.
                self.router.start_due()
                self.router.wait()
            started = self.dispatch()
            total += started
            if started == 0:
                if self._idle():
                    return total
                self._changed.wait(BUSY_WAIT_SECONDS)
        return total

    def run_forever(self, stop: threading.Event) -> None:
        """Loop until `stop` is set, woken by finished sends, new commits or the poll interval."""
        news = threading.Event()  # set by commits of new work (this process's, or told across)

        def heard() -> None:
            news.set()
            self._changed.set()

        wakeup.deliveries.subscribe(heard)
        looked = 0.0
        try:
            while not stop.is_set():
                if not self._idle():
                    stop.wait(GATHER_SECONDS)
                self._changed.clear()
                if stop.is_set():
                    # Told to stop since the loop's test: the wake-up that came with it was just
                    # cleared, so the wait below would sleep through it.
                    break
                # Look for work when something new was committed, else at the poll interval (retries
                # come due, another process committed without telling this one).
                look = news.is_set() or time.monotonic() - looked >= self.settings.worker_poll_seconds
                if look:
                    news.clear()
                    looked = time.monotonic()
                try:
                    started = self.dispatch(look=look)
                except Exception:
                    # A database hiccup must not end the worker; the next round tries again.
                    log.exception("delivery round failed")
                    started = 0
                # Chores that tell the loop goes round (the heartbeat) are poked every round, busy or not.
                for chore in self.chores:
                    if getattr(chore, "while_busy", False):
                        chore.poke()
                if started == 0:
                    busy = not self._idle()
                    if not busy:
                        # The privacy retention periods (daily) and the dashboard's daily counts.
                        for chore in self.chores:
                            chore.poke()
                        if self.router is not None:
                            self.router.sweep()
                    self._changed.wait(BUSY_WAIT_SECONDS if busy
                                       else min(self.settings.worker_poll_seconds, STOP_LOOK_SECONDS))
        finally:
            wakeup.deliveries.unsubscribe(heard)

    def close(self) -> None:
        """Let the sends under way finish and record them, then release the connections."""
        if self.router is not None:
            self.router.wait()
        self._pool.shutdown(wait=True)
        try:
            self._record_finished()
        finally:
            if self.router is not None:
                self.router.close()
            self._client.close()

    def _idle(self) -> bool:
        if self.router is not None and self.router.busy():
            return False
        with self._lock:
            return not self._finished and sum(self._in_flight.values()) == 0

    def _record_finished(self) -> bool:
        """Record the answers that came in; whether there were any."""
        with self._lock:
            batch, self._finished = self._finished, []
        if not batch:
            return False
        try:
            statuses = complete_attempts(session_factory=self.session_factory, completions=batch,
                                         now=self.clock(), settings=self.settings)
        except Exception:
            with self._lock:  # kept for the next round; the leases still protect the rows
                self._finished = batch + self._finished
            raise
        if self.router is not None:
            posts = [c.claim.delivery_id for c in batch if c.claim.endpoint.startswith(AUCTION_ENDPOINT_PREFIX)]
            if posts:
                self.router.settle(posts)
        for completion, status in zip(batch, statuses):
            result = completion.result
            count_delivery_attempt(endpoint_kind(completion.claim.endpoint),
                                   result.outcome if result.sent else "not_sent")
            # Every attempt is on record in the database; the log speaks up for what needs a look.
            level = logging.DEBUG if status == DeliveryStatus.DELIVERED else logging.INFO
            log.log(level, "delivery %s -> %s (%s)", completion.claim.delivery_id, status or "settled elsewhere",
                    result.status_code or result.error)
        return True

    def _prepare(self, claims: list[Claim]) -> dict[str, SendResult | Send]:
        """Build every claimed message in one session: one query for the round's deliveries, their
        leads with the consent records (the buyer payload's IP), their providers and buyers, and each
        lead's payload decrypted once for all its targets."""
        if not claims:
            return {}
        prepared: dict[str, SendResult | Send] = {}
        timestamp = int(self.clock().timestamp())
        with self.session_factory() as session:
            deliveries = session.scalars(_claimed_deliveries(),
                                         {"ids": [claim.delivery_id for claim in claims]}).unique().all()
            leads = RoundLeads(self.payload_builder, self.settings, session,
                               receipt_leads=[d.lead_id for d in deliveries if d.payload_kind != "lead"],
                               messages=self.messages,
                               lead_ids=[d.lead_id for d in deliveries if d.payload_kind == "lead"])
            for delivery in deliveries:
                with about_lead(delivery.lead.reference if delivery.lead is not None else None):
                    try:
                        prepared[delivery.id] = prepare_delivery(
                            session=session, delivery=delivery, settings=self.settings, client=self._client,
                            leads=leads, timestamp=timestamp)
                    except Exception as exc:
                        # A bug or bad data while building the message is recorded like any failed attempt.
                        log.exception("delivery %s could not be prepared", delivery.id)
                        prepared[delivery.id] = _not_sent(f"{type(exc).__name__}: {exc}"[:500])
        for claim in claims:
            prepared.setdefault(claim.delivery_id, _not_sent("the delivery no longer exists"))
        return prepared

    def _send(self, claim: Claim, prepared: SendResult | Send) -> None:
        try:
            result = prepared if isinstance(prepared, SendResult) else self._attempt(claim, prepared)
        except Exception as exc:
            log.exception("delivery %s could not be sent", claim.delivery_id)
            result = _not_sent(f"{type(exc).__name__}: {exc}"[:500])
        with self._lock:
            self._finished.append(Completion(claim=claim, result=result))
            self._in_flight[claim.endpoint] -= 1
            wake = (len(self._finished) >= self._wake_after
                    or sum(self._in_flight.values()) == 0)
        if wake:
            self._changed.set()

    def _attempt(self, claim: Claim, send: Send) -> SendResult:
        lease_left = (claim.claimed_until - self.clock()).total_seconds() - LEASE_MARGIN_SECONDS
        deadline = min(self.settings.delivery_timeout_seconds, lease_left)
        if deadline <= 0:
            return _not_sent("not sent: too little of the lease was left for a full attempt")
        return send(deadline)


def _not_sent(error: str) -> SendResult:
    return SendResult(outcome=Outcome.RETRY, target="(not sent)", duration_ms=0, sent=False, error=error)


class BackgroundWorker:
    """A worker on a daemon thread: what `servicematch serve` runs unless told not to."""

    def __init__(self, worker: DeliveryWorker) -> None:
        self.worker = worker
        self._stop = threading.Event()
        self._thread = threading.Thread(target=worker.run_forever, args=(self._stop,),
                                        name="delivery-worker", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float | None = None) -> None:
        """Finish the sends under way, then stop."""
        self._stop.set()
        wakeup.notify()
        self._thread.join(timeout)
        self.worker.close()
