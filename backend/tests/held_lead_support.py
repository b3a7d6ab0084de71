"""Leads held by the quality gate, planted as routing holds them: stored through the public API, then
given a score, reasons and the held verdict, their "lead accepted" event marked done (nobody pinged).
Shared by the console's review tests, the thank-you page's status tests and the browser test."""

from __future__ import annotations

from lead_payloads import hvac_payload
from sqlalchemy import select, update

from servicematch.intake.models import QUALITY_HELD, Lead, LeadEvent
from servicematch.kernel.clock import utcnow

REASONS = ["phone_area_state", "email_disposable"]


def submit(client, index, *, phone: str, subid1: str = "abc", email: str = "maria.garcia@example.com") -> Lead:
    """A lead stored through POST /api/submit-form; its row as stored."""
    answer = client.post("/api/submit-form", json=hvac_payload(index, phone=phone, subid1=subid1, email=email))
    assert answer.status_code == 202, answer.text
    with client.app.state.session_factory() as session:
        return session.scalars(select(Lead).where(Lead.request_id == answer.json()["requestId"])).one()


def judge(session_factory, lead_id: str, *, status: str | None = QUALITY_HELD, score: int | None = 12,
          reasons: list[str] | None = None) -> None:
    """What routing writes when the gate has judged the lead; held or not, its event is done."""
    with session_factory() as session:
        session.execute(update(Lead).where(Lead.id == lead_id).values(
            quality_status=status, quality_score=score,
            quality_reasons=list(REASONS if reasons is None else reasons)))
        session.execute(update(LeadEvent).where(LeadEvent.lead_id == lead_id, LeadEvent.done_at.is_(None))
                        .values(done_at=utcnow()))
        session.commit()


def held_lead(client, index, *, phone: str, subid1: str = "abc", score: int = 12,
              reasons: list[str] | None = None) -> Lead:
    lead = submit(client, index, phone=phone, subid1=subid1)
    judge(client.app.state.session_factory, lead.id, score=score, reasons=reasons)
    return lead


def pending_events(session_factory, lead_id: str) -> list[LeadEvent]:
    with session_factory() as session:
        return list(session.scalars(select(LeadEvent).where(LeadEvent.lead_id == lead_id,
                                                            LeadEvent.done_at.is_(None))))
