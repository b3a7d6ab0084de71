"""Which ledger entries are revenue and which are cash, for the console's figures.

Revenue is what the accounts are charged for leads, less what they get back for them: charges,
providers' credits, buyers' returns and operators' adjustments (a goodwill credit lowers revenue,
an extra fee raises it). Cash is money that moved: payments in, refunds and disputes out. A
failed payment moved nothing and is neither. A reversal counts as what it reverses: undoing a
charge takes revenue off, undoing a recorded payment takes cash off.

An entry's effect on revenue is the opposite of its effect on the balance: a charge takes from
the balance and adds to revenue.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, and_, case, cast, or_, select
from sqlalchemy.orm import aliased

from servicematch.ledger.models import Cause, EntryKind, LedgerEntry

REVENUE_KINDS = (EntryKind.CHARGE, EntryKind.CREDIT, EntryKind.RETURN, EntryKind.ADJUSTMENT)
CASH_KINDS = (EntryKind.PAYMENT, EntryKind.REFUND, EntryKind.DISPUTE)
# Entries that may not be reversed: a reversal (post an adjustment instead), and a failed payment,
# which moved nothing.
NOT_REVERSIBLE = (EntryKind.REVERSAL, EntryKind.PAYMENT_FAILED)

_reversed = aliased(LedgerEntry, name="reversed_entry")


def reversed_kind():
    """The kind of the entry a reversal undoes, as a column of the reversal (null for other entries)."""
    # Only a reversal's cause_id is an entry's id: the CASE keeps PostgreSQL from casting any other.
    entry_id = case((LedgerEntry.cause == Cause.ENTRY, cast(LedgerEntry.cause_id, BigInteger)))
    return select(_reversed.kind).where(_reversed.id == entry_id).scalar_subquery()


def of_kinds(kinds: tuple[str, ...]):
    """A condition on LedgerEntry: one of `kinds`, or a reversal of one."""
    return or_(LedgerEntry.kind.in_(kinds), and_(LedgerEntry.kind == EntryKind.REVERSAL, reversed_kind().in_(kinds)))
