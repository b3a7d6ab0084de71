"""Paying one invoice by hand: the console's "mark paid" records what the invoice still lacks as a
payment received by wire, cheque or otherwise (ledger/payments.py), settles the account's invoices
and lets a hold for an overdue one go, all in the caller's transaction."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from servicematch.kernel.clock import utcnow
from servicematch.ledger.holds import DEFAULT_GRACE_DAYS
from servicematch.ledger.invoice_settling import outstanding_cents
from servicematch.ledger.models import Invoice, LedgerAccount, Payment
from servicematch.ledger.money_in import money_came_in
from servicematch.ledger.payments import record_payment


def pay_invoice(session: Session, invoice: Invoice, *, method: str, note: str, by: str, now: datetime | None = None,
                grace_days: int = DEFAULT_GRACE_DAYS) -> Payment | None:
    """The payment recorded for what the invoice lacks (None when payments already covered it: the
    invoice is settled all the same). Lock the invoice first: two operators at once record one payment."""
    now = now or utcnow()
    account = session.get(LedgerAccount, invoice.account_id, with_for_update=True)
    amount = outstanding_cents(session, invoice)
    payment = None
    if amount > 0:
        payment = record_payment(session, account, amount_cents=amount, method=method, note=note, by=by, now=now,
                                 invoice_id=invoice.id, grace_days=grace_days)
    # Settled only now: a hold for this overdue invoice ends with it.
    money_came_in(session, account, now, grace_days=grace_days)
    return payment
