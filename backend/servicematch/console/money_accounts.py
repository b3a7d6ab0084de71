"""The ledger's accounts in the console: each one's terms, balance, what it may still spend and
whether it is held; and one account's entries, newest first, with the balance after each.

Names are the owners' current ones (a buyer's or provider's), else the one the account kept. Money
is in dollars. No consumer's personal data: an entry names its lead by its reference only.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import date
from typing import Literal

from sqlalchemy import and_, func, select, tuple_
from sqlalchemy.orm import Session

from servicematch.console.money import AGES, dollars, overdue_by_account
from servicematch.console.money_kinds import NOT_REVERSIBLE
from servicematch.console.paging import BAD_CURSOR, decode_int_cursor, iso
from servicematch.console.shapes import Shape
from servicematch.delivery.models import Provider
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.kernel.references import shown_reference
from servicematch.ledger.models import AccountKind, Cause, EntryKind, LedgerAccount, LedgerEntry
from servicematch.ledger.postings import available_cents
from servicematch.routing.models import Buyer

SHOWN = ("all", "held", "owing")
NO_ACCOUNT = "No account with this id."


class ConsoleAccount(Shape):
    id: str
    kind: Literal["buyer", "provider"]
    ownerId: str
    name: str
    terms: Literal["prepaid", "credit"]
    creditLimit: float | None  # credit terms: how far below zero the balance may go; null: no limit
    netDays: int
    balance: float  # its funds: negative when it owes
    available: float | None  # what it may still spend; null: credit terms without a limit
    overdue: float  # of what it owes, the part past an invoice's due date
    holdReason: Literal["funds", "overdue"] | None  # why it is not receiving leads; null: it is
    heldSince: str | None


class ConsoleAccountPage(Shape):
    items: list[ConsoleAccount]
    nextCursor: str | None


class ConsoleEntry(Shape):
    id: int
    kind: str
    amount: float  # its effect on the balance: negative for a charge
    balanceAfter: float
    cause: str
    causeId: str
    leadId: str | None
    leadReference: str | None
    description: str
    note: str | None
    createdBy: str
    createdAt: str
    reverses: int | None  # a reversal: the entry it undoes
    reversedBy: int | None  # the reversal that undid this entry
    reversible: bool  # whether an admin may reverse it now


class ConsoleAccountEntries(Shape):
    account: ConsoleAccount
    entries: list[ConsoleEntry]
    nextCursor: str | None


def _names(session: Session, accounts: list[LedgerAccount]) -> dict[tuple[str, str], str]:
    owners = {kind: [a.owner_id for a in accounts if a.kind == kind] for kind in AccountKind.ALL}
    names: dict[tuple[str, str], str] = {}
    for kind, table in ((AccountKind.BUYER, Buyer), (AccountKind.PROVIDER, Provider)):
        if owners[kind]:
            names.update({(kind, owner): name for owner, name in session.execute(
                select(table.id, table.name).where(table.id.in_(owners[kind])))})
    return names


def accounts_json(session: Session, accounts: list[LedgerAccount], today: date) -> list[dict]:
    names = _names(session, accounts)
    overdue = overdue_by_account(session, today, [account.id for account in accounts]) if accounts else {}
    return [{
        "id": a.id, "kind": a.kind, "ownerId": a.owner_id,
        "name": names.get((a.kind, a.owner_id)) or a.name or f"deleted {a.kind}",
        "terms": a.terms, "creditLimit": dollars(a.credit_limit_cents), "netDays": a.net_days,
        "balance": dollars(a.balance_cents), "available": dollars(available_cents(a)),
        "overdue": dollars(sum(overdue.get(a.id, {}).get(name, 0) for name, _most in AGES)),
        "holdReason": a.hold_reason, "heldSince": iso(a.held_since),
    } for a in accounts]


def _shown_name():
    """The name an account is listed, found and ordered by: its owner's current one, else its own."""
    return func.coalesce(Buyer.name, Provider.name, LedgerAccount.name)


def _position(name: str, account_id: str) -> str:
    return base64.urlsafe_b64encode(json.dumps([name, account_id]).encode()).decode().rstrip("=")


def _after(cursor: str | None) -> tuple[str, str] | None:
    if not cursor:
        return None
    try:
        name, account_id = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        if isinstance(name, str) and isinstance(account_id, str):
            return name, account_id
    except (binascii.Error, ValueError, UnicodeDecodeError, TypeError):
        pass
    raise ServiceMatchError(BAD_CURSOR, fields={"cursor": "invalid"}, status_code=422)


def account_page(session: Session, *, kind: str, shown: str, q: str, cursor: str | None, limit: int,
                 today: date) -> dict:
    """Accounts by name (then id), `limit` a page; `shown` "held" or "owing" narrows them."""
    name = _shown_name()
    query = (select(LedgerAccount, name)
             .outerjoin(Buyer, and_(LedgerAccount.kind == AccountKind.BUYER, Buyer.id == LedgerAccount.owner_id))
             .outerjoin(Provider, and_(LedgerAccount.kind == AccountKind.PROVIDER,
                                       Provider.id == LedgerAccount.owner_id)))
    if kind:
        query = query.where(LedgerAccount.kind == kind)
    if shown == "held":
        query = query.where(LedgerAccount.hold_reason.is_not(None))
    elif shown == "owing":
        query = query.where(LedgerAccount.balance_cents < 0)
    if q.strip():
        query = query.where(func.lower(name).contains(q.strip().lower(), autoescape=True))
    if (after := _after(cursor)) is not None:
        query = query.where(tuple_(name, LedgerAccount.id) > tuple_(*after))
    rows = session.execute(query.order_by(name, LedgerAccount.id).limit(limit + 1)).all()
    page = rows[:limit]
    return {"items": accounts_json(session, [account for account, _name in page], today),
            "nextCursor": _position(page[-1][1], page[-1][0].id) if len(rows) > limit else None}


def find_account(session: Session, account_id: str, *, lock: bool = False) -> LedgerAccount:
    account = session.get(LedgerAccount, account_id, with_for_update=lock)
    if account is None:
        raise NotFound(NO_ACCOUNT)
    return account


def _reversals(session: Session, entry_ids: list[int]) -> dict[int, int]:
    """The reversal of each of these entries that has one: {reversed id: reversal id}."""
    if not entry_ids:
        return {}
    return {int(reversed_id): reversal_id for reversed_id, reversal_id in session.execute(
        select(LedgerEntry.cause_id, LedgerEntry.id).where(
            LedgerEntry.cause == Cause.ENTRY, LedgerEntry.cause_id.in_([str(n) for n in entry_ids]),
            LedgerEntry.kind == EntryKind.REVERSAL))}


def entries_json(session: Session, account: LedgerAccount, entries: list[LedgerEntry]) -> list[dict]:
    """The entries, newest first, each with the account's balance just after it."""
    if not entries:
        return []
    later = session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount_cents), 0)).where(
        LedgerEntry.account_id == account.id, LedgerEntry.id > entries[0].id))
    lead_ids = {entry.lead_id for entry in entries if entry.lead_id}
    references = dict(session.execute(select(Lead.id, Lead.reference).where(Lead.id.in_(lead_ids))).all())
    reversed_by = _reversals(session, [entry.id for entry in entries])
    after = account.balance_cents - int(later)
    shown = []
    for entry in entries:
        reverses = int(entry.cause_id) if entry.kind == EntryKind.REVERSAL and entry.cause == Cause.ENTRY else None
        shown.append({
            "id": entry.id, "kind": entry.kind, "amount": dollars(entry.amount_cents), "balanceAfter": dollars(after),
            "cause": entry.cause, "causeId": entry.cause_id, "leadId": entry.lead_id,
            "leadReference": shown_reference(references[entry.lead_id]) if entry.lead_id in references else None,
            "description": entry.description, "note": entry.note, "createdBy": entry.created_by,
            "createdAt": iso(entry.created_at), "reverses": reverses, "reversedBy": reversed_by.get(entry.id),
            "reversible": entry.kind not in NOT_REVERSIBLE and entry.id not in reversed_by})
        after -= entry.amount_cents
    return shown


def account_entries(session: Session, account_id: str, *, cursor: str | None, limit: int, today: date) -> dict:
    """The account and a page of its entries, newest first; the cursor is the last entry's id."""
    account = find_account(session, account_id)
    query = select(LedgerEntry).where(LedgerEntry.account_id == account.id)
    if (before := decode_int_cursor(cursor)) is not None:
        query = query.where(LedgerEntry.id < before)
    rows = list(session.scalars(query.order_by(LedgerEntry.id.desc()).limit(limit + 1)))
    page = rows[:limit]
    return {"account": accounts_json(session, [account], today)[0], "entries": entries_json(session, account, page),
            "nextCursor": str(page[-1].id) if len(rows) > limit else None}

