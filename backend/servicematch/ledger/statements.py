"""One account's month: the balance before it, its entries oldest first, the balance after it, and
the months that have entries. The portals' statements and the monthly invoices read them here.

A month is a calendar month in UTC. Amounts keep the ledger's sign (the effect on the balance:
charges negative, payments and credits positive); a page that shows what an account owes turns
them round itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.ledger.models import LedgerEntry


def month_start(moment: datetime) -> datetime:
    moment = moment.astimezone(UTC)
    return datetime(moment.year, moment.month, 1, tzinfo=UTC)


def next_month(start: datetime) -> datetime:
    return datetime(start.year + start.month // 12, start.month % 12 + 1, 1, tzinfo=UTC)


def balance_before(session: Session, account_id: str | None, moment: datetime) -> int:
    """The sum of the account's entries made before `moment`, in cents."""
    if account_id is None:
        return 0
    return int(session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount_cents), 0)).where(
        LedgerEntry.account_id == account_id, LedgerEntry.created_at < moment)) or 0)


def entries_between(session: Session, account_id: str | None, start: datetime, end: datetime) -> list[LedgerEntry]:
    """The account's entries made in [start, end), oldest first: the order of a running balance."""
    if account_id is None:
        return []
    return list(session.scalars(select(LedgerEntry).where(
        LedgerEntry.account_id == account_id, LedgerEntry.created_at >= start, LedgerEntry.created_at < end)
        .order_by(LedgerEntry.created_at, LedgerEntry.id)))


def months_with_entries(session: Session, account_id: str | None) -> list[str]:
    """"YYYY-MM" of each month with an entry, newest first; one grouped query, however many entries."""
    if account_id is None:
        return []
    if session.get_bind().dialect.name == "postgresql":
        month = func.to_char(func.timezone("UTC", LedgerEntry.created_at), "YYYY-MM")
    else:  # SQLite keeps the UTC time as text
        month = func.strftime("%Y-%m", LedgerEntry.created_at)
    found = session.scalars(select(month).where(LedgerEntry.account_id == account_id).group_by(month))
    return sorted(found, reverse=True)


@dataclass
class Statement:
    """The entries of [start, end) between the balance before and the balance after them."""

    start: datetime
    end: datetime
    opening_cents: int
    entries: list[LedgerEntry] = field(default_factory=list)

    @property
    def closing_cents(self) -> int:
        return self.opening_cents + sum(entry.amount_cents for entry in self.entries)

    def total(self, *kinds: str) -> int:
        """The sum of the entries of these kinds."""
        return sum(entry.amount_cents for entry in self.entries if entry.kind in kinds)


def month_statement(session: Session, account_id: str | None, start: datetime) -> Statement:
    """The month beginning at `start` (see month_start); an account not made yet has an empty one."""
    end = next_month(start)
    return Statement(start=start, end=end, opening_cents=balance_before(session, account_id, start),
                     entries=entries_between(session, account_id, start, end))
