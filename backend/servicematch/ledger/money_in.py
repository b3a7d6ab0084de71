"""What follows money in an account's favour (a payment, a provider's credit, a buyer's return, an
operator's adjustment up): its open invoices it now covers are paid, oldest first, and a hold that
no longer applies ends, in the caller's transaction."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from servicematch.ledger.holds import DEFAULT_GRACE_DAYS, release_if_able
from servicematch.ledger.invoice_settling import settle_invoices
from servicematch.ledger.models import LedgerAccount


def money_came_in(session: Session, account: LedgerAccount, now: datetime, *,
                  grace_days: int = DEFAULT_GRACE_DAYS) -> bool:
    """Settle what the account's funds now cover and end a hold that has passed; whether it is free now."""
    settle_invoices(session, account, now)
    return release_if_able(session, account, now, grace_days=grace_days)
