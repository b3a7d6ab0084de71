"""Leads sold to buyers, written as intake stores a lead and routing records its sale: for the tests
of returns, feedback, conversion and revenue, which start where the auction ended.

    lead_id, sale_id = sold_lead(app, buyer_id, price_cents=3000, days_ago=2)
"""

from __future__ import annotations

import itertools
import uuid
from datetime import datetime, timedelta

from servicematch.intake.checks import CheckedLead
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.models import Lead
from servicematch.intake.service import LeadTransactions, NewLead, build_lead
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.ids import new_id
from servicematch.routing.models import Sale

CONTACT = {"first": "Maria", "last": "Garcia", "email": "", "phone": "", "address1": "500 Congress Ave",
           "address2": "", "city": "Austin", "state": "TX", "zip": "78701"}
_phones = itertools.count(1000)


def store_lead(app, *, email: str = "", phone: str | None = None, service: tuple[str, str] = ("hvac", "services"),
               subid1: str = "", is_test: bool = False) -> Lead:
    """An HVAC lead in Austin, TX (another service when told), stored as intake stores one; a new phone
    each time unless given."""
    checked = CheckedLead(service=app.state.catalog.find(*service), flow="form",
                          contact={**CONTACT, "email": email, "phone": phone or f"512555{next(_phones) % 10000:04d}"},
                          answers={"cq1": "Replace an existing system"})
    settings = app.state.settings
    lead = build_lead(settings=settings, checked=checked, request_id=str(uuid.uuid4()), request_hash=uuid.uuid4().hex,
                      is_test=is_test, click={"subid1": subid1} if subid1 else {}, do_not_sell=False)
    evidence = ConsentEvidence(ip_address="203.0.113.7", user_agent="pytest", page_url="", trustedform_cert_url="",
                               global_privacy_control=False)
    transactions = LeadTransactions(session_factory=app.state.session_factory, settings=settings,
                                    index=app.state.catalog)
    return transactions.store_one(NewLead(lead=lead, evidence=evidence)).lead


def sell(app, lead_id: str, buyer_id: str, *, price_cents: int = 3000, at: datetime | None = None) -> str:
    """The lead's sale to the buyer at `at` (now); a sale in the past moves the lead to a minute
    before it, as an auction sells a lead within seconds. The sale's id."""
    with app.state.session_factory() as session:
        sale = Sale(id=new_id(), lead_id=lead_id, buyer_id=buyer_id, price_cents=price_cents, exclusive=True,
                    created_at=at or utcnow())
        session.add(sale)
        if at is not None:
            lead = session.get(Lead, lead_id)
            lead.created_at = min(as_utc(lead.created_at), at - timedelta(minutes=1))
        session.commit()
        return sale.id


def sold_lead(app, buyer_id: str, *, price_cents: int = 3000, days_ago: float = 0, **lead) -> tuple[str, str]:
    """A new lead (store_lead's options) sold to the buyer `days_ago` days ago: (lead id, sale id)."""
    stored = store_lead(app, **lead)
    at = utcnow() - timedelta(days=days_ago) if days_ago else None
    return stored.id, sell(app, stored.id, buyer_id, price_cents=price_cents, at=at)
