"""Who hears that a buyer is not receiving leads: its people (the active persons who sign in for it).

The ledger's holds chore (ledger/hold_notices.py) writes and sends the notice; this says to whom.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.buyer.models import BuyerAccount


def buyer_people(session: Session, buyer_ids: list[str]) -> dict[str, list[str]]:
    """Each buyer's active people's e-mail addresses, in one query."""
    people: dict[str, list[str]] = {}
    for buyer_id, email in session.execute(
            select(BuyerAccount.buyer_id, BuyerAccount.email)
            .where(BuyerAccount.buyer_id.in_(buyer_ids), BuyerAccount.active.is_(True))
            .order_by(BuyerAccount.created_at, BuyerAccount.id)):
        people.setdefault(buyer_id, []).append(email)
    return people
