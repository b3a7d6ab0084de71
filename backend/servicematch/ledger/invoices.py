"""Monthly invoices: one per account and calendar month (UTC), numbered from one gap-free sequence.

An account gets the month's invoice when it had entries in the month or its balance at the month's
end was not zero. The invoice carries the month's entries as lines (each lead's reference, service
and price; returns and credits; payments; adjustments), the opening and closing balance (funds, as
the ledger keeps them: negative is owed), what is due (the negative closing balance, 0 if none) and
when (issued + the account's net days).

Each account's invoice is written in a transaction of its own, and its number is taken in that same
transaction (an UPDATE of the one counter row, which holds the row lock on PostgreSQL and SQLite's
write lock until the commit): a rollback gives the number back, so numbers have no gaps. Issuing a
month again, or two issuers at once, issue nothing twice: an account's invoice is looked for again
once the number is held, and the (account, month) pair is unique.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from servicematch.catalog.loader import CatalogIndex
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.references import shown_reference
from servicematch.ledger.invoice_settling import settle_invoices
from servicematch.ledger.models import (
    EntryKind,
    Invoice,
    InvoiceCounter,
    InvoiceLine,
    InvoiceStatus,
    LedgerAccount,
    LedgerEntry,
)
from servicematch.ledger.statements import entries_between, next_month

__all__ = ["IssuedMonth", "issue_month", "month_bounds", "previous_month", "settle_invoices"]

log = logging.getLogger("servicematch.ledger")

MONTH = re.compile(r"(\d{4})-(\d{2})")
COUNTER_ID = 1
# Where each kind of entry is totalled on the invoice: charges, money in and out, the rest.
CHARGES = {EntryKind.CHARGE}
PAYMENTS = {EntryKind.PAYMENT, EntryKind.PAYMENT_FAILED, EntryKind.DISPUTE, EntryKind.REFUND}
# Entries that concern one lead: their line names the lead's service and state, never its place.
LEAD_LINES = {EntryKind.CHARGE: "{service} lead", EntryKind.RETURN: "Return: {service} lead",
              EntryKind.CREDIT: "Credit: {service} lead"}
UNNAMED_LEAD_LINES = {EntryKind.CHARGE: "Lead", EntryKind.RETURN: "Return: lead", EntryKind.CREDIT: "Credit: lead"}
OTHER_LINES = {EntryKind.PAYMENT: "Payment received", EntryKind.DISPUTE: "Card payment disputed",
               EntryKind.REFUND: "Refund", EntryKind.ADJUSTMENT: "Adjustment", EntryKind.REVERSAL: "Reversal",
               EntryKind.PAYMENT_FAILED: "Card payment failed"}


class MonthError(ValueError):
    """A month that cannot be invoiced: not YYYY-MM, or not over yet."""


@dataclass
class IssuedMonth:
    """What one run over a month did: the invoices it issued (ids, in number order) and how many
    accounts already had theirs."""

    month: str
    issued: list[str] = field(default_factory=list)
    already: int = 0


def month_bounds(month: str) -> tuple[datetime, datetime]:
    """The first moment of "YYYY-MM" (UTC) and of the month after it; MonthError for anything else."""
    found = MONTH.fullmatch(month or "")
    if not found or not 1 <= int(found.group(2)) <= 12 or int(found.group(1)) < 2000:
        raise MonthError(f"{month!r} is not a month: write it as YYYY-MM, like 2026-11.")
    year, number = int(found.group(1)), int(found.group(2))
    start = datetime(year, number, 1, tzinfo=UTC)
    return start, next_month(start)


def previous_month(now: datetime) -> str:
    """"YYYY-MM" of the month before `now`'s (UTC): the month the 1st's run issues."""
    first = now.astimezone(UTC).replace(day=1)
    return f"{first - timedelta(days=1):%Y-%m}"


def issue_month(session_factory: sessionmaker[Session], catalog: CatalogIndex, month: str,
                now: datetime | None = None) -> IssuedMonth:
    """Issue `month`'s invoice to every account that should have one and has none yet."""
    now = now or utcnow()
    start, end = month_bounds(month)
    if end > now:
        raise MonthError(f"{month} is not over yet: a month is invoiced once it has ended.")
    done = IssuedMonth(month=month)
    with session_factory() as session:
        closing = _closing_balances(session, start, end)
        invoiced = set(session.scalars(select(Invoice.account_id).where(Invoice.month == month)))
        # Numbered buyers first, then providers, each by name: a month's numbers read in order.
        accounts = [row for row in session.execute(select(LedgerAccount.id, LedgerAccount.kind, LedgerAccount.name))
                    if row.id in closing]
    order = [row.id for row in sorted(accounts, key=lambda row: (row.kind, row.name.lower(), row.id))]
    for account_id in order:
        if account_id in invoiced:
            done.already += 1
            continue
        with session_factory() as session:
            invoice_id = _issue_one(session, catalog, account_id, month, start, end, closing[account_id], now)
        if invoice_id is None:
            done.already += 1
        else:
            done.issued.append(invoice_id)
    log.info("invoices for %s: %d issued, %d issued before", month, len(done.issued), done.already)
    return done


def _closing_balances(session: Session, start: datetime, end: datetime) -> dict[str, int]:
    """Account id -> its balance at `end`, for each account with entries in [start, end) or a
    balance other than zero at `end`."""
    at_end = dict(session.execute(
        select(LedgerEntry.account_id, func.sum(LedgerEntry.amount_cents)).where(LedgerEntry.created_at < end)
        .group_by(LedgerEntry.account_id)).all())
    active = set(session.scalars(select(LedgerEntry.account_id).where(
        LedgerEntry.created_at >= start, LedgerEntry.created_at < end).distinct()))
    return {account_id: int(total or 0) for account_id, total in at_end.items()
            if account_id in active or int(total or 0) != 0}


def _issue_one(session: Session, catalog: CatalogIndex, account_id: str, month: str, start: datetime,
               end: datetime, closing: int, now: datetime) -> str | None:
    """The account's invoice for the month, committed with its number; None when it has one already."""
    account = session.get(LedgerAccount, account_id)
    entries = entries_between(session, account_id, start, end)
    lines = _lines(session, catalog, entries)
    totals = _totals(entries)
    number = _take_number(session)
    # Held now (the counter's lock): another issuer's invoice for this account, if any, is committed.
    if session.scalar(select(Invoice.id).where(Invoice.account_id == account_id, Invoice.month == month)):
        session.rollback()  # the number goes back
        return None
    due = max(0, -closing)
    invoice = Invoice(number=number, account_id=account_id, month=month, issued_at=now,
                      due_at=now + timedelta(days=account.net_days), opening_cents=closing - sum(totals.values()),
                      charges_cents=totals["charges"], credits_cents=totals["credits"],
                      payments_cents=totals["payments"], closing_cents=closing, due_cents=due,
                      status=InvoiceStatus.OPEN if due else InvoiceStatus.PAID, paid_at=None if due else now)
    try:
        session.add(invoice)
        session.flush()
    except IntegrityError:  # issued a moment ago by an issuer in another process
        session.rollback()
        return None
    if lines:
        session.execute(insert(InvoiceLine), [{**line, "invoice_id": invoice.id} for line in lines])
    if due:
        settle_invoices(session, account, now)  # paid since the month ended
    session.commit()
    return invoice.id


def _take_number(session: Session) -> int:
    """The next invoice number, held by this transaction until it ends."""
    number = session.execute(
        update(InvoiceCounter).where(InvoiceCounter.id == COUNTER_ID)
        .values(last_number=InvoiceCounter.last_number + 1).returning(InvoiceCounter.last_number)
        .execution_options(synchronize_session=False)).scalar()
    if number is not None:
        return int(number)
    try:  # the very first invoice: the counter row is made here
        with session.begin_nested():
            session.add(InvoiceCounter(id=COUNTER_ID, last_number=0))
    except IntegrityError:  # made a moment ago by another issuer
        pass
    return _take_number(session)


def _totals(entries: list[LedgerEntry]) -> dict[str, int]:
    totals = {"charges": 0, "credits": 0, "payments": 0}
    for entry in entries:
        bucket = "charges" if entry.kind in CHARGES else "payments" if entry.kind in PAYMENTS else "credits"
        totals[bucket] += entry.amount_cents
    return totals


def _lines(session: Session, catalog: CatalogIndex, entries: list[LedgerEntry]) -> list[dict]:
    """One line per entry that moved money, as stored: the lead's reference, never its consumer."""
    lead_ids = {entry.lead_id for entry in entries if entry.lead_id}
    references = dict(session.execute(select(Lead.id, Lead.reference).where(Lead.id.in_(lead_ids))).all()) \
        if lead_ids else {}
    lines = []
    for entry in entries:
        if entry.amount_cents == 0:
            continue
        reference = references.get(entry.lead_id) if entry.lead_id else None
        lines.append({"entry_id": entry.id, "kind": entry.kind, "amount_cents": entry.amount_cents,
                      "reference": shown_reference(reference) if reference else None,
                      "description": line_description(catalog, entry), "at": as_utc(entry.created_at)})
    return lines


def line_description(catalog: CatalogIndex, entry: LedgerEntry) -> str:
    """"Heating & AC repair lead, TX"; "Return: Roofing lead, TX"; "Payment by card". A lead's line
    names its service and state only (the entry's own text may carry the city and ZIP)."""
    if entry.kind in LEAD_LINES and entry.lead_id:
        found = catalog.find(entry.service, entry.vertical) if entry.service else None
        name = getattr(found, "name", None) or entry.service
        text = LEAD_LINES[entry.kind].format(service=name) if name else UNNAMED_LEAD_LINES[entry.kind]
        return f"{text}, {entry.state}" if entry.state else text
    return (entry.description or OTHER_LINES.get(entry.kind, entry.kind.capitalize()))[:500]
