"""The delivery worker: claim due deliveries, send them, record each attempt, sleep until woken."""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

import httpx
from sqlalchemy.orm import Session, sessionmaker

from servicematch.delivery import wakeup
from servicematch.delivery.content import PayloadBuilder, intake_payload_builder
from servicematch.delivery.models import Delivery, utcnow
from servicematch.delivery.outbox import Claim, claim_due, complete_attempt
from servicematch.delivery.outcome import Outcome, SendResult
from servicematch.delivery.sending import send_delivery
from servicematch.settings import Settings

log = logging.getLogger("servicematch.delivery")

Clock = Callable[[], datetime]


class DeliveryWorker:
    """One worker; several may run side by side on PostgreSQL, one on SQLite."""

    def __init__(
        self, *, session_factory: sessionmaker[Session], settings: Settings, clock: Clock = utcnow,
        payload_builder: PayloadBuilder = intake_payload_builder,
    ) -> None:
        if settings.delivery_lease_seconds <= settings.delivery_timeout_seconds:
            # A lease shorter than a send would let a second worker send the same lead meanwhile.
            raise ValueError("SERVICEMATCH_DELIVERY_LEASE_SECONDS must exceed "
                             "SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS")
        self.session_factory = session_factory
        self.settings = settings
        self.clock = clock
        self.payload_builder = payload_builder
        self.worker_id = uuid.uuid4().hex[:8]
        self._client = httpx.Client(follow_redirects=False)
        self._pool = ThreadPoolExecutor(max_workers=settings.worker_concurrency,
                                        thread_name_prefix="delivery-send")

    def run_once(self) -> int:
        """Claim what is due now and send it all; returns how many deliveries were attempted."""
        claims = claim_due(session_factory=self.session_factory, now=self.clock(),
                           lease_seconds=self.settings.delivery_lease_seconds,
                           limit=self.settings.worker_concurrency)
        if len(claims) == 1:
            self._process(claims[0])
        else:
            list(self._pool.map(self._process, claims))
        return len(claims)

    def run_until_idle(self, max_rounds: int = 100) -> int:
        """Send until nothing is due at the current clock time; returns the attempt count."""
        total = 0
        for _ in range(max_rounds):
            done = self.run_once()
            if done == 0:
                break
            total += done
        return total

    def run_forever(self, stop: threading.Event) -> None:
        """Loop until `stop` is set, woken by new commits in this process or by the poll interval."""
        wake = wakeup.subscribe()
        try:
            while not stop.is_set():
                wake.clear()
                try:
                    done = self.run_once()
                except Exception:
                    # A database hiccup must not end the worker; the next round tries again.
                    log.exception("delivery round failed")
                    done = 0
                if done == 0:
                    wake.wait(self.settings.worker_poll_seconds)
        finally:
            wakeup.unsubscribe(wake)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self._client.close()

    def _process(self, claim: Claim) -> None:
        attempted_at = self.clock()
        try:
            with self.session_factory() as session:
                delivery = session.get(Delivery, claim.delivery_id)
                result = send_delivery(
                    session=session, delivery=delivery, settings=self.settings, client=self._client,
                    payload_builder=self.payload_builder, timestamp=int(attempted_at.timestamp()),
                )
        except Exception as exc:
            # A bug or bad data while building the message is recorded like any failed attempt.
            log.exception("delivery %s could not be sent", claim.delivery_id)
            result = SendResult(outcome=Outcome.RETRY, target="(not sent)", duration_ms=0,
                                error=f"{type(exc).__name__}: {exc}"[:500])
        status = complete_attempt(session_factory=self.session_factory, claim=claim, result=result,
                                  now=self.clock(), attempted_at=attempted_at, settings=self.settings)
        log.info("delivery %s -> %s (%s)", claim.delivery_id, status or "lease lost",
                 result.status_code or result.error)


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
