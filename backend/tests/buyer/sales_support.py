"""Leads sold to buyers, for the tests of the leads list, the bids and the live stream.

`sell` writes a minimal lead and its sale straight into the tables, as the worker (another
process) would have left them, for tests about what is listed and how; the lead pages' tests make
sales the real way instead (intake, the auction, a post to a local receiver: test_lead_detail.py).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta

import pytest
from delivery_fixtures import clock, make_lead, worker
from delivery_receivers import HttpReceiver

from servicematch.buyer.models import LeadFeedback, LeadReturn
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.kernel.references import new_reference, shown_reference
from servicematch.routing.models import Sale


@dataclass(frozen=True)
class Sold:
    lead_id: str
    sale_id: str
    reference: str  # as shown: 7K3M-Q9TX
    at: datetime


def sell(app, buyer_id: str, *, service: str = "hvac", vertical: str = "services", state: str | None = "TX",
         zip_code: str | None = "78701", price_cents: int = 3000, exclusive: bool = False,
         at: datetime | None = None, category: str = "HVAC") -> Sold:
    """A lead sold to `buyer_id` at `at` (now by default): its lead row holds no readable personal data."""
    at = at or utcnow()
    reference = new_reference()
    with app.state.session_factory() as session:
        lead = Lead(request_id=str(uuid.uuid4()), reference=reference, request_hash="x" * 64, flow="form",
                    vertical=vertical, service=service, category=category, cid=1, personal_data=b"sealed",
                    state=state, zip=zip_code, created_at=at - timedelta(seconds=2))
        session.add(lead)
        session.flush()
        sale = Sale(lead_id=lead.id, buyer_id=buyer_id, price_cents=price_cents, exclusive=exclusive, created_at=at)
        session.add(sale)
        session.commit()
        return Sold(lead_id=lead.id, sale_id=sale.id, reference=shown_reference(reference), at=at)


def add_return(app, sold: Sold, buyer_id: str, status: str, *, reason: str = "wrong_phone") -> None:
    with app.state.session_factory() as session:
        session.add(LeadReturn(sale_id=sold.sale_id, buyer_id=buyer_id, lead_id=sold.lead_id, reason=reason,
                               status=status, amount_cents=3000, requested_by="tests", created_at=utcnow()))
        session.commit()


def add_feedback(app, sold: Sold, buyer_id: str, status: str, *, at: datetime | None = None,
                 reason: str | None = None) -> None:
    with app.state.session_factory() as session:
        session.add(LeadFeedback(sale_id=sold.sale_id, buyer_id=buyer_id, lead_id=sold.lead_id, status=status,
                                 reason=reason, source="api", given_by="key:integration", created_at=at or utcnow()))
        session.commit()


@pytest.fixture
def post_receiver():
    """A buyer's post URL on this machine: answers 200 {"accepted":true} (set `.mode` for others)."""
    server = HttpReceiver().start()
    yield server
    server.stop()


__all__ = ["clock", "make_lead", "worker"]
