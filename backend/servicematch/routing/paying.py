"""The auction pays: what each buyer of a batch of decisions may still spend, and each sale's charge.

A batch of auctions (routing/stage.py decides or settles many leads in one transaction) reads its
buyers' accounts in one query, with, for those with a limit (prepaid, or credit with a limit), what
is already posted to them and not yet answered: a post under way is money the buyer is bound to
pay, so two leads at once never both spend the same dollars. Each post and
sale of the batch is counted as it is decided, and the charges are posted at the end of the batch,
in account order, so two workers settling at once take the accounts' row locks in the same order.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, bindparam, case, func, or_, select
from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery, DeliveryStatus, TargetKind
from servicematch.intake.models import Lead
from servicematch.ledger import holds
from servicematch.ledger.models import (
    AccountKind,
    Cause,
    EntryKind,
    HoldReason,
    LedgerAccount,
    LedgerEntry,
    Terms,
)
from servicematch.ledger.postings import accounts_of, post_new
from servicematch.ledger.terms import can_take, hold_reason_for, open_account
from servicematch.routing.buyers import count_sales
from servicematch.routing.models import AuctionStep, Buyer, Sale, StepKind


@dataclass(frozen=True)
class _Charge:
    sale: Sale
    lead_id: str
    description: str
    vertical: str
    service: str
    state: str | None


def funds_checked() -> bool:
    """Whether the auction asks who can pay. Always, but for bench/ledger_balance_check.py, which
    measures an auction with the check and without it."""
    return True


class Purse:
    """What the buyers of one batch may spend, read when the batch starts (before it adds a post of
    its own) and kept up to date as the batch decides."""

    def __init__(self, session: Session, buyer_ids: set[str], now: datetime) -> None:
        self.now = now
        self._session, self._buyer_ids = session, sorted(buyer_ids)
        self._accounts: dict[str, LedgerAccount] | None = None
        # Cents each buyer is bound to beyond its balance: posts under way, then this batch's posts and sales.
        self.committed: dict[str, int] = {}
        self._refused: dict[str, str] = {}
        self._able: set[str] = set()
        self._charges: list[_Charge] = []
        if funds_checked() and self._buyer_ids:
            self._accounts, self.committed = accounts_and_posts_under_way(session, self._buyer_ids)

    @property
    def accounts(self) -> dict[str, LedgerAccount]:
        if self._accounts is None:
            self._accounts = accounts_of(self._session, AccountKind.BUYER, self._buyer_ids)
        return self._accounts

    def refusal(self, buyer_id: str, cents: int) -> str | None:
        """Why the buyer cannot take a lead at `cents` now, or None."""
        if not funds_checked():
            return None
        return can_take(self.accounts.get(buyer_id), cents, committed_cents=self.committed.get(buyer_id, 0))

    def refused(self, buyer_id: str, refusal: str) -> None:
        """It was skipped for money (`refusal`, from `refusal`): held, and told once, when the batch ends."""
        self._refused.setdefault(buyer_id, refusal)

    def posted(self, buyer_id: str, cents: int) -> None:
        """A post to it was decided: the money is bound until its answer."""
        self.committed[buyer_id] = self.committed.get(buyer_id, 0) + cents
        self._able.add(buyer_id)

    def charge(self, sale: Sale, lead: Lead, description: str) -> None:
        """The sale's charge, posted when the batch ends (its post's money stays bound till then)."""
        self.committed[sale.buyer_id] = self.committed.get(sale.buyer_id, 0) + sale.price_cents
        self._charges.append(_Charge(sale, lead.id, description, lead.vertical, lead.service, lead.state))

    def close(self, session: Session) -> None:
        """Count the sales on their buyers' days, post the charges, hold who was skipped for money and
        free who could pay again, in the caller's transaction: the days in buyer order, then one
        account after another in id order (each row is written then, so two transactions at once
        lock the same rows in the same order)."""
        owners = {charge.sale.buyer_id for charge in self._charges} | set(self._refused)
        if missing := sorted(owner for owner in owners if owner not in self.accounts):
            names = dict(session.execute(select(Buyer.id, Buyer.name).where(Buyer.id.in_(missing))).all())
            for buyer_id in missing:
                self.accounts[buyer_id] = open_account(session, AccountKind.BUYER, buyer_id,
                                                       name=names.get(buyer_id, ""), now=self.now)
        # The buyers' daily counts (caps and budgets) first, in buyer order, then the accounts in id order.
        count_sales(session, [charge.sale for charge in self._charges])
        charges: dict[str, list[_Charge]] = {}
        for charge in self._charges:
            charges.setdefault(charge.sale.buyer_id, []).append(charge)
        touched = sorted((self.accounts[owner] for owner in owners | self._able if owner in self.accounts),
                         key=lambda account: account.id)
        # The batch's sales were made in this transaction: their charges are new by construction.
        post_new(session, {account: [LedgerEntry(
            kind=EntryKind.CHARGE, amount_cents=-charge.sale.price_cents, cause=Cause.SALE,
            cause_id=charge.sale.id, lead_id=charge.lead_id, description=charge.description,
            vertical=charge.vertical, service=charge.service, state=charge.state, created_by="system",
            created_at=charge.sale.created_at) for charge in charges.get(account.owner_id, [])] for account in touched})
        for account in touched:
            held = account.hold_reason
            if account.owner_id in self._refused:
                holds.hold(session, account, hold_reason_for(self._refused[account.owner_id]), self.now)
            elif account.hold_reason == HoldReason.FUNDS:
                holds.release(session, account, self.now)
            if account.hold_reason != held:
                session.flush()


def _accounts_and_posts_under_way_statement():
    posts, steps = Delivery.__table__, AuctionStep.__table__
    under_way = (
        select(func.coalesce(func.sum(steps.c.amount_cents), 0))
        .select_from(posts.join(steps, and_(steps.c.lead_id == posts.c.lead_id, steps.c.kind == StepKind.POST,
                                            func.coalesce(steps.c.buyer_id, "") == posts.c.buyer_id)))
        .where(posts.c.status == DeliveryStatus.PENDING, posts.c.kind == TargetKind.BUYER_POST,
               posts.c.payload_kind == "lead", func.coalesce(posts.c.buyer_id, "") == LedgerAccount.owner_id)
        .scalar_subquery())
    limited = or_(LedgerAccount.terms == Terms.PREPAID, LedgerAccount.credit_limit_cents.is_not(None))
    return (select(LedgerAccount, case((limited, under_way), else_=0))
            .where(LedgerAccount.kind == AccountKind.BUYER,
                   LedgerAccount.owner_id.in_(bindparam("buyer_ids", expanding=True))))


# Built once: it runs for every batch of decisions and settlements, and building it (and its cache
# key) cost more than running it.
_ACCOUNTS_AND_POSTS_UNDER_WAY = _accounts_and_posts_under_way_statement()


def accounts_and_posts_under_way(session: Session, buyer_ids: list[str]) -> tuple[dict[str, LedgerAccount],
                                                                                 dict[str, int]]:
    """The buyers' accounts, and for those with a limit the cents of the lead posts under way to
    them (pending: sent or about to be, no answer yet), in one query.

    The posts are found among the outbox's pending rows (few: what is being sent now), each priced
    by its POST step, found by its lead. The buyer columns are wrapped in coalesce so that no planner
    walks a buyer's whole history through a buyer_id index instead (SQLite did, without statistics)."""
    accounts: dict[str, LedgerAccount] = {}
    committed: dict[str, int] = {}
    for account, cents in session.execute(_ACCOUNTS_AND_POSTS_UNDER_WAY, {"buyer_ids": list(buyer_ids)}):
        accounts[account.owner_id] = account
        if cents:
            committed[account.owner_id] = int(cents)
    return accounts, committed
