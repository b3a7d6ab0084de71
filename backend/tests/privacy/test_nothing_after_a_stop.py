"""Nothing of a lead's details leaves after its consumer said stop, whatever queues the send:
the worker itself holds the details, and the operator's resend is refused with the reason."""

from __future__ import annotations

import pytest
from privacy_support import deliveries
from sqlalchemy import update

from servicematch.console.deliveries import retry_many
from servicematch.delivery.models import Delivery, DeliveryStatus, TargetKind
from servicematch.intake.models import Lead
from servicematch.privacy.holds import NotSentAgain
from servicematch.privacy.links import sign_link
from servicematch.privacy.models import LeadErasure
from servicematch.reporting.rollup import retry_counted_delivery


def _deliver(worker, clock) -> None:
    worker.run_until_idle()
    clock.advance(seconds=1)


def _lead_posts_seen_by(receiver) -> list:
    """What a receiver got that carries the consumer's details (notices carry a "type")."""
    return [r for r in receiver.requests if "type" not in r.json]


def _queue_again_behind_the_buttons(session_factory, delivery_id: str) -> None:
    """What a resend queued just before the stop, or any other path, leaves in the outbox."""
    with session_factory() as session:
        session.execute(update(Delivery).where(Delivery.id == delivery_id)
                        .values(status=DeliveryStatus.PENDING, completed_at=None, claimed_until=None,
                                claim_token=None))
        session.commit()


def test_a_rejected_post_is_not_resent_after_the_stop(app, client, make_lead, worker, clock, buyer,
                                                     settings) -> None:
    buyer.mode = "reject"
    lead = make_lead()
    _deliver(worker, clock)
    assert len(_lead_posts_seen_by(buyer)) == 1
    (rejected,) = [d for d in deliveries(app.state.session_factory, lead.id, "lead") if d.kind == TargetKind.BUYER]
    assert rejected.status == DeliveryStatus.REJECTED
    buyer.mode = "ok"
    token = sign_link(settings=settings, purpose="stop", lead_id=lead.id)
    assert client.post("/api/privacy/stop", json={"token": token}).status_code == 200

    with app.state.session_factory() as session, pytest.raises(NotSentAgain) as refused:
        retry_counted_delivery(session=session, delivery_id=rejected.id)
    assert refused.value.status_code == 409
    assert refused.value.error == "Not sent again: the consumer withdrew consent (stop link in consent receipt)."
    with app.state.session_factory() as session:
        assert retry_many(session, [rejected.id]) == []
        session.commit()

    _queue_again_behind_the_buttons(app.state.session_factory, rejected.id)
    _deliver(worker, clock)
    assert len(_lead_posts_seen_by(buyer)) == 1, "the details went out again after the stop"
    (held,) = [d for d in deliveries(app.state.session_factory, lead.id, "lead") if d.kind == TargetKind.BUYER]
    assert held.status == DeliveryStatus.REJECTED
    assert held.last_error == "not sent: the consumer withdrew consent (stop link in consent receipt)"
    assert held.attempts[-1].status_code is None  # on record, and nothing was sent


def test_an_erased_or_opted_out_lead_is_held_by_the_worker(app, make_lead, worker, clock, buyer) -> None:
    erased, opted_out = make_lead(), make_lead(email="other@example.com")
    _deliver(worker, clock)
    assert len(_lead_posts_seen_by(buyer)) == 2
    with app.state.session_factory() as session:
        session.add(LeadErasure(lead_id=erased.id, reason="request"))
        session.execute(update(Lead).where(Lead.id == opted_out.id).values(do_not_sell=True))
        session.commit()
    reasons = {}
    for lead in (erased, opted_out):
        (sent,) = [d for d in deliveries(app.state.session_factory, lead.id, "lead") if d.kind == TargetKind.BUYER]
        with app.state.session_factory() as session, pytest.raises(NotSentAgain) as refused:
            session.execute(update(Delivery).where(Delivery.id == sent.id).values(status=DeliveryStatus.FAILED))
            retry_counted_delivery(session=session, delivery_id=sent.id)
        reasons[lead.id] = refused.value.error
        _queue_again_behind_the_buttons(app.state.session_factory, sent.id)
    assert reasons == {erased.id: "Not sent again: the consumer's data was erased.",
                       opted_out.id: "Not sent again: the consumer opted out of sale and sharing."}
    _deliver(worker, clock)
    assert len(_lead_posts_seen_by(buyer)) == 2
    assert {r.json["requestId"] for r in _lead_posts_seen_by(buyer)} == {erased.request_id, opted_out.request_id}
    for lead in (erased, opted_out):
        (held,) = [d for d in deliveries(app.state.session_factory, lead.id, "lead") if d.kind == TargetKind.BUYER]
        assert held.status == DeliveryStatus.REJECTED and held.last_error.startswith("not sent: ")
