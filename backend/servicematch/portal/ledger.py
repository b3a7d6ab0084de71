"""A provider's money: the ledger's charges and credits, its balance, and the monthly statement.

The balance owed is the sum of every entry (charges positive, credits negative). A month is a
calendar month in UTC; its statement opens with the balance of everything before it, and closes
with the opening balance plus the month's charges plus its credits (a negative sum).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime

from pydantic import BaseModel
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.errors import ServiceMatchError
from servicematch.inbound import validation
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc
from servicematch.kernel.csv_text import csv_line, dollars
from servicematch.portal.models import CreditRequest
from servicematch.routing.models import LedgerEntry, LedgerKind

CSV_COLUMNS = ("date", "description", "kind", "amount", "running balance")


class LedgerLine(BaseModel):
    id: str
    kind: str
    amountCents: int
    description: str
    createdAt: str
    offerId: str | None


class LedgerStatement(BaseModel):
    month: str
    months: list[str]
    openingBalanceCents: int
    chargesCents: int
    creditsCents: int
    closingBalanceCents: int
    balanceCents: int
    entries: list[LedgerLine]


def iso(value: datetime | None) -> str | None:
    value = as_utc(value)
    return value.isoformat(timespec="seconds").replace("+00:00", "Z") if value else None


def month_start(moment: datetime) -> datetime:
    moment = moment.astimezone(UTC)
    return datetime(moment.year, moment.month, 1, tzinfo=UTC)


def next_month(start: datetime) -> datetime:
    return datetime(start.year + start.month // 12, start.month % 12 + 1, 1, tzinfo=UTC)


def parse_month(text: str | None, now: datetime) -> datetime:
    """The first moment of "YYYY-MM" (this month when not given); a 422 naming `month` for anything
    else, a month before 2000 or after next year included (inbound/validation.py)."""
    if not text:
        return month_start(now)
    today = now.astimezone(UTC).date()
    first = validation.parse_month(text, today=today)
    if first is None:
        message = validation.month_message(today=today)
        raise ServiceMatchError(message, fields={"month": message}, status_code=422)
    return datetime(first.year, first.month, 1, tzinfo=UTC)


def _sum(db: Session, *conditions) -> int:
    return int(db.scalar(select(func.coalesce(func.sum(LedgerEntry.amount_cents), 0)).where(*conditions)) or 0)


def balance(db: Session, provider_id: str) -> int:
    """What the provider owes now, in cents."""
    return _sum(db, LedgerEntry.provider_id == provider_id)


def months_with_entries(db: Session, provider_id: str) -> list[str]:
    """"YYYY-MM" of each month with an entry, newest first."""
    moments = db.scalars(select(LedgerEntry.created_at).where(LedgerEntry.provider_id == provider_id))
    return sorted({f"{as_utc(at):%Y-%m}" for at in moments}, reverse=True)


def month_entries(db: Session, provider_id: str, start: datetime) -> list[LedgerEntry]:
    """The month's entries, oldest first: the order of a statement's running balance."""
    return list(db.scalars(select(LedgerEntry).where(
        LedgerEntry.provider_id == provider_id, LedgerEntry.created_at >= start,
        LedgerEntry.created_at < next_month(start)).order_by(LedgerEntry.created_at, LedgerEntry.id)))


def statement(db: Session, provider_id: str, start: datetime) -> LedgerStatement:
    entries = month_entries(db, provider_id, start)
    opening = _sum(db, LedgerEntry.provider_id == provider_id, LedgerEntry.created_at < start)
    charges = sum(e.amount_cents for e in entries if e.kind == LedgerKind.CHARGE)
    credits = sum(e.amount_cents for e in entries if e.kind == LedgerKind.CREDIT)
    return LedgerStatement(
        month=f"{start:%Y-%m}", months=months_with_entries(db, provider_id), openingBalanceCents=opening,
        chargesCents=charges, creditsCents=credits,
        closingBalanceCents=opening + sum(e.amount_cents for e in entries), balanceCents=balance(db, provider_id),
        entries=[LedgerLine(id=e.id, kind=e.kind, amountCents=e.amount_cents, description=e.description,
                            createdAt=iso(e.created_at), offerId=e.offer_id) for e in entries])


def statement_csv(db: Session, provider_id: str, start: datetime) -> Iterator[str]:
    """The month as CSV: the opening balance, then each entry with the balance after it, in dollars.

    Descriptions hold the service and place, never the consumer ("Roofing lead, Austin TX 78701")."""
    opening = _sum(db, LedgerEntry.provider_id == provider_id, LedgerEntry.created_at < start)
    entries = month_entries(db, provider_id, start)
    yield csv_line(list(CSV_COLUMNS))
    yield csv_line([date(start.year, start.month, 1).isoformat(), "Opening balance", "", "", dollars(opening)])
    running = opening
    for entry in entries:
        running += entry.amount_cents
        yield csv_line([f"{as_utc(entry.created_at):%Y-%m-%d}", entry.description, entry.kind,
                        dollars(entry.amount_cents), dollars(running)])


def write_credit(db: Session, row: CreditRequest, *, label: str, now: datetime) -> LedgerEntry:
    """The approved request's credit: minus its amount, with the lead's service and state for the
    revenue reports (kept, like the charge, when the lead is erased)."""
    charge = db.scalar(select(LedgerEntry).where(LedgerEntry.offer_id == row.offer_id,
                                                 LedgerEntry.kind == LedgerKind.CHARGE)) if row.offer_id else None
    lead = db.get(Lead, row.lead_id) if row.lead_id else None
    entry = LedgerEntry(
        provider_id=row.provider_id, kind=LedgerKind.CREDIT, amount_cents=-row.amount_cents, lead_id=row.lead_id,
        offer_id=row.offer_id, credit_request_id=row.id, description=f"Credit: {label.lower()}",
        vertical=charge.vertical if charge else (lead.vertical if lead else None),
        service=charge.service if charge else (lead.service if lead else None),
        state=charge.state if charge else (lead.state if lead else None), created_at=now)
    db.add(entry)
    return entry
