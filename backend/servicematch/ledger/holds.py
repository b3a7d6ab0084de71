"""Holds: an account that is not receiving leads, why, and since when.

An account is held for FUNDS when routing skips it because its balance (and credit) cannot cover a
price, and for OVERDUE when an invoice of its is past due by more than the grace days (the holds
chore, ledger/hold_notices.py). An overdue invoice outranks funds: paying it is the first thing to
do. Each hold is told once (hold_notified_at) by e-mail, and shown in the portal while it lasts.

A FUNDS hold ends when routing finds the account able to pay again, or when a payment lifts what
it may spend above zero (`release_if_able`, called after a payment); an OVERDUE hold ends when no
invoice is past due beyond the grace days. The chore never ends a FUNDS hold by itself: it does not
know the next price, and releasing an account that still cannot pay would only tell it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.ledger.models import HoldReason, Invoice, InvoiceStatus, LedgerAccount, Terms
from servicematch.ledger.postings import available_cents
from servicematch.ledger.terms import dollars

# SERVICEMATCH_OVERDUE_GRACE_DAYS's default, for callers without the settings at hand.
DEFAULT_GRACE_DAYS = 7


def hold(session: Session, account: LedgerAccount, reason: str, now: datetime) -> None:
    """Hold the account for `reason` from now, unless it is held for it already (or held for an
    overdue invoice, which outranks funds). A new hold is told anew."""
    if account.hold_reason == reason or (account.hold_reason == HoldReason.OVERDUE and reason == HoldReason.FUNDS):
        return
    account.hold_reason, account.held_since, account.hold_notified_at = reason, now, None
    account.updated_at = now


def release(session: Session, account: LedgerAccount, now: datetime) -> None:
    """The account receives leads again."""
    if account.hold_reason is None:
        return
    account.hold_reason, account.held_since, account.hold_notified_at = None, None, None
    account.updated_at = now


def release_if_able(session: Session, account: LedgerAccount, now: datetime, *,
                    grace_days: int = DEFAULT_GRACE_DAYS) -> bool:
    """Release the account if what held it has passed (call it after a payment, with the settings'
    overdue_grace_days); whether it is free now."""
    if account.hold_reason == HoldReason.OVERDUE:
        if overdue_invoices(session, [account.id], now, grace_days):
            return False
    elif account.hold_reason == HoldReason.FUNDS:
        available = available_cents(account)
        if available is not None and available <= 0:
            return False
    release(session, account, now)
    return True


def overdue_invoices(session: Session, account_ids: list[str] | None, now: datetime,
                     grace_days: int) -> dict[str, list[Invoice]]:
    """Open invoices due more than `grace_days` ago, oldest first, by account (all accounts: None)."""
    query = select(Invoice).where(Invoice.status == InvoiceStatus.OPEN,
                                  Invoice.due_at < now - timedelta(days=grace_days))
    if account_ids is not None:
        if not account_ids:
            return {}
        query = query.where(Invoice.account_id.in_(account_ids))
    found: dict[str, list[Invoice]] = {}
    for invoice in session.scalars(query.order_by(Invoice.due_at, Invoice.number)):
        found.setdefault(invoice.account_id, []).append(invoice)
    return found


def pause_overdue(session: Session, now: datetime, grace_days: int) -> tuple[int, int]:
    """Hold every account with an invoice past due beyond the grace days, and release those held
    for one that no longer have any; (held, released), in the caller's transaction."""
    overdue = overdue_invoices(session, None, now, grace_days)
    held = released = 0
    if overdue:
        for account in session.scalars(select(LedgerAccount).where(LedgerAccount.id.in_(sorted(overdue)))
                                       .order_by(LedgerAccount.id)):
            if account.hold_reason != HoldReason.OVERDUE:
                hold(session, account, HoldReason.OVERDUE, now)
                held += 1
    for account in session.scalars(select(LedgerAccount).where(LedgerAccount.hold_reason == HoldReason.OVERDUE)
                                   .order_by(LedgerAccount.id)):
        if account.id not in overdue:
            release(session, account, now)
            released += 1
    return held, released


@dataclass(frozen=True)
class HoldWords:
    """Why an account is not receiving leads, and what to do: the notice's and the banner's words."""

    why: str
    what: str


def hold_words(session: Session, account: LedgerAccount, now: datetime, *,
               grace_days: int = DEFAULT_GRACE_DAYS) -> HoldWords | None:
    """The words for the account's hold, or None when it is not held."""
    if account.hold_reason == HoldReason.OVERDUE:
        invoices = overdue_invoices(session, [account.id], now, grace_days).get(account.id, [])
        if invoices:
            numbers = ", ".join(f"{invoice.number}" for invoice in invoices)
            first = invoices[0]
            return HoldWords(
                why=(f"invoice {numbers} is past due (due {_day(first.due_at)})" if len(invoices) == 1 else
                     f"invoices {numbers} are past due (the first was due {_day(first.due_at)})"),
                what=(f"Pay invoice {numbers}" if len(invoices) == 1 else f"Pay invoices {numbers}")
                + ": leads start again once the payment is recorded.")
        return HoldWords(why="an invoice is past due", what="Pay your open invoices: leads start again once the "
                                                            "payment is recorded.")
    if account.hold_reason == HoldReason.FUNDS:
        if account.terms == Terms.CREDIT:
            left = max(0, available_cents(account) or 0)
            why = f"your credit limit is used up ({dollars(left)} left, less than the price of a lead)"
            what = "Add funds or pay your open invoice, and leads start again at once."
        else:
            why = f"your balance of {dollars(account.balance_cents)} does not cover the price of a lead"
            what = "Add funds, and leads start again at once."
        return HoldWords(why=why, what=what)
    return None


def _day(moment: datetime) -> str:
    return f"{moment:%B} {moment.day}, {moment.year}"
