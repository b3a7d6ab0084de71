"""GET /api/console/money: what the accounts owe and how late, the cash received per day, and the
ledger's last reconciliation; every figure read from the ledger, to the cent.

Owed is the sum of the negative balances (an account's balance is its funds: charges take from it).
What of it is overdue comes from the open invoices past their due date, as ledger/invoice_settling.py
settles them: an invoice states what its account owed at the end of its month, and it is still
unpaid by what the account owes now leaving out the charges made since (those belong to later
invoices). So a payment, a credit or a return after the month pays the oldest debt first, and what
an older invoice still lacks counts in that invoice's age, the rest of a newer one's in the newer
one's. Before any invoice exists, nothing is overdue and everything owed is current.

Cash is money that moved (console/money_kinds.py): payments in, refunds and disputes out, by the
day they were entered (UTC).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from servicematch.console.dashboard import DateRange
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.money_kinds import CASH_KINDS, of_kinds
from servicematch.console.paging import day_of, day_start, iso
from servicematch.console.shapes import Shape
from servicematch.kernel.clock import as_utc
from servicematch.ledger.invoice_settling import month_end
from servicematch.ledger.models import (
    EntryKind,
    Invoice,
    InvoiceStatus,
    LedgerAccount,
    LedgerCheck,
    LedgerEntry,
)

# How late an overdue amount is, in whole days after its invoice's due date.
AGES = (("overdue1to30", 30), ("overdue31to60", 60), ("overdueOver60", None))
# A check's problems shown with its result; `problemCount` says how many there were.
PROBLEMS_SHOWN = 20


def dollars(cents: int | None) -> float | None:
    return None if cents is None else round(cents / 100, 2)


class Receivables(Shape):
    """Dollars, now."""

    owed: float  # the negative balances, all together
    current: float  # owed and not overdue: not invoiced yet, or not due yet
    overdue1to30: float
    overdue31to60: float
    overdueOver60: float
    accountsOwing: int
    accountsOverdue: int
    # What the accounts hold: their positive balances (prepaid funds, credits not spent yet).
    funds: float


class CashDay(Shape):
    day: str
    received: float  # payments (and refunds or disputes reversed)
    paidOut: float  # refunds and disputes (and payments reversed), as a positive amount
    net: float


class Cash(Shape):
    received: float
    paidOut: float
    net: float
    perDay: list[CashDay]


class LastCheck(Shape):
    """The last finished run of `servicematch ledger check`."""

    id: int
    startedAt: str
    finishedAt: str
    ok: bool
    accounts: int
    entries: int
    problems: list[str]  # the first PROBLEMS_SHOWN of those it recorded, in words
    problemCount: int


class MoneySummary(Shape):
    range: DateRange  # the days of `cash`
    receivables: Receivables
    cash: Cash
    lastCheck: LastCheck | None


@dataclass(frozen=True)
class OpenInvoice:
    account_id: str
    month: str
    due_on: date


def _month_of(session: Session, column):
    """"YYYY-MM" of a timestamp (UTC), on either database."""
    if session.bind.dialect.name == "postgresql":
        return func.to_char(func.timezone("UTC", column), "YYYY-MM")
    return func.strftime("%Y-%m", column)


def _age(days_late: int) -> str:
    return next(name for name, most in AGES if most is None or days_late <= most)


def overdue_by_account(session: Session, today: date, account_ids: list[str] | None = None) -> dict[str, Counter]:
    """Overdue cents by age (AGES' names) of each owing account with an open invoice past due; all
    such accounts, or those of `account_ids`."""
    # A due date is the last day to pay: an invoice is late from the day after.
    query = (select(Invoice.account_id, Invoice.month, Invoice.due_at, LedgerAccount.balance_cents)
             .join(LedgerAccount, LedgerAccount.id == Invoice.account_id)
             .where(Invoice.status == InvoiceStatus.OPEN, Invoice.due_at < day_start(today), Invoice.due_cents > 0,
                    LedgerAccount.balance_cents < 0))
    if account_ids is not None:
        query = query.where(Invoice.account_id.in_(account_ids))
    invoices: dict[str, list[OpenInvoice]] = {}
    balances: dict[str, int] = {}
    for account_id, month, due_at, balance in session.execute(query):
        invoices.setdefault(account_id, []).append(OpenInvoice(account_id, month, as_utc(due_at).date()))
        balances[account_id] = balance
    charged = _charged_by_month(session, invoices)
    return {account_id: _aged(sorted(rows, key=lambda row: (row.month, row.due_on)), balances[account_id],
                              charged.get(account_id, {}), today)
            for account_id, rows in invoices.items()}


def _charged_by_month(session: Session, invoices: dict[str, list[OpenInvoice]]) -> dict[str, dict[str, int]]:
    """Each account's charges (negative cents) by month, from the end of its oldest invoice's month."""
    if not invoices:
        return {}
    month = _month_of(session, LedgerEntry.created_at)
    rows = session.execute(
        select(LedgerEntry.account_id, month, func.sum(LedgerEntry.amount_cents))
        .where(LedgerEntry.account_id.in_(list(invoices)), LedgerEntry.kind == EntryKind.CHARGE,
               LedgerEntry.created_at >= min(month_end(row.month) for rows in invoices.values() for row in rows))
        .group_by(LedgerEntry.account_id, month))
    charged: dict[str, dict[str, int]] = {}
    for account_id, of_month, cents in rows:
        charged.setdefault(account_id, {})[of_month] = int(cents)
    return charged


def _aged(rows: list[OpenInvoice], balance: int, charged: dict[str, int], today: date) -> Counter:
    """Oldest invoice first: what each still lacks beyond what an older one lacks is of its age."""
    ages: Counter = Counter()
    counted = 0
    for row in rows:
        later = sum(cents for month, cents in charged.items() if month > row.month)
        unpaid = max(0, later - balance)
        if unpaid > counted:
            ages[_age((today - row.due_on).days)] += unpaid - counted
            counted = unpaid
    return ages


def receivables(session: Session, today: date) -> dict:
    owed, funds, owing = session.execute(select(
        func.coalesce(func.sum(case((LedgerAccount.balance_cents < 0, -LedgerAccount.balance_cents), else_=0)), 0),
        func.coalesce(func.sum(case((LedgerAccount.balance_cents > 0, LedgerAccount.balance_cents), else_=0)), 0),
        func.coalesce(func.sum(case((LedgerAccount.balance_cents < 0, 1), else_=0)), 0),
    )).one()
    overdue = overdue_by_account(session, today)
    ages: Counter = sum(overdue.values(), Counter())
    late = sum(ages.values())
    return {"owed": dollars(int(owed)), "current": dollars(int(owed) - late),
            **{name: dollars(ages[name]) for name, _most in AGES},
            "accountsOwing": int(owing), "accountsOverdue": sum(1 for ages_of in overdue.values() if ages_of),
            "funds": dollars(int(funds))}


def cash(session: Session, filters: DashboardFilters) -> dict:
    """Money in and out per day of the range, by the day each entry was made."""
    day = day_of(session, LedgerEntry.created_at)
    rows = session.execute(
        select(day, func.sum(case((LedgerEntry.amount_cents > 0, LedgerEntry.amount_cents), else_=0)),
               func.sum(case((LedgerEntry.amount_cents < 0, -LedgerEntry.amount_cents), else_=0)))
        .where(LedgerEntry.kind.in_((*CASH_KINDS, EntryKind.REVERSAL)), LedgerEntry.created_at >= filters.since,
               LedgerEntry.created_at < filters.until, of_kinds(CASH_KINDS))
        .group_by(day))
    # PostgreSQL gives a day as a date, SQLite's date() as text: one key for both.
    moved = {str(key)[:10]: (int(received), int(paid_out)) for key, received, paid_out in rows}
    days = [(filters.start + timedelta(days=n)).isoformat() for n in range((filters.end - filters.start).days + 1)]
    per_day = [(day, *moved.get(day, (0, 0))) for day in days]
    received, paid_out = sum(row[1] for row in per_day), sum(row[2] for row in per_day)
    return {"received": dollars(received), "paidOut": dollars(paid_out), "net": dollars(received - paid_out),
            "perDay": [{"day": day, "received": dollars(got), "paidOut": dollars(out), "net": dollars(got - out)}
                       for day, got, out in per_day]}


def last_check(session: Session) -> dict | None:
    check = session.scalars(select(LedgerCheck).where(LedgerCheck.finished_at.is_not(None))
                            .order_by(LedgerCheck.id.desc()).limit(1)).first()
    if check is None:
        return None
    problems = [problem if isinstance(problem, str) else str(problem) for problem in check.problems or []]
    return {"id": check.id, "startedAt": iso(check.started_at), "finishedAt": iso(check.finished_at),
            "ok": check.ok, "accounts": check.accounts, "entries": int(check.entries),
            "problems": problems[:PROBLEMS_SHOWN], "problemCount": len(problems)}


def money_summary(session: Session, filters: DashboardFilters, today: date) -> dict:
    return {"range": {"from": filters.start.isoformat(), "to": filters.end.isoformat()},
            "receivables": receivables(session, today), "cash": cash(session, filters),
            "lastCheck": last_check(session)}

