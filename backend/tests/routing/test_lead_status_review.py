"""What the thank-you page is told of a lead the quality gate held: being reviewed, with nobody named and
no e-mail promised; rejected, finished with nobody and its receipt on the way; released, as any other."""

from __future__ import annotations

import uuid

import pytest
from delivery_support import form_submission
from held_lead_support import judge
from sqlalchemy import select, update

from servicematch.intake.models import QUALITY_REJECTED, QUALITY_RELEASED, Lead, LeadEvent
from servicematch.kernel.clock import utcnow
from servicematch.privacy.wiring import enqueue_receipt

BUYER_NAME = "Acme Home Quotes LLC"


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"buyer_name": BUYER_NAME, "ping_timeout_ms": 400})


@pytest.fixture
def accepted(client, app) -> dict:
    """A lead submitted through the site, held by the gate before routing pinged anyone."""
    service = app.state.catalog.find("hvac", "services")
    answer = client.post("/api/submit-form", json=form_submission(
        service, request_id=str(uuid.uuid4()), phone="5125550171")).json()
    with app.state.session_factory() as session:
        lead_id = session.scalar(select(Lead.id).where(Lead.request_id == answer["requestId"]))
    judge(app.state.session_factory, lead_id, score=8, reasons=["honeypot"])
    return {**answer, "id": lead_id}


def _status(client, accepted) -> dict:
    answer = client.get(f"/api/leads/{accepted['requestId']}/status",
                        headers={"X-Status-Token": accepted["statusToken"]})
    assert answer.status_code == 200, answer.text
    return answer.json()


def _decide(app, lead_id: str, status: str) -> None:
    """What the console's release or rejection writes (console/held_leads.py)."""
    with app.state.session_factory() as session:
        session.execute(update(Lead).where(Lead.id == lead_id).values(quality_status=status))
        lead = session.get(Lead, lead_id)
        if status == QUALITY_RELEASED:
            session.add(LeadEvent(lead_id=lead_id, created_at=utcnow(), attempts=0))
        else:
            enqueue_receipt(session=session, lead=lead)
        session.commit()


def test_a_held_lead_is_being_reviewed_names_nobody_and_promises_no_mail(client, accepted, worker, receiver):
    worker.run_until_idle()
    status = _status(client, accepted)
    assert status == {"reference": accepted["reference"], "finished": True, "companies": [], "ratings": [],
                      "recipients": [], "service": "HVAC", "offered": 0, "receiptEmail": False,
                      "review": "reviewing"}
    assert receiver.requests == []  # nobody was sent it


def test_a_rejected_lead_is_finished_with_nobody_and_its_receipt_on_the_way(client, app, accepted, worker,
                                                                            receiver):
    _decide(app, accepted["id"], QUALITY_REJECTED)
    status = _status(client, accepted)
    assert (status["finished"], status["companies"], status["review"], status["receiptEmail"]) == (
        True, [], "declined", True)
    worker.run_until_idle()
    assert receiver.requests == []
    assert _status(client, accepted)["receiptEmail"] is True  # sent


def test_a_released_lead_is_routed_and_told_as_any_other(client, app, accepted, worker, receiver):
    _decide(app, accepted["id"], QUALITY_RELEASED)
    under_way = _status(client, accepted)
    assert (under_way["finished"], under_way["review"], under_way["receiptEmail"]) == (False, "none", True)
    worker.run_until_idle()
    status = _status(client, accepted)
    assert (status["finished"], status["companies"], status["review"]) == (True, [BUYER_NAME], "none")
    assert len(receiver.requests) == 1
