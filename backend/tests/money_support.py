"""Leads stored through the public API, and what accepting one leaves behind: an accepted
ProviderOffer and its charge on the provider's ledger account, posted as the offers' accept posts it."""

from __future__ import annotations

from datetime import datetime, timedelta

from fastapi.testclient import TestClient
from lead_payloads import hvac_payload
from sqlalchemy import select

from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.ledger.models import AccountKind, Cause, EntryKind
from servicematch.ledger.postings import account_for, post
from servicematch.routing.models import OfferStatus, ProviderOffer


def store_lead(app, *, phone: str = "5125550142", email: str = "maria.garcia@example.com",
               subid1: str = "abc") -> Lead:
    """A lead sent as the site's form sends it (HVAC in Austin, TX 78701), as stored."""
    body = hvac_payload(app.state.catalog, phone=phone, email=email, subid1=subid1)
    with TestClient(app) as http:
        answer = http.post("/api/submit-form", json=body)
    assert answer.status_code == 202, answer.text
    with app.state.session_factory() as session:
        lead = session.scalar(select(Lead).where(Lead.request_id == body["requestId"]))
        session.expunge(lead)
        return lead


def accept_offer(app, *, lead_id: str, provider_id: str, price_cents: int = 4500,
                 decided_at: datetime | None = None) -> str:
    """An offer of the lead to the provider, accepted at `decided_at` (now), and its charge; the offer's id."""
    decided_at = decided_at or utcnow()
    with app.state.session_factory() as session:
        lead = session.get(Lead, lead_id)
        offer = ProviderOffer(id=new_id(), lead_id=lead_id, provider_id=provider_id, status=OfferStatus.ACCEPTED,
                              price_cents=price_cents, created_at=decided_at - timedelta(minutes=5),
                              expires_at=decided_at + timedelta(hours=2), decided_at=decided_at)
        session.add(offer)
        account = account_for(session, AccountKind.PROVIDER, provider_id, now=decided_at)
        post(session, account, kind=EntryKind.CHARGE, amount_cents=-price_cents, cause=Cause.OFFER, cause_id=offer.id,
             lead_id=lead_id, description=f"HVAC lead, Austin {lead.state} {lead.zip}", vertical=lead.vertical,
             service=lead.service, state=lead.state, now=decided_at)
        session.commit()
        return offer.id


def open_offer(app, *, lead_id: str, provider_id: str, price_cents: int = 4500) -> str:
    """An offer still waiting for the provider's tap."""
    with app.state.session_factory() as session:
        offer = ProviderOffer(id=new_id(), lead_id=lead_id, provider_id=provider_id, price_cents=price_cents,
                              created_at=utcnow(), expires_at=utcnow() + timedelta(hours=2))
        session.add(offer)
        session.commit()
        return offer.id
