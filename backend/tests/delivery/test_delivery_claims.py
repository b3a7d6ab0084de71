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
from servicematch.delivery.claims import Completion, claim_due, complete_attempts
from servicematch.delivery.models import DeliveryStatus, utcnow
from servicematch.delivery.worker import DeliveryWorker
from servicematch.outbound.outcome import Outcome, SendResult
from servicematch.settings import PROJECT_ROOT
from servicematch.workers import make_worker


def _claim(session_factory, settings, now):
    return claim_due(session_factory=session_factory, now=now, settings=settings, limit=10)


def _complete(session_factory, settings, claim, result, now):
    [status] = complete_attempts(session_factory=session_factory, completions=[Completion(claim, result)],
                                 now=now, settings=settings)
    return status


def test_a_claimed_delivery_is_leased_until_its_lease_runs_out(make_lead, session_factory, settings, clock):
    lead = make_lead()
    now, lease = clock(), timedelta(seconds=settings.delivery_lease_seconds)
    [first] = _claim(session_factory, settings, now)
    assert _claim(session_factory, settings, now + lease - timedelta(seconds=1)) == []
    [second] = _claim(session_factory, settings, now + lease + timedelta(seconds=1))
    assert second.delivery_id == first.delivery_id and second.token != first.token

    failed = SendResult(outcome=Outcome.RETRY, target="x", duration_ms=1, status_code=503)
    # A worker whose lease ran out keeps its attempt on record but no longer decides a retry.
    assert _complete(session_factory, settings, first, failed, now) is None
    [delivery] = deliveries_of(session_factory, lead.id)
    assert (delivery.status, delivery.claim_token) == (DeliveryStatus.PENDING, second.token)
    ok = SendResult(outcome=Outcome.DELIVERED, target="x", duration_ms=1, status_code=200)
    assert _complete(session_factory, settings, second, ok, now) == DeliveryStatus.DELIVERED
    assert [a.outcome for a in attempts_of(session_factory, delivery.id)] == ["retry", "delivered"]


def test_a_final_answer_that_comes_after_the_lease_still_settles_the_delivery(make_lead, session_factory,
                                                                              settings, clock):
    # The trickling receiver of issue 11: its 200 came after the lease, and the lead was sent again.
    lead = make_lead()
    now, lease = clock(), timedelta(seconds=settings.delivery_lease_seconds)
    [slow] = _claim(session_factory, settings, now)
    [later] = _claim(session_factory, settings, now + lease + timedelta(seconds=1))
    ok = SendResult(outcome=Outcome.DELIVERED, target="x", duration_ms=40_000, status_code=200)
    assert _complete(session_factory, settings, slow, ok, now + lease) == DeliveryStatus.DELIVERED

    [delivery] = deliveries_of(session_factory, lead.id)
    assert delivery.status == DeliveryStatus.DELIVERED
    assert _claim(session_factory, settings, now + 10 * lease) == []
    # The worker that took over finds the delivery settled and leaves it so.
    failed = SendResult(outcome=Outcome.RETRY, target="x", duration_ms=1, status_code=503)
    assert _complete(session_factory, settings, later, failed, now + lease) is None
    assert deliveries_of(session_factory, lead.id)[0].status == DeliveryStatus.DELIVERED


def test_an_attempt_is_on_record_before_it_is_sent(make_lead, session_factory, settings, clock):
    lead = make_lead()
    [claim] = _claim(session_factory, settings, clock())
    [delivery] = deliveries_of(session_factory, lead.id)
    [attempt] = attempts_of(session_factory, delivery.id)
    assert (attempt.id, attempt.outcome, attempt.target) == (claim.attempt_id, "sending", settings.buyer_url)
    assert delivery.attempt_count == 1


def test_two_workers_never_send_the_same_delivery(make_lead, settings, receiver, database_url):
    leads = [make_lead() for _ in range(40)]
    clock = FakeClock(utcnow() + timedelta(minutes=1))
    engines = [make_engine(database_url) for _ in range(2)]
    workers = [make_worker(session_factory=make_session_factory(engine), settings=settings, clock=clock)
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
    # The send the killed worker made is on record, though its answer never was.
    assert [a.outcome for a in attempts_of(session_factory, delivery.id)] == ["sending"]

    receiver.mode = "ok"
    clock = FakeClock(utcnow())
    survivor = make_worker(session_factory=session_factory, settings=settings, clock=clock)
    try:
        assert survivor.run_until_idle() == 0  # still leased to the dead worker
        clock.advance(seconds=31)
        assert survivor.run_until_idle() == 1
    finally:
        survivor.close()

    [delivery] = deliveries_of(session_factory, lead.id)
    assert (delivery.status, delivery.attempt_count) == (DeliveryStatus.DELIVERED, 2)
    # The receiver saw the lead twice, with one Idempotency-Key, so it can drop the copy; the
    # history has both sends.
    assert [r.headers["Idempotency-Key"] for r in receiver.requests] == [lead.request_id] * 2
    assert [a.outcome for a in attempts_of(session_factory, delivery.id)] == ["unknown", "delivered"]
