"""Terms: how an account pays (prepaid, or credit with a limit and net days), whether it may take a
lead at a price, and what its people are shown about it.

Routing (the auction, the providers' offers) asks `can_take` before a lead goes to an account; the
CLI and the console change terms through `change_terms`, which checks them the same way for both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import HoldReason, LedgerAccount, Terms
from servicematch.ledger.postings import account_for, available_cents

# An account made for an owner that had none (a buyer or provider added after money came) is
# prepaid and empty: it buys once it has funds, or once an operator gives it credit terms.
# tests/conftest.py makes it credit with no limit, as every account that existed before this room,
# so tests about anything but money need no funding; tests about money ask for the real default.
NEW_ACCOUNT_TERMS = Terms.PREPAID
MAX_CREDIT_LIMIT_CENTS = 1_000_000_00
MAX_NET_DAYS = 180
DEFAULT_NET_DAYS = 15
OVERDUE_REFUSAL = "paused: an invoice is past due"


def dollars(cents: int | None) -> str:
    """"$1,250.00", "-$30.00"; "no limit" for None (a credit limit)."""
    if cents is None:
        return "no limit"
    return f"{'-' if cents < 0 else ''}${abs(cents) / 100:,.2f}"


def open_account(session: Session, kind: str, owner_id: str, *, name: str = "", now: datetime | None = None,
                 new_owner: bool = False) -> LedgerAccount:
    """The owner's account, made on a new account's terms when it has none yet. For an owner made in
    this very transaction (`new_owner`) nobody else can be making its account: it is simply added,
    with no savepoint (a savepoint's commit would run the session's commit hooks early)."""
    if new_owner:
        now = now or utcnow()
        account = LedgerAccount(kind=kind, owner_id=owner_id, name=name[:200], terms=NEW_ACCOUNT_TERMS,
                                balance_cents=0, created_at=now, updated_at=now)
        session.add(account)
        return account
    return account_for(session, kind, owner_id, name=name, terms=NEW_ACCOUNT_TERMS, now=now)


def can_take(account: LedgerAccount | None, price_cents: int, *, committed_cents: int = 0) -> str | None:
    """Why the account may not take a lead at `price_cents` now, or None when it may.

    `committed_cents`: what it is already bound to pay that its balance does not show yet (leads
    posted to it and not answered). An account held for an overdue invoice takes nothing; an owner
    without an account is judged as a new one."""
    if account is None:
        if NEW_ACCOUNT_TERMS == Terms.CREDIT or price_cents <= 0:
            return None
        return f"cannot pay: {dollars(0)} available"
    if account.hold_reason == HoldReason.OVERDUE:
        return OVERDUE_REFUSAL
    available = available_cents(account)
    if available is None or price_cents <= 0:
        return None
    left = available - committed_cents
    if left >= price_cents:
        return None
    return f"cannot pay: {dollars(max(0, left))} available"


def hold_reason_for(refusal: str) -> str:
    """The hold a refusal from `can_take` puts the account under."""
    return HoldReason.OVERDUE if refusal == OVERDUE_REFUSAL else HoldReason.FUNDS


# -- changing terms ----------------------------------------------------------------------------

# A field of a change that was not given (None is a value: no credit limit).
UNSET = object()


@dataclass(frozen=True)
class TermsChange:
    """What an operator asked to change; a field left as UNSET stays as it is. A credit limit of
    None means no limit."""

    terms: str | None = None
    credit_limit_cents: object = UNSET
    net_days: int | None = None

    @property
    def empty(self) -> bool:
        return self.terms is None and self.credit_limit_cents is UNSET and self.net_days is None


def credit_limit_cents(value: float | str | None, *, field: str = "credit_limit") -> int | None:
    """A credit limit as typed ("5000", "5,000.50", or "none" for no limit) to cents; a clear error else."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "no limit")):
        return None
    try:
        number = float(str(value).replace(",", "").removeprefix("$")) if isinstance(value, str) else float(value)
    except ValueError:
        raise _refuse(field, "a credit limit is dollars, like 5000 or 5000.50, or none for no limit") from None
    if not math.isfinite(number) or number < 0 or round(number * 100) > MAX_CREDIT_LIMIT_CENTS:
        raise _refuse(field, f"a credit limit is 0 to {dollars(MAX_CREDIT_LIMIT_CENTS)}, or none for no limit")
    return round(number * 100)


def check_change(change: TermsChange, account: LedgerAccount | None) -> TermsChange:
    """The change, checked against what the account has now; a 400 naming the field otherwise."""
    if change.terms is not None and change.terms not in Terms.ALL:
        raise _refuse("terms", f"terms are {' or '.join(Terms.ALL)}")
    if change.net_days is not None and not (isinstance(change.net_days, int) and 0 <= change.net_days <= MAX_NET_DAYS):
        raise _refuse("net_days", f"net days are 0 to {MAX_NET_DAYS}")
    limit = change.credit_limit_cents
    if limit is not UNSET and limit is not None and not (isinstance(limit, int) and 0 <= limit <= MAX_CREDIT_LIMIT_CENTS):
        raise _refuse("credit_limit", f"a credit limit is 0 to {dollars(MAX_CREDIT_LIMIT_CENTS)}, or none")
    terms = change.terms or (account.terms if account is not None else NEW_ACCOUNT_TERMS)
    if terms == Terms.PREPAID and limit is not UNSET and limit is not None:
        raise _refuse("credit_limit", "a credit limit is for credit terms: set terms to credit as well")
    return change


def change_terms(session: Session, kind: str, owner_id: str, change: TermsChange, *, name: str = "",
                 now: datetime | None = None, new_owner: bool = False) -> LedgerAccount:
    """Lay the change over the owner's account (made first when it has none: see `open_account` for
    `new_owner`) in the caller's transaction. Moving to prepaid drops the credit limit, so a later
    move back to credit states its limit again rather than inheriting one."""
    now = now or utcnow()
    account = open_account(session, kind, owner_id, name=name, now=now, new_owner=new_owner)
    check_change(change, account)
    if change.terms is not None:
        account.terms = change.terms
        if change.terms == Terms.PREPAID:
            account.credit_limit_cents = None
    if change.credit_limit_cents is not UNSET:
        account.credit_limit_cents = change.credit_limit_cents
    if change.net_days is not None:
        account.net_days = change.net_days
    if name and account.name != name[:200]:
        account.name = name[:200]
    account.updated_at = now
    return account


def _refuse(field: str, message: str) -> ServiceMatchError:
    return ServiceMatchError(message, fields={field: message})


# -- what the account's people and operators are shown -----------------------------------------

@dataclass(frozen=True)
class Standing:
    """An account's terms and money as both portals show them; amounts in cents."""

    terms: str
    credit_limit_cents: int | None
    net_days: int
    balance_cents: int
    # What it may still spend; None: credit with no limit.
    available_cents: int | None
    hold_reason: str | None
    held_since: datetime | None


def standing_of(account: LedgerAccount | None) -> Standing:
    """The account's standing; an owner without an account stands as a new one does."""
    if account is None:
        return Standing(terms=NEW_ACCOUNT_TERMS, credit_limit_cents=None, net_days=DEFAULT_NET_DAYS,
                        balance_cents=0, available_cents=None if NEW_ACCOUNT_TERMS == Terms.CREDIT else 0,
                        hold_reason=None, held_since=None)
    return Standing(terms=account.terms, credit_limit_cents=account.credit_limit_cents, net_days=account.net_days,
                    balance_cents=account.balance_cents, available_cents=available_cents(account),
                    hold_reason=account.hold_reason, held_since=account.held_since)


def describe(standing: Standing) -> str:
    """"Prepaid", "Credit, limit $5,000.00, invoices due in 15 days", "Credit, no limit, ...": one line."""
    if standing.terms == Terms.PREPAID:
        return "Prepaid"
    limit = "no limit" if standing.credit_limit_cents is None else f"limit {dollars(standing.credit_limit_cents)}"
    return f"Credit, {limit}, invoices due in {standing.net_days} days"


def rename_account(session: Session, kind: str, owner_id: str, name: str) -> None:
    """The owner was renamed: its account (if it has one) carries the new name to invoices."""
    account = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == kind,
                                                          LedgerAccount.owner_id == owner_id)).first()
    if account is not None and account.name != name[:200]:
        account.name = name[:200]
