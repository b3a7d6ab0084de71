"""A provider's money in the portal: its account's entries as a monthly statement of what it owes.

The ledger keeps each entry's effect on the provider's funds (a charge negative, a credit
positive; ledger/models.py); the portal shows, as it always has, what the provider owes: the
opposite. So a charge reads +45.00, a credit -52.00, and the balance is what is owed (negative
once payments leave the provider in credit). A month is a calendar month in UTC; its statement
opens with the balance of everything before it and closes with that plus the month's entries.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.delivery.models import Provider
from servicematch.errors import ServiceMatchError
from servicematch.inbound import validation
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc
from servicematch.kernel.csv_text import csv_line, dollars
from servicematch.ledger.models import AccountKind, Cause, EntryKind, LedgerAccount, LedgerEntry
from servicematch.ledger.money_in import money_came_in
from servicematch.ledger.postings import accounts_of, post
from servicematch.ledger.statements import month_start, month_statement, months_with_entries
from servicematch.ledger.terms import open_account
from servicematch.portal.models import CreditRequest

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


def provider_account(db: Session, provider_id: str) -> LedgerAccount | None:
    """The provider's account; None before its first entry (a provider made after the ledger came)."""
    return accounts_of(db, AccountKind.PROVIDER, [provider_id]).get(provider_id)


def balance(db: Session, provider_id: str) -> int:
    """What the provider owes now, in cents: its funds' opposite."""
    account = provider_account(db, provider_id)
    return -account.balance_cents if account is not None else 0


def _offer_ids(db: Session, entries: list[LedgerEntry]) -> dict[int, str | None]:
    """Each entry's offer: a charge's own cause, a credit's through its request (one query)."""
    requests = [entry.cause_id for entry in entries if entry.cause == Cause.CREDIT_REQUEST]
    offer_of_request = dict(db.execute(select(CreditRequest.id, CreditRequest.offer_id).where(
        CreditRequest.id.in_(requests))).all()) if requests else {}
    return {entry.id: entry.cause_id if entry.cause == Cause.OFFER else offer_of_request.get(entry.cause_id)
            for entry in entries}


def statement(db: Session, provider_id: str, start: datetime) -> LedgerStatement:
    account = provider_account(db, provider_id)
    account_id = account.id if account is not None else None
    month = month_statement(db, account_id, start)
    offers = _offer_ids(db, month.entries)
    return LedgerStatement(
        month=f"{start:%Y-%m}", months=months_with_entries(db, account_id), openingBalanceCents=-month.opening_cents,
        chargesCents=-month.total(EntryKind.CHARGE), creditsCents=-month.total(EntryKind.CREDIT),
        closingBalanceCents=-month.closing_cents, balanceCents=-account.balance_cents if account is not None else 0,
        entries=[LedgerLine(id=str(e.id), kind=e.kind, amountCents=-e.amount_cents, description=e.description,
                            createdAt=iso(e.created_at), offerId=offers[e.id]) for e in month.entries])


def statement_csv(db: Session, provider_id: str, start: datetime) -> Iterator[str]:
    """The month as CSV: the opening balance, then each entry with the balance after it, in dollars
    owed. Descriptions hold the service and place, never the consumer ("Roofing lead, Austin TX 78701")."""
    account = provider_account(db, provider_id)
    month = month_statement(db, account.id if account is not None else None, start)
    yield csv_line(list(CSV_COLUMNS))
    yield csv_line([date(start.year, start.month, 1).isoformat(), "Opening balance", "", "",
                    dollars(-month.opening_cents)])
    owed = -month.opening_cents
    for entry in month.entries:
        owed -= entry.amount_cents
        yield csv_line([f"{as_utc(entry.created_at):%Y-%m-%d}", entry.description, entry.kind,
                        dollars(-entry.amount_cents), dollars(owed)])


def post_credit(db: Session, row: CreditRequest, *, label: str, now: datetime) -> LedgerEntry:
    """The approved request's credit: its amount back to the provider's account, with the lead's
    service and state for the revenue reports (kept, like the charge, when the lead is erased)."""
    charge = db.scalar(select(LedgerEntry).where(LedgerEntry.cause == Cause.OFFER, LedgerEntry.cause_id == row.offer_id,
                                                 LedgerEntry.kind == EntryKind.CHARGE)) if row.offer_id else None
    lead = db.get(Lead, row.lead_id) if row.lead_id else None
    source = charge or lead
    provider = db.get(Provider, row.provider_id)
    account = open_account(db, AccountKind.PROVIDER, row.provider_id, name=provider.name if provider else "",
                           now=now)
    entry = post(db, account, kind=EntryKind.CREDIT, amount_cents=row.amount_cents, cause=Cause.CREDIT_REQUEST,
                 cause_id=row.id, lead_id=row.lead_id, description=f"Credit: {label.lower()}",
                 vertical=source.vertical if source else None, service=source.service if source else None,
                 state=source.state if source else None, created_by=row.decided_by or "system", now=now)
    money_came_in(db, account, now)
    return entry
