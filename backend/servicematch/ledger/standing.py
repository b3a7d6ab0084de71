"""An account's standing as its own people see it in their portal: how it pays, its money, and,
while it is not receiving leads, why and what to do (the words of the e-mail it was sent).

Read by the buyer portal (buyer/router_standing.py) and the provider portal
(portal/router_standing.py), each for the caller's own account only; money in dollars.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from servicematch.kernel.clock import as_utc
from servicematch.ledger.holds import hold_words
from servicematch.ledger.postings import accounts_of
from servicematch.ledger.terms import describe, standing_of


class AccountStanding(BaseModel):
    """How the account pays and whether it is receiving leads."""

    terms: Literal["prepaid", "credit"] = Field(description="prepaid: buys while its balance covers the price; "
                                                            "credit: up to its credit limit, invoiced monthly")
    termsText: str = Field(description='The terms in words: "Prepaid", "Credit, limit $5,000.00, invoices due in '
                                       '15 days"')
    creditLimit: float | None = Field(description="Credit terms: how far below zero the balance may go; null: no "
                                                  "limit (or prepaid)")
    netDays: int = Field(description="Days after issue an invoice is due")
    balance: float = Field(description="Funds: payments, credits and returns add; leads take")
    available: float | None = Field(description="What it may still spend; null: credit with no limit")
    receivingLeads: bool
    hold: Literal["funds", "overdue"] | None = Field(description="Why it is not receiving leads")
    heldSince: str | None
    why: str | None = Field(description="Why it is not receiving leads, in words")
    whatToDo: str | None = Field(description="What starts leads again")


def standing_view(session: Session, kind: str, owner_id: str, now: datetime, *, grace_days: int) -> AccountStanding:
    """The owner's standing (an owner without an account stands as a new one does)."""
    account = accounts_of(session, kind, [owner_id]).get(owner_id)
    standing = standing_of(account)
    words = hold_words(session, account, now, grace_days=grace_days) if account is not None else None
    held_since = as_utc(standing.held_since)
    return AccountStanding(
        terms=standing.terms, termsText=describe(standing), netDays=standing.net_days,
        creditLimit=None if standing.credit_limit_cents is None else standing.credit_limit_cents / 100,
        balance=standing.balance_cents / 100,
        available=None if standing.available_cents is None else standing.available_cents / 100,
        receivingLeads=standing.hold_reason is None, hold=standing.hold_reason,
        heldSince=held_since.isoformat(timespec="seconds").replace("+00:00", "Z") if held_since else None,
        why=words.why if words else None, whatToDo=words.what if words else None)
