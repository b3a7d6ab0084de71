"""Receivers that trickle, stall, flood or redirect: every attempt ends by its deadline, once."""

from __future__ import annotations

import pytest
from delivery_support import attempts_of, deliveries_of

from servicematch.delivery.models import DeliveryStatus
from servicematch.outbound.outcome import RESPONSE_BODY_LIMIT
from servicematch.workers import make_worker

# The attempt deadline these tests use, and how far past it an attempt may run (thread start-up,
# a shared machine); the trickling receivers below take 20 s or more to finish on their own.
DEADLINE_SECONDS = 1
SLACK_MS = 1500


@pytest.fixture
def impatient(session_factory, settings, clock):
    """A worker with a short attempt deadline and a short lease, as in the issue's reproduction."""
    short = settings.model_copy(update={"delivery_timeout_seconds": DEADLINE_SECONDS,
                                        "delivery_lease_seconds": 5})
    worker = make_worker(session_factory=session_factory, settings=short, clock=clock)
    yield worker
    worker.close()


def _buyer_attempts(session_factory, lead):
    [delivery] = deliveries_of(session_factory, lead.id)
    return delivery, attempts_of(session_factory, delivery.id)


def test_a_trickled_answer_is_cut_off_at_the_deadline_and_the_lead_is_not_sent_again(
        make_lead, impatient, receiver, clock, session_factory):
    receiver.mode = "trickle"  # 200 and its headers at once, then one body byte every 0.5 s
    lead = make_lead()
    assert impatient.run_until_idle() == 1

    delivery, [attempt] = _buyer_attempts(session_factory, lead)
    assert attempt.duration_ms < DEADLINE_SECONDS * 1000 + SLACK_MS
    # The receiver said 200: that is its answer, however slowly the rest of it comes.
    assert (attempt.outcome, attempt.status_code) == ("delivered", 200)
    assert "cut off" in attempt.error
    assert delivery.status == DeliveryStatus.DELIVERED
    clock.advance(hours=1)
    assert impatient.run_until_idle() == 0
    assert len(receiver.requests) == 1


def test_headers_that_trickle_are_cut_off_at_the_deadline_and_retried(make_lead, impatient, receiver,
                                                                      session_factory):
    receiver.mode = "slow-headers"
    lead = make_lead()
    impatient.run_until_idle()

    delivery, [attempt] = _buyer_attempts(session_factory, lead)
    assert attempt.duration_ms < DEADLINE_SECONDS * 1000 + SLACK_MS
    assert attempt.outcome == "retry" and attempt.status_code is None
    assert "Timeout" in attempt.error
    assert (delivery.status, delivery.claim_token) == (DeliveryStatus.PENDING, None)


def test_a_huge_answer_is_read_only_up_to_the_limit(make_lead, worker, receiver, session_factory):
    receiver.mode = "huge"
    lead = make_lead()
    worker.run_until_idle()

    delivery, [attempt] = _buyer_attempts(session_factory, lead)
    assert delivery.status == DeliveryStatus.DELIVERED
    assert len(attempt.response_body) == RESPONSE_BODY_LIMIT
    assert "size limit" in attempt.error


def test_a_redirect_is_a_configuration_failure_and_is_not_retried(make_lead, worker, receiver, clock,
                                                                  session_factory):
    receiver.mode = "redirect"
    lead = make_lead()
    worker.run_until_idle()
    clock.advance(days=2)
    assert worker.run_until_idle() == 0

    delivery, [attempt] = _buyer_attempts(session_factory, lead)
    assert len(receiver.requests) == 1  # not followed, not retried
    assert delivery.status == DeliveryStatus.REJECTED
    assert (attempt.outcome, attempt.status_code) == ("rejected", 302)
    assert "https://elsewhere.example/leads" in attempt.error and "update the receiver's URL" in attempt.error
