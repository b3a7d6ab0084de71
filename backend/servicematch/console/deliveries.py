"""The deliveries that need an operator: failing, rejected or waiting; retried one by one or in bulk."""

from __future__ import annotations

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from servicematch.console.lead_detail import CHANNELS, carried, held_reason, recipient_of
from servicematch.console.paging import decode_position, encode_position, iso
from servicematch.console.shapes import Shape
from servicematch.delivery.models import (
    Delivery,
    DeliveryAttempt,
    DeliveryStatus,
    Provider,
)
from servicematch.errors import ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.privacy.holds import NotSentAgain
from servicematch.reporting.rollup import retry_counted_delivery
from servicematch.routing.models import Buyer

LISTED = (DeliveryStatus.FAILED, DeliveryStatus.REJECTED, DeliveryStatus.PENDING)
RETRYABLE = (DeliveryStatus.FAILED, DeliveryStatus.REJECTED)
MAX_BULK = 500


class DeliveryRow(Shape):
    """A delivery waiting for an operator: what it carried, to whom, and how its tries went."""

    id: str
    leadId: str
    requestId: str
    recipient: str
    channel: str
    payload: str
    carried: str
    status: str
    attempts: int
    lastError: str | None
    # Why it was held rather than sent (consent withdrawn, data erased, opted out...); None if it was not.
    heldReason: str | None
    nextAttemptAt: str | None


class DeliveryPage(Shape):
    items: list[DeliveryRow]
    nextCursor: str | None


class WaitingCounts(Shape):
    """How many deliveries each list holds now."""

    failed: int
    rejected: int
    pending: int


class Retried(Shape):
    id: str
    status: str


class RetriedMany(Shape):
    retried: int


def delivery_page(session: Session, *, status: str, cursor: str | None, limit: int) -> dict:
    """Newest first; without a status, the failed and rejected ones together."""
    if status and status not in LISTED:
        raise ServiceMatchError(f"status is one of {', '.join(LISTED)}.", fields={"status": "invalid"},
                                status_code=422)
    statuses = (status,) if status else RETRYABLE
    attempts = (select(func.count()).where(DeliveryAttempt.delivery_id == Delivery.id)
                .correlate(Delivery).scalar_subquery())
    query = (
        select(Delivery, Lead.request_id, func.coalesce(Provider.name, Buyer.name), attempts.label("attempts"))
        .join(Lead, Lead.id == Delivery.lead_id)
        .outerjoin(Provider, Provider.id == Delivery.provider_id)
        .outerjoin(Buyer, Buyer.id == Delivery.buyer_id)
        .where(Delivery.status.in_(statuses))
        .order_by(Delivery.created_at.desc(), Delivery.id.desc()).limit(limit + 1)
    )
    position = decode_position(cursor)
    if position is not None:
        moment, delivery_id = position
        query = query.where(or_(Delivery.created_at < moment,
                                and_(Delivery.created_at == moment, Delivery.id < delivery_id)))
    rows = session.execute(query).all()
    items = [
        {"id": d.id, "leadId": d.lead_id, "requestId": request_id,
         "recipient": recipient_of(d.kind, provider_name),
         "channel": CHANNELS.get(d.kind, d.kind), **carried(d.payload_kind), "status": d.status, "attempts": count,
         "lastError": d.last_error, "heldReason": held_reason(d),
         "nextAttemptAt": iso(d.next_attempt_at) if d.status == DeliveryStatus.PENDING else None}
        for d, request_id, provider_name, count in rows[:limit]
    ]
    last = rows[limit - 1][0] if len(rows) > limit else None
    return {"items": items, "nextCursor": encode_position(last.created_at, last.id) if last else None}


def waiting_counts(session: Session) -> dict[str, int]:
    """How many deliveries each listed status holds now (the page opens on the first with any):
    one statement, through the index on (status, next_attempt_at)."""
    counts = dict(session.execute(select(Delivery.status, func.count()).where(Delivery.status.in_(LISTED))
                                  .group_by(Delivery.status)).all())
    return {status: counts.get(status, 0) for status in LISTED}


def retry_many(session: Session, ids: list[str]) -> list[str]:
    """Queue again each failed or rejected delivery among ids; the others are left as they are."""
    if len(ids) > MAX_BULK:
        raise ServiceMatchError(f"Retry at most {MAX_BULK} deliveries at a time.", fields={"ids": "too many"},
                                status_code=422)
    wanted = {i[:36] for i in ids}
    retryable = session.scalars(
        select(Delivery.id).where(Delivery.id.in_(wanted), Delivery.status.in_(RETRYABLE))
    ).all()
    queued = []
    for delivery_id in retryable:
        try:
            retry_counted_delivery(session=session, delivery_id=delivery_id)
        except NotSentAgain:  # its lead may not be sent again (consent withdrawn, erased, opted out)
            continue
        queued.append(delivery_id)
    return sorted(queued)
