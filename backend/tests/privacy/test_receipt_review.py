"""The consent receipt of a lead the quality gate held says it is being reviewed and names nobody; one an
operator rejected says it was passed on to nobody; one released and routed names who received it."""

from __future__ import annotations

from held_lead_support import judge
from privacy_support import CONTACT, text_of, wait_for_mail
from sqlalchemy import update

from servicematch.intake.models import QUALITY_REJECTED, QUALITY_RELEASED, Lead, LeadEvent
from servicematch.kernel.clock import utcnow
from servicematch.privacy.messages import NOT_PASSED_ON, UNDER_REVIEW
from servicematch.privacy.wiring import enqueue_receipt


def _receipt_now(app, lead_id: str, status: str | None = None) -> None:
    with app.state.session_factory() as session:
        if status:
            session.execute(update(Lead).where(Lead.id == lead_id).values(quality_status=status))
        enqueue_receipt(session=session, lead=session.get(Lead, lead_id))
        session.commit()


def test_a_held_leads_receipt_says_it_is_being_reviewed_and_names_nobody(app, make_lead, providers, worker,
                                                                        smtp) -> None:
    lead = make_lead()
    judge(app.state.session_factory, lead.id, score=9, reasons=["velocity_phone"])
    _receipt_now(app, lead.id)  # as if routing sent the receipt when it held the lead
    worker.run_until_idle()
    text = text_of(wait_for_mail(smtp, CONTACT["email"])[0]).replace("\r\n", "\n")
    assert "  - nobody yet\n" in text and UNDER_REVIEW in text
    for name in ("Acme Home Quotes LLC", "Cool Air", "Lone Star Heating"):
        assert name not in text
    assert "no provider in your area" not in text and NOT_PASSED_ON not in text


def test_a_rejected_leads_receipt_says_nobody_received_it(app, make_lead, providers, worker, smtp) -> None:
    lead = make_lead()
    judge(app.state.session_factory, lead.id, score=2, reasons=["honeypot"])
    _receipt_now(app, lead.id, QUALITY_REJECTED)
    worker.run_until_idle()
    text = text_of(wait_for_mail(smtp, CONTACT["email"])[0]).replace("\r\n", "\n")
    assert "  - nobody\n" in text and NOT_PASSED_ON in text and UNDER_REVIEW not in text
    assert "Acme Home Quotes LLC" not in text and "Cool Air" not in text


def test_a_released_leads_receipt_names_who_received_it(app, make_lead, providers, worker, smtp) -> None:
    lead = make_lead()
    judge(app.state.session_factory, lead.id, score=25, reasons=["email_role"])
    with app.state.session_factory() as session:
        session.execute(update(Lead).where(Lead.id == lead.id).values(quality_status=QUALITY_RELEASED))
        session.add(LeadEvent(lead_id=lead.id, created_at=utcnow(), attempts=0))
        session.commit()
    worker.run_until_idle()
    text = text_of(wait_for_mail(smtp, CONTACT["email"])[0])
    for name in ("Acme Home Quotes LLC", "Cool Air", "Lone Star Heating"):
        assert f"  - {name}" in text
    assert UNDER_REVIEW not in text and NOT_PASSED_ON not in text
