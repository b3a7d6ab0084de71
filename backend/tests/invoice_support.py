"""Accounts with a month of entries, and that month's invoices issued: for the tests of invoices, their
PDF and mail, and the portals' and the console's invoice pages.

March 2025 is the month invoiced, issued on April 1st at 06:00 UTC (a month long over, so the tests
never depend on today's date):

    account_id = ledger_account(app, "buyer", buyer_id, name="Leads Direct")
    lead_id = charge(app, account_id, 3000)        # a stored lead, charged on March 10th
    invoice_id = issue(app).issued[0]
"""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

from sold_leads import store_lead
from sqlalchemy import select

from servicematch.ledger.invoices import IssuedMonth, issue_month
from servicematch.ledger.models import Cause, EntryKind, Invoice, LedgerAccount, Terms
from servicematch.ledger.postings import account_for, post

MONTH = "2025-03"
IN_MONTH = datetime(2025, 3, 10, 12, tzinfo=UTC)
BEFORE_MONTH = datetime(2025, 2, 20, 12, tzinfo=UTC)
AFTER_MONTH = datetime(2025, 4, 2, 12, tzinfo=UTC)
ISSUED = datetime(2025, 4, 1, 6, tzinfo=UTC)
_causes = itertools.count(1)


def ledger_account(app, kind: str, owner_id: str, *, name: str = "Leads Direct LLC", net_days: int = 15,
                   terms: str = Terms.CREDIT) -> str:
    with app.state.session_factory() as session:
        account = account_for(session, kind, owner_id, name=name, terms=terms)
        account.net_days = net_days
        session.commit()
        return account.id


def entry(app, account_id: str, kind: str, cents: int, *, at: datetime = IN_MONTH, lead_id: str | None = None,
          description: str = "", cause: str = Cause.ADJUSTMENT, service: str | None = None,
          vertical: str | None = None, state: str | None = None) -> int:
    """Post one entry (its own cause) at `at`; its id."""
    with app.state.session_factory() as session:
        account = session.get(LedgerAccount, account_id)
        posted = post(session, account, kind=kind, amount_cents=cents, cause=cause, cause_id=f"test-{next(_causes)}",
                      lead_id=lead_id, description=description, service=service, vertical=vertical, state=state,
                      now=at)
        session.commit()
        return posted.id


def charge(app, account_id: str, cents: int, *, at: datetime = IN_MONTH, lead_id: str | None = None) -> str:
    """A new HVAC lead in Austin, TX charged to the account at `at` (its price negative); the lead's id."""
    lead_id = lead_id or store_lead(app).id
    entry(app, account_id, EntryKind.CHARGE, -cents, at=at, lead_id=lead_id, cause=Cause.SALE, service="hvac",
          vertical="services", state="TX", description="Heating & AC repair lead, Austin TX 78701")
    return lead_id


def payment(app, account_id: str, cents: int, *, at: datetime = IN_MONTH) -> int:
    return entry(app, account_id, EntryKind.PAYMENT, cents, at=at, cause=Cause.PAYMENT, description="Payment by wire")


def issue(app, month: str = MONTH, now: datetime = ISSUED) -> IssuedMonth:
    return issue_month(app.state.session_factory, app.state.catalog, month, now)


def invoice_of(app, account_id: str, month: str = MONTH) -> Invoice:
    with app.state.session_factory() as session:
        found = session.scalars(select(Invoice).where(Invoice.account_id == account_id, Invoice.month == month)).one()
        session.expunge(found)
        return found


def days_after_issue(days: float) -> datetime:
    return ISSUED + timedelta(days=days)
