"""The console's money in tests: ledger accounts with entries at any moment,
invoices, and sales charged as routing charges them.

    account_id = make_account(app, AccountKind.BUYER, name="Acme Leads")
    entry_id = add_entry(app, account_id, EntryKind.PAYMENT, 5_000, at=utcnow() - timedelta(days=2))
"""

from __future__ import annotations

import itertools
import uuid
from datetime import datetime

from sqlalchemy import select

from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    Invoice,
    InvoiceStatus,
    LedgerAccount,
)
from servicematch.ledger.postings import account_for, post
from servicematch.routing.models import Sale

# The cause an entry of each kind has in these tests (a reversal's is the entry it undoes).
CAUSES = {EntryKind.CHARGE: Cause.SALE, EntryKind.CREDIT: Cause.CREDIT_REQUEST, EntryKind.RETURN: Cause.RETURN,
          EntryKind.PAYMENT: Cause.PAYMENT, EntryKind.PAYMENT_FAILED: Cause.PAYMENT, EntryKind.DISPUTE: Cause.PAYMENT,
          EntryKind.REFUND: Cause.PAYMENT, EntryKind.ADJUSTMENT: Cause.ADJUSTMENT}
_numbers = itertools.count(1)


def make_account(app, kind: str = AccountKind.BUYER, *, name: str = "", owner_id: str | None = None,
                 **values) -> str:
    """A ledger account (of `owner_id`, else of an owner no table knows), with `values` set; its id."""
    with app.state.session_factory() as session:
        account = account_for(session, kind, owner_id or str(uuid.uuid4()), name=name or f"{kind} {uuid.uuid4()}")
        for column, value in values.items():
            setattr(account, column, value)
        session.commit()
        return account.id


def add_entry(app, account_id: str, kind: str, cents: int, *, at: datetime | None = None,
              lead_id: str | None = None) -> int:
    """An entry of `kind` moving the balance by `cents`, made at `at` (now); its id."""
    with app.state.session_factory() as session:
        entry = post(session, session.get(LedgerAccount, account_id), kind=kind, amount_cents=cents,
                     cause=CAUSES[kind], cause_id=str(uuid.uuid4()), lead_id=lead_id, description=kind,
                     now=at or utcnow())
        session.commit()
        return entry.id


def add_invoice(app, account_id: str, month: str, *, due_at: datetime, due_cents: int,
                status: str = InvoiceStatus.OPEN) -> str:
    """An invoice of the account for `month`, stating `due_cents` due at `due_at`; its id."""
    with app.state.session_factory() as session:
        invoice = Invoice(number=next(_numbers), account_id=account_id,
                          month=month, issued_at=due_at, due_at=due_at, opening_cents=0, charges_cents=-due_cents,
                          credits_cents=0, payments_cents=0, closing_cents=-due_cents, due_cents=due_cents,
                          status=status)
        session.add(invoice)
        session.commit()
        return invoice.id


def charge_sale(app, sale_id: str) -> int:
    """The sale's charge on its buyer's account, as routing posts it with the sale; its entry's id."""
    with app.state.session_factory() as session:
        sale = session.get(Sale, sale_id)
        lead = session.get(Lead, sale.lead_id)
        account = account_for(session, AccountKind.BUYER, sale.buyer_id)
        entry = post(session, account, kind=EntryKind.CHARGE, amount_cents=-sale.price_cents, cause=Cause.SALE,
                     cause_id=sale.id, lead_id=lead.id, description="Lead", vertical=lead.vertical,
                     service=lead.service, state=lead.state, now=sale.created_at)
        session.commit()
        return entry.id


def account_of(app, kind: str, owner_id: str) -> str:
    with app.state.session_factory() as session:
        return session.scalar(select(LedgerAccount.id).where(LedgerAccount.kind == kind,
                                                             LedgerAccount.owner_id == owner_id))
