"""Feedback: what became of a lead a buyer bought, as the buyer tells it (docs/buyer-portal.md).

A lead may get several over time (contacted, then quoted, then sold); the newest counts as its
status. "bad" needs a reason. Feedback comes from the portal (a person) or the API (a key), only on
a lead the buyer bought, and holds no personal data: only the buyer's own words.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.buyer.models import FeedbackStatus, LeadFeedback
from servicematch.errors import ServiceMatchError
from servicematch.intake.schemas import LongText, text
from servicematch.portal.ledger import iso
from servicematch.routing.models import Sale

REASON_NEEDED = "Say why the lead was bad, like “wrong number” or “never asked for a quote”."
# A lead's story is a handful of steps; past this many, something is sending in a loop.
MAX_PER_LEAD = 50
TOO_MANY = f"This lead already has {MAX_PER_LEAD} feedback entries; no more can be added."
PORTAL, API = "portal", "api"
Status = Literal["contacted", "appointment", "quoted", "sold", "bad"]


class FeedbackGiven(BaseModel):
    model_config = ConfigDict(extra="forbid")

    status: Status
    reason: text(200) | None = None
    note: LongText | None = None


class BuyerFeedback(BaseModel):
    status: Status
    reason: str | None
    note: str | None
    source: Literal["portal", "api"]
    givenBy: str
    createdAt: str


def feedback_view(row: LeadFeedback) -> BuyerFeedback:
    return BuyerFeedback(status=row.status, reason=row.reason, note=row.note, source=row.source, givenBy=row.given_by,
                         createdAt=iso(row.created_at))


def give_feedback(session: Session, sale: Sale, given: FeedbackGiven, *, source: str, who: str,
                  now) -> LeadFeedback:
    """Store the feedback on the buyer's sale (the caller found it: own_sale); the caller audits and commits."""
    reason = (given.reason or "").strip() or None
    if given.status == FeedbackStatus.BAD and not reason:
        raise ServiceMatchError(REASON_NEEDED, fields={"reason": REASON_NEEDED}, status_code=422)
    count = session.scalar(select(func.count()).select_from(LeadFeedback).where(LeadFeedback.sale_id == sale.id)) or 0
    if count >= MAX_PER_LEAD:
        raise ServiceMatchError(TOO_MANY, status_code=409)
    row = LeadFeedback(sale_id=sale.id, buyer_id=sale.buyer_id, lead_id=sale.lead_id, status=given.status,
                       reason=reason, note=(given.note or "").strip() or None, source=source, given_by=who[:254],
                       created_at=now)
    session.add(row)
    session.flush()
    return row


def feedback_of(session: Session, sale_ids: list[str]) -> dict[str, list[LeadFeedback]]:
    """Each sale's feedback, newest first (the first is its status), in one query."""
    found: dict[str, list[LeadFeedback]] = {sale_id: [] for sale_id in sale_ids}
    if sale_ids:
        for row in session.scalars(select(LeadFeedback).where(LeadFeedback.sale_id.in_(sale_ids))
                                   .order_by(LeadFeedback.created_at.desc(), LeadFeedback.id.desc())):
            found[row.sale_id].append(row)
    return found


def latest_statuses(session: Session, sale_ids: list[str]) -> dict[str, str]:
    """The newest feedback status of each sale that has any (a list page's `feedback` column), in one query."""
    if not sale_ids:
        return {}
    newest = (select(LeadFeedback.sale_id, LeadFeedback.status, func.row_number().over(
        partition_by=LeadFeedback.sale_id, order_by=(LeadFeedback.created_at.desc(), LeadFeedback.id.desc()))
        .label("n")).where(LeadFeedback.sale_id.in_(sale_ids)).subquery())
    return dict(session.execute(select(newest.c.sale_id, newest.c.status).where(newest.c.n == 1)).all())
