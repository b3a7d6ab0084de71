"""An admin's corrections to the ledger: an adjustment of an account's balance, either way, and the
reversal of one entry. Both are new entries (nothing is ever edited or deleted), posted through
ledger.postings.post with the admin's note, and on the audit log in the same transaction.

An adjustment in the account's favour (a goodwill credit) raises its balance and lowers revenue;
one against it (a fee) does the opposite (console/money_kinds.py). A reversal is the exact
opposite of the entry it undoes, on the same account, lead, service and state, caused by that
entry (cause "entry", cause_id its id): the unique constraint of the entries leaves room for one,
so an entry is reversed once at most. A reversal is not reversed (post an adjustment instead),
and neither is a failed payment, which moved nothing. Reversing a card payment here moves no
money at Stripe: it corrects the ledger only.

An entry in the account's favour counts as a payment would: it settles the open invoices it
covers (ledger/invoice_settling.py) and ends a hold it lifts (ledger/holds.py). One against it
reopens no invoice and holds nothing by itself: the auction holds an account that cannot pay.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticKnownError
from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.console import audit
from servicematch.console.auth import Caller
from servicematch.console.money_accounts import find_account
from servicematch.console.money_kinds import NOT_REVERSIBLE
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.intake.schemas import RequiredLongText
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.numbers import Number
from servicematch.ledger.models import Cause, EntryKind, LedgerAccount, LedgerEntry
from servicematch.ledger.money_in import money_came_in
from servicematch.ledger.postings import post

# The audit log's names of these actions (console/audit.py's Action names the others).
ADJUST = "ledger.adjust"
REVERSE = "ledger.reverse"
# The most one adjustment may move, either way, in dollars: a slip of the keyboard stays small.
MAX_ADJUSTMENT_DOLLARS = 100_000
NO_ENTRY = "No ledger entry with this id."


def _a_json_number(value: Any) -> Any:
    """"12.50" is a string: money comes as a JSON number, as the schema says."""
    if isinstance(value, str | bytes | bytearray):
        raise PydanticKnownError("float_type")
    return value


Dollars = Annotated[Number, BeforeValidator(_a_json_number)]


class Adjustment(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # Dollars with cents: positive adds to the balance (a credit), negative takes from it (a fee).
    amount: Dollars = Field(ge=-MAX_ADJUSTMENT_DOLLARS, le=MAX_ADJUSTMENT_DOLLARS, allow_inf_nan=False)
    # Why, in words: kept on the entry and on the audit log.
    note: RequiredLongText


class Reversal(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: RequiredLongText


def _note(note: str) -> str:
    if not note.strip():
        raise ServiceMatchError("Say why, in a note.", fields={"note": "required"}, status_code=422)
    return note.strip()


def _cents(amount: float) -> int:
    cents = round(amount * 100)
    if not math.isclose(amount * 100, cents, abs_tol=1e-6):
        raise ServiceMatchError("The amount is in dollars with at most two decimals, like -12.50.",
                                fields={"amount": "at most two decimals"}, status_code=422)
    if cents == 0:
        raise ServiceMatchError("An adjustment moves at least one cent.", fields={"amount": "not zero"},
                                status_code=422)
    return cents


def _in_favour(session: Session, account: LedgerAccount, entry: LedgerEntry, grace_days: int) -> None:
    if entry.amount_cents > 0:
        money_came_in(session, account, entry.created_at, grace_days=grace_days)


def adjust(session: Session, caller: Caller, account_id: str, body: Adjustment, *, grace_days: int) -> LedgerEntry:
    """Post the adjustment and its audit entry (the caller commits)."""
    note, cents = _note(body.note), _cents(body.amount)
    account = find_account(session, account_id)
    now = utcnow()
    entry = post(session, account, kind=EntryKind.ADJUSTMENT, amount_cents=cents, cause=Cause.ADJUSTMENT,
                 cause_id=new_id(), description="Adjustment", note=note,
                 created_by=caller.operator.email, now=now)
    _in_favour(session, account, entry, grace_days)
    audit.record(session, action=ADJUST, operator=caller.operator, ip=caller.ip, target=account.id,
                 detail={"kind": account.kind, "ownerId": account.owner_id, "entryId": entry.id, "amountCents": cents,
                         "note": note[:500]})
    return entry


def reverse(session: Session, caller: Caller, entry_id: int, body: Reversal, *, grace_days: int) -> LedgerEntry:
    """Post the reversal of one entry and its audit entry (the caller commits); 409 for an entry
    already reversed, or one that is not reversed."""
    note = _note(body.note)
    entry = session.get(LedgerEntry, entry_id)
    if entry is None:
        raise NotFound(NO_ENTRY)
    # The account's row is locked first, so two reversals of one entry at once come one after the other.
    account = find_account(session, entry.account_id, lock=True)
    if entry.kind in NOT_REVERSIBLE:
        raise ServiceMatchError(f"A {entry.kind.replace('_', ' ')} is not reversed; post an adjustment instead.",
                                fields={"entryId": "not reversible"}, status_code=409)
    done = session.scalar(select(LedgerEntry.id).where(LedgerEntry.account_id == account.id,
                                                       LedgerEntry.cause == Cause.ENTRY,
                                                       LedgerEntry.cause_id == str(entry.id),
                                                       LedgerEntry.kind == EntryKind.REVERSAL))
    if done is not None:
        raise ServiceMatchError(f"This entry was reversed already, by entry {done}.",
                                fields={"entryId": "already reversed"}, status_code=409)
    reversal = post(session, account, kind=EntryKind.REVERSAL, amount_cents=-entry.amount_cents, cause=Cause.ENTRY,
                    cause_id=str(entry.id), lead_id=entry.lead_id,
                    description=": ".join(filter(None, (f"Reversal of entry {entry.id}", entry.description)))[:500],
                    vertical=entry.vertical,
                    service=entry.service, state=entry.state, note=note, created_by=caller.operator.email,
                    now=utcnow())
    _in_favour(session, account, reversal, grace_days)
    audit.record(session, action=REVERSE, operator=caller.operator, ip=caller.ip, target=str(entry.id),
                 detail={"accountId": account.id, "kind": entry.kind, "amountCents": entry.amount_cents,
                         "reversalId": reversal.id, "note": note[:500]})
    return reversal
