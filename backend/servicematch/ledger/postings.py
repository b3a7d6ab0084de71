"""Posting to the ledger: the one way an entry is written, and what an account may still buy.

`post` adds an entry and moves the account's balance by its amount in the caller's transaction,
so the entry and whatever caused it (a sale, a payment) commit or roll back together. Posting the
same cause twice (a retried call, a replayed webhook) finds the first entry and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from sqlalchemy import BigInteger, bindparam, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from servicematch.kernel.clock import utcnow
from servicematch.ledger.models import LedgerAccount, LedgerEntry, Terms


def account_for(session: Session, kind: str, owner_id: str, *, name: str = "", terms: str = Terms.PREPAID,
                now: datetime | None = None) -> LedgerAccount:
    """The owner's account, made with `terms` (a new account is prepaid) when it has none yet."""
    found = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == kind,
                                                        LedgerAccount.owner_id == owner_id)).first()
    if found is not None:
        return found
    now = now or utcnow()
    account = LedgerAccount(kind=kind, owner_id=owner_id, name=name[:200], terms=terms, balance_cents=0,
                            created_at=now, updated_at=now)
    try:
        with session.begin_nested():
            session.add(account)
    except IntegrityError:  # made a moment ago by another transaction
        return session.scalars(select(LedgerAccount).where(LedgerAccount.kind == kind,
                                                           LedgerAccount.owner_id == owner_id)).one()
    return account


def accounts_of(session: Session, kind: str, owner_ids: list[str]) -> dict[str, LedgerAccount]:
    """The accounts of several owners of one kind, in one query (owners without one are left out)."""
    if not owner_ids:
        return {}
    rows = session.scalars(select(LedgerAccount).where(LedgerAccount.kind == kind,
                                                       LedgerAccount.owner_id.in_(owner_ids)))
    return {account.owner_id: account for account in rows}


def available_cents(account: LedgerAccount) -> int | None:
    """What the account may still spend: its balance, plus its credit limit on credit terms; None
    for credit terms without a limit."""
    if account.terms == Terms.CREDIT:
        if account.credit_limit_cents is None:
            return None
        return account.balance_cents + account.credit_limit_cents
    return account.balance_cents


def can_cover(account: LedgerAccount | None, price_cents: int) -> bool:
    """Whether the account can pay `price_cents` now. No account yet: as a new one, prepaid and empty,
    which covers only a free lead."""
    if account is None:
        return price_cents <= 0
    available = available_cents(account)
    return available is None or available >= price_cents


def post(session: Session, account: LedgerAccount, *, kind: str, amount_cents: int, cause: str, cause_id: str,
         lead_id: str | None = None, description: str = "", vertical: str | None = None,
         service: str | None = None, state: str | None = None, note: str | None = None,
         created_by: str = "system", now: datetime | None = None) -> LedgerEntry:
    """Add the entry and move the balance, in the caller's transaction; the entry already posted
    for this cause and kind, unchanged, when there is one."""
    existing = _posted(session, account.id, cause, cause_id, kind)
    if existing is not None:
        return existing
    entry = LedgerEntry(account_id=account.id, kind=kind, amount_cents=int(amount_cents), cause=cause,
                        cause_id=str(cause_id), lead_id=lead_id, description=description, vertical=vertical,
                        service=service, state=state, note=note, created_by=(created_by or "system")[:254],
                        created_at=now or utcnow())
    try:
        with session.begin_nested():
            session.add(entry)
            session.flush()
    except IntegrityError:  # the same cause, posted a moment ago by another transaction
        return _posted(session, account.id, cause, cause_id, kind)
    # The database adds, so two postings at once never lose one another's amount.
    session.execute(update(LedgerAccount).where(LedgerAccount.id == account.id)
                    .values(balance_cents=LedgerAccount.balance_cents + int(amount_cents), updated_at=entry.created_at)
                    .execution_options(synchronize_session=False))
    session.expire(account, ["balance_cents", "updated_at"])
    return entry


# One account's balance moved by a sum of entries: built once, run for a batch's accounts at once
# (the driver sends them together), in id order.
_ACCOUNTS = LedgerAccount.__table__
_MOVE_BALANCE = (update(_ACCOUNTS).where(_ACCOUNTS.c.id == bindparam("account_id", type_=_ACCOUNTS.c.id.type))
                 .values(balance_cents=_ACCOUNTS.c.balance_cents + bindparam("cents", type_=BigInteger()),
                         updated_at=bindparam("at", type_=_ACCOUNTS.c.updated_at.type)))


def post_new(session: Session, postings: Mapping[LedgerAccount, list[LedgerEntry]]) -> None:
    """Add entries whose causes were made in the caller's transaction (the sales a batch of auctions
    just recorded), {account: its entries}, and move each balance by its entries' sum, one UPDATE an
    account through its primary key, in id order, so two transactions at once lock them in the
    same order. Nothing can have posted such a cause before, so none is looked for
    and no savepoint guards the insert: the entries are flushed with the rest of the transaction,
    and a second posting of a cause would still fail on the ledger's unique key, rolling back the
    transaction that made the cause."""
    moves: dict[str, tuple[int, datetime]] = {}
    for account, entries in sorted(postings.items(), key=lambda posting: posting[0].id):
        if not entries:
            continue
        for entry in entries:
            entry.account_id = account.id
        session.add_all(entries)
        moves[account.id] = (sum(int(entry.amount_cents) for entry in entries),
                             max(entry.created_at for entry in entries))
    if not moves:
        return
    if any(account in session.new for account in postings):
        session.flush()  # an account opened in this transaction is written before its balance moves
    session.connection().execute(_MOVE_BALANCE, [{"account_id": account_id, "cents": total, "at": at}
                                                 for account_id, (total, at) in sorted(moves.items())])
    for account in postings:
        if account.id in moves:
            session.expire(account, ["balance_cents", "updated_at"])


def _posted(session: Session, account_id: str, cause: str, cause_id: str, kind: str) -> LedgerEntry | None:
    return session.scalars(select(LedgerEntry).where(LedgerEntry.account_id == account_id, LedgerEntry.cause == cause,
                                                     LedgerEntry.cause_id == str(cause_id),
                                                     LedgerEntry.kind == kind)).first()
