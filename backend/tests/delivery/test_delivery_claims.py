"""Claims and leases: no delivery is sent by two workers at once, and none is lost to a crash."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from delivery_support import FakeClock, attempts_of, deliveries_of

from servicematch.db.session import make_engine, make_session_factory
from servicematch.delivery.models import DeliveryStatus, utcnow
from servicematch.delivery.outbox import claim_due, complete_attempt
from servicematch.delivery.outcome import Outcome, SendResult
from servicematch.delivery.worker import DeliveryWorker
from servicematch.settings import PROJECT_ROOT


def test_a_claimed_delivery_is_leased_until_its_lease_runs_out(make_lead, session_factory, settings, clock):
    lead = make_lead()
    now = clock()
    [first] = claim_due(session_factory=session_factory, now=now, lease_seconds=30, limit=10)
    assert claim_due(session_factory=session_factory, now=now + timedelta(seconds=29), lease_seconds=30,
                     limit=10) == []
    [second] = claim_due(session_factory=session_factory, now=now + timedelta(seconds=31), lease_seconds=30,
                         limit=10)
    assert second.delivery_id == first.delivery_id and second.token != first.token

    ok = SendResult(outcome=Outcome.DELIVERED, target="x", duration_ms=1, status_code=200)
    # The worker whose lease ran out keeps its attempt on record but no longer decides the state.
    assert complete_attempt(session_factory=session_factory, claim=first, result=ok, now=now,
                            attempted_at=now, settings=settings) is None
    [delivery] = deliveries_of(session_factory, lead.id)
    assert (delivery.status, delivery.claim_token) == (DeliveryStatus.PENDING, second.token)
    assert complete_attempt(session_factory=session_factory, claim=second, result=ok, now=now,
                            attempted_at=now, settings=settings) == DeliveryStatus.DELIVERED
    assert len(attempts_of(session_factory, delivery.id)) == 2


def test_two_workers_never_send_the_same_delivery(make_lead, settings, receiver, database_url):
    leads = [make_lead() for _ in range(40)]
    clock = FakeClock(utcnow() + timedelta(minutes=1))
    engines = [make_engine(database_url) for _ in range(2)]
    workers = [DeliveryWorker(session_factory=make_session_factory(engine), settings=settings, clock=clock)
               for engine in engines]
    start = threading.Barrier(len(workers))

    def run(worker: DeliveryWorker) -> int:
        start.wait()
        return worker.run_until_idle()

    with ThreadPoolExecutor(max_workers=len(workers)) as pool:
        # result() re-raises anything a worker thread raised.
        counts = [future.result() for future in [pool.submit(run, worker) for worker in workers]]
    for worker, engine in zip(workers, engines):
        worker.close()
        engine.dispose()

    sent = [r.headers["Idempotency-Key"] for r in receiver.requests]
    assert sorted(sent) == sorted(lead.request_id for lead in leads)  # each exactly once
    assert sum(counts) == 40


def test_a_worker_killed_mid_send_loses_nothing(make_lead, settings, receiver, session_factory, database_url):
    lead = make_lead()
    receiver.mode = "hang"
    env = {**os.environ, "SERVICEMATCH_DATABASE_URL": database_url, "SERVICEMATCH_ENVIRONMENT": "test",
           "SERVICEMATCH_DATA_KEY": settings.data_key, "SERVICEMATCH_BUYER_URL": receiver.url,
           "SERVICEMATCH_BUYER_SECRET": settings.buyer_secret, "SERVICEMATCH_SMTP_HOST": "",
           "SERVICEMATCH_DELIVERY_LEASE_SECONDS": "30", "SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS": "25"}
    process = subprocess.Popen([sys.executable, "-m", "servicematch.cli", "worker"], cwd=PROJECT_ROOT,
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        receiver.wait_for(1, timeout=60)  # the worker is now inside its send
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait()

    [delivery] = deliveries_of(session_factory, lead.id)
    assert delivery.status == DeliveryStatus.PENDING and delivery.claim_token is not None
    assert attempts_of(session_factory, delivery.id) == []

    receiver.mode = "ok"
    clock = FakeClock(utcnow())
    survivor = DeliveryWorker(session_factory=session_factory, settings=settings, clock=clock)
    try:
        assert survivor.run_until_idle() == 0  # still leased to the dead worker
        clock.advance(seconds=31)
        assert survivor.run_until_idle() == 1
    finally:
        survivor.close()

    [delivery] = deliveries_of(session_factory, lead.id)
    assert (delivery.status, delivery.attempt_count) == (DeliveryStatus.DELIVERED, 1)
    # The receiver saw the lead twice, with one Idempotency-Key, so it can drop the copy.
    assert [r.headers["Idempotency-Key"] for r in receiver.requests] == [lead.request_id] * 2
