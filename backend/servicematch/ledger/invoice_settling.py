"""When an invoice is paid, and paying one by hand.

An invoice's closing balance carries every earlier unpaid amount, so invoices are settled oldest
first, from what the account holds now: an invoice is paid once the balance, leaving out the
charges made after its month ended (those belong to later invoices), is no longer negative. So a
payment, a credit or a return after the month counts towards it, and paying the newest invoice in
full pays every older one too.

Nothing here records money: a payment is recorded by ledger/payments.py (and, against one invoice,
by ledger/invoice_payments.py), which this module does not import, so that module may settle.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import EntryKind, Invoice, InvoiceStatus, LedgerAccount, LedgerEntry
from servicematch.ledger.statements import next_month


def month_end(month: str) -> datetime:
    """The first moment after "YYYY-MM" (UTC)."""
    return next_month(datetime(int(month[:4]), int(month[5:7]), 1, tzinfo=UTC))


def outstanding_cents(session: Session, invoice: Invoice) -> int:
    """What the account still has to pay for this invoice to be paid (0 when it is)."""
    if invoice.status == InvoiceStatus.PAID:
        return 0
    account = session.get(LedgerAccount, invoice.account_id)
    session.refresh(account, ["balance_cents"])
    return max(0, -(account.balance_cents - _charges_since(session, account.id, month_end(invoice.month))))


def settle_invoices(session: Session, account: LedgerAccount, now: datetime | None = None) -> list[Invoice]:
    """Mark the account's open invoices that what it has paid now covers as paid, oldest first,
    in the caller's transaction; the invoices it marked. Call it after a payment, a credit or a return."""
    now = now or utcnow()
    open_invoices = list(session.scalars(select(Invoice).where(
        Invoice.account_id == account.id, Invoice.status == InvoiceStatus.OPEN).order_by(Invoice.month)))
    if not open_invoices:
        return []
    session.flush()
    balance = session.scalar(select(LedgerAccount.balance_cents).where(LedgerAccount.id == account.id))
    settled = []
    for invoice in open_invoices:
        if balance - _charges_since(session, account.id, month_end(invoice.month)) < 0:
            break  # a later invoice carries this one's debt: it is not covered either
        invoice.status, invoice.paid_at = InvoiceStatus.PAID, now
        settled.append(invoice)
    return settled


def invoice_label(number: int) -> str:
    """How people read an invoice's number: INV-000042."""
    return f"INV-{number:06d}"


def _charges_since(session: Session, account_id: str, moment: datetime) -> int:
    """The sum (negative) of the account's charges from `moment` on."""
    return int(session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount_cents), 0)).where(
        LedgerEntry.account_id == account_id, LedgerEntry.kind == EntryKind.CHARGE,
        LedgerEntry.created_at >= moment)) or 0)
