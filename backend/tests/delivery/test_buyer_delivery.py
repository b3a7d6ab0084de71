"""The lead buyer: signed POSTs of the submission payload, retries, permanent refusals, skips."""

from __future__ import annotations

import itertools
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
from delivery_support import BUYER_SECRET, attempts_of, deliveries_of
from standardwebhooks import WebhookVerificationError
from webhook_checks import verified

from servicematch.delivery.models import DeliveryStatus, TargetKind
from servicematch.delivery.outbox import retry_delivery
from servicematch.kernel.clock import as_utc
from servicematch.outbound.signing import SIGNATURE_HEADER, verify_signature
from servicematch.workers import make_worker


def _buyer_delivery(session_factory, lead_id):
    [delivery] = [d for d in deliveries_of(session_factory, lead_id) if d.kind == TargetKind.BUYER]
    return delivery


def test_a_lead_reaches_the_buyer_signed_with_its_idempotency_key(make_lead, worker, receiver, clock,
                                                                  session_factory):
    lead = make_lead(email="maria.garcia@example.com")
    assert worker.run_until_idle() == 2  # the buyer and the consumer's receipt

    [received] = receiver.wait_for(1)
    delivery = _buyer_delivery(session_factory, lead.id)
    assert received.headers["Idempotency-Key"] == lead.request_id
    assert received.headers["webhook-id"] == delivery.id
    assert received.headers["webhook-timestamp"] == str(int(clock().timestamp()))
    # The buyer's secret is not in whsec_ form: its own bytes are the key (docs/lead-payload.md).
    payload = verified(received, secret=BUYER_SECRET, at=clock())
    assert payload == received.json
    assert set(payload) == {"pid", "sid", "cid", "istest", "requestId", "consumer", "customquestions", "click"}
    assert (payload["pid"], payload["sid"], payload["cid"], payload["istest"]) == (16, 143, 640, "N")
    assert payload["requestId"] == lead.request_id
    assert payload["consumer"]["email"] == "maria.garcia@example.com"
    assert payload["consumer"]["category"] == "HVAC"
    assert payload["customquestions"] == {"cq1": "Replace an existing system"}
    assert payload["click"]["ip"] == "203.0.113.7"

    assert delivery.status == DeliveryStatus.DELIVERED
    [attempt] = attempts_of(session_factory, delivery.id)
    assert (attempt.status_code, attempt.outcome, attempt.target) == (200, "delivered", receiver.url)
    assert attempt.response_body == '{"accepted":true}'


def test_a_tampered_body_wrong_secret_or_old_message_does_not_verify(make_lead, worker, receiver, clock):
    make_lead()
    worker.run_until_idle()
    [received] = receiver.wait_for(1)
    verified(received, secret=BUYER_SECRET, at=clock())
    tampered = replace(received, body=received.body.replace(b"Garcia", b"Garcis"))
    other_id = replace(received, headers={**received.headers, "webhook-id": "another-message"})
    for wrong, secret, at in ((tampered, BUYER_SECRET, clock()), (received, "other", clock()),
                              (other_id, BUYER_SECRET, clock()),
                              (received, BUYER_SECRET, clock() + timedelta(hours=1))):
        with pytest.raises(WebhookVerificationError):
            verified(wrong, secret=secret, at=at)


def test_the_deprecated_signature_header_is_still_sent_and_correct(make_lead, worker, receiver, clock):
    make_lead()
    worker.run_until_idle()
    [received] = receiver.wait_for(1)
    header, now = received.headers[SIGNATURE_HEADER], int(clock().timestamp())
    assert header.startswith(f"t={received.headers['webhook-timestamp']},v1=")
    assert verify_signature(secret=BUYER_SECRET, body=received.body, header=header, now=now)
    assert not verify_signature(secret=BUYER_SECRET, body=received.body + b" ", header=header, now=now)
    assert not verify_signature(secret="other", body=received.body, header=header, now=now)
    assert not verify_signature(secret=BUYER_SECRET, body=received.body, header=header, now=now + 3600)


def test_every_retry_of_a_message_keeps_its_webhook_id_and_is_signed_anew(make_lead, worker, receiver,
                                                                          clock, session_factory):
    lead = make_lead()
    receiver.mode = "fail"
    worker.run_until_idle()
    clock.advance(minutes=1)
    worker.run_until_idle()
    receiver.mode = "ok"
    clock.advance(minutes=5)
    worker.run_until_idle()

    tries = receiver.wait_for(3)
    delivery = _buyer_delivery(session_factory, lead.id)
    assert delivery.status == DeliveryStatus.DELIVERED
    assert [r.headers["webhook-id"] for r in tries] == [delivery.id] * 3
    assert len({r.headers["webhook-timestamp"] for r in tries}) == 3
    assert len({r.body for r in tries}) == 1
    for sent in tries:  # each try verifies at its own time, and only there
        at = datetime.fromtimestamp(int(sent.headers["webhook-timestamp"]), UTC)
        verified(sent, secret=BUYER_SECRET, at=at)
        with pytest.raises(WebhookVerificationError):
            verified(sent, secret=BUYER_SECRET, at=at + timedelta(minutes=6))
    # Another lead's message is another message.
    make_lead()
    worker.run_until_idle()
    assert receiver.wait_for(4)[-1].headers["webhook-id"] != delivery.id


def test_a_receiver_down_for_a_while_gets_each_lead_exactly_once(make_lead, receiver, clock, session_factory,
                                                                 settings):
    # Every delivery retried on its own schedule: the circuit breaker (tested apart) stays out of it.
    patient = settings.model_copy(update={"endpoint_failure_threshold": 1000})
    worker = make_worker(session_factory=session_factory, settings=patient, clock=clock)
    leads = [make_lead() for _ in range(3)]
    receiver.mode = "fail"
    assert worker.run_until_idle() == 3
    receiver.stop()
    for _ in range(3):  # refused connections while it is down, each one a recorded attempt
        clock.advance(hours=1)
        assert worker.run_until_idle() == 3
    receiver.mode = "ok"
    receiver.start()
    clock.advance(hours=4)
    assert worker.run_until_idle() == 3
    clock.advance(hours=4)
    assert worker.run_until_idle() == 0
    worker.close()

    assert sorted(r.json["requestId"] for r in receiver.delivered()) == sorted(l.request_id for l in leads)
    for lead in leads:
        delivery = _buyer_delivery(session_factory, lead.id)
        assert (delivery.status, delivery.attempt_count) == (DeliveryStatus.DELIVERED, 5)
        outcomes = [(a.status_code, a.outcome) for a in attempts_of(session_factory, delivery.id)]
        assert outcomes[0] == (500, "retry") and outcomes[-1] == (200, "delivered")
        assert all(code is None for code, _ in outcomes[1:4])


def test_nothing_is_sent_before_its_retry_time(make_lead, worker, receiver, clock, session_factory):
    lead = make_lead()
    receiver.mode = "fail"
    worker.run_until_idle()
    delivery = _buyer_delivery(session_factory, lead.id)
    due = as_utc(delivery.next_attempt_at)
    assert timedelta(seconds=3) <= due - clock() <= timedelta(seconds=5)

    clock.move_to(due - timedelta(milliseconds=1))
    assert worker.run_until_idle() == 0
    clock.move_to(due)
    assert worker.run_until_idle() == 1


def test_a_permanent_refusal_is_recorded_and_not_retried(make_lead, worker, receiver, clock,
                                                         session_factory):
    lead = make_lead()
    receiver.mode = "reject"
    worker.run_until_idle()
    clock.advance(days=2)
    assert worker.run_until_idle() == 0

    assert len(receiver.requests) == 1
    delivery = _buyer_delivery(session_factory, lead.id)
    assert delivery.status == DeliveryStatus.REJECTED
    [attempt] = attempts_of(session_factory, delivery.id)
    assert (attempt.status_code, attempt.response_body) == (400, '{"error":"zip not served"}')


def test_429_and_timeouts_are_retried(make_lead, receiver, clock, session_factory, settings):
    impatient = settings.model_copy(update={"delivery_timeout_seconds": 1})
    worker = make_worker(session_factory=session_factory, settings=impatient, clock=clock)
    lead = make_lead()
    receiver.mode = "busy"
    worker.run_until_idle()
    receiver.mode = "hang"  # answers nothing; the sender's timeout ends the attempt
    clock.advance(minutes=1)
    worker.run_until_idle()
    receiver.mode = "ok"
    clock.advance(minutes=5)
    worker.run_until_idle()

    worker.close()
    attempts = attempts_of(session_factory, _buyer_delivery(session_factory, lead.id).id)
    assert [a.outcome for a in attempts] == ["retry", "retry", "delivered"]
    assert attempts[0].status_code == 429
    assert "Timeout" in attempts[1].error


def test_retries_last_a_day_then_fail_and_can_be_sent_again(make_lead, worker, receiver, clock,
                                                            session_factory, settings):
    lead = make_lead()
    receiver.mode = "fail"
    started = clock()
    for _ in range(100):
        if worker.run_until_idle() == 0 and _buyer_delivery(session_factory, lead.id).status != "pending":
            break
        clock.move_to(as_utc(_buyer_delivery(session_factory, lead.id).next_attempt_at))
    delivery = _buyer_delivery(session_factory, lead.id)
    assert delivery.status == DeliveryStatus.FAILED
    assert clock() - started >= timedelta(hours=24)
    assert clock() - started < timedelta(hours=24) + timedelta(seconds=settings.retry_max_delay_seconds)
    attempts = attempts_of(session_factory, delivery.id)
    assert len(attempts) == delivery.attempt_count >= 8
    gaps = [as_utc(b.attempted_at) - as_utc(a.attempted_at) for a, b in itertools.pairwise(attempts)]
    assert gaps[0] < timedelta(seconds=10) and max(gaps) <= timedelta(seconds=settings.retry_max_delay_seconds)

    receiver.mode = "ok"
    clock.advance(days=3)
    assert worker.run_until_idle() == 0
    with session_factory() as session:
        retry_delivery(session=session, delivery_id=delivery.id, now=clock())
        session.commit()
    assert worker.run_until_idle() == 1
    assert _buyer_delivery(session_factory, lead.id).status == DeliveryStatus.DELIVERED
    assert len(receiver.delivered()) == 1


def test_do_not_sell_and_duplicate_leads_are_not_sent_to_the_buyer(make_lead, worker, receiver,
                                                                   session_factory):
    opted_out = make_lead(do_not_sell=True)
    first = make_lead(phone="5125550199")
    duplicate = make_lead(phone="5125550199")
    assert duplicate.is_duplicate
    worker.run_until_idle()

    assert [r.json["requestId"] for r in receiver.requests] == [first.request_id]
    for lead, reason in ((opted_out, "Global Privacy Control"), (duplicate, "duplicate")):
        delivery = _buyer_delivery(session_factory, lead.id)
        assert delivery.status == DeliveryStatus.SKIPPED
        assert reason in delivery.last_error
        assert attempts_of(session_factory, delivery.id) == []


def test_without_a_buyer_url_no_buyer_delivery_is_queued(make_lead, session_factory, settings):
    lead = make_lead(with_settings=settings.model_copy(update={"buyer_url": ""}))
    assert deliveries_of(session_factory, lead.id) == []

