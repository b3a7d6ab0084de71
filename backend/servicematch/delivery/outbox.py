"""The outbox: the rows routing adds for what it decided (claims.py leases and completes them)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.delivery.models import (
    Delivery,
    DeliveryStatus,
    Provider,
    TargetKind,
    new_id,
    utcnow,
)
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.kernel import wakeup
from servicematch.settings import Settings


def buyer_skip_reason(lead: Lead) -> str | None:
    """Why a lead must not go to a buyer, or None when it may."""
    if lead.do_not_sell:
        return "not sent: the consumer opted out of sale (Global Privacy Control)"
    if lead.is_duplicate:
        return "not sent: duplicate of an earlier lead"
    return None


def _row(lead: Lead, kind: str, target_key: str, now: datetime, *, provider: Provider | None = None,
         buyer_id: str | None = None, skip_reason: str | None = None) -> Delivery:
    return Delivery(
        id=new_id(), lead_id=lead.id, provider_id=provider.id if provider else None, buyer_id=buyer_id,
        kind=kind, target_key=target_key,
        status=DeliveryStatus.SKIPPED if skip_reason else DeliveryStatus.PENDING,
        attempt_count=0, last_error=skip_reason, next_attempt_at=now, window_started_at=now,
        created_at=now, completed_at=now if skip_reason else None,
    )


def _queue(session: Session, rows: list[Delivery]) -> list[Delivery]:
    session.add_all(rows)
    if any(row.status == DeliveryStatus.PENDING for row in rows):
        wakeup.notify_after_commit(session)
    return rows


def enqueue_fixed_buyer(*, session: Session, lead: Lead, now: datetime) -> Delivery:
    """The SERVICEMATCH_BUYER_URL buyer's row: sent, or skipped with the reason on record."""
    return _queue(session, [_row(lead, TargetKind.BUYER, "buyer", now, skip_reason=buyer_skip_reason(lead))])[0]


def enqueue_buyer_post(*, session: Session, lead: Lead, buyer_id: str, now: datetime) -> Delivery:
    """The full lead to a buyer that won it in routing's auction: one attempt, sent again (same
    webhook-id) only while its answer is in doubt (delivery.claims)."""
    return _queue(session, [_row(lead, TargetKind.BUYER_POST, f"buyer:{buyer_id}", now, buyer_id=buyer_id)])[0]


def enqueue_providers(*, session: Session, lead: Lead, providers: list[Provider], settings: Settings,
                      now: datetime) -> list[Delivery]:
    """Each provider's webhook and/or e-mail rows; stamps their turn for round robin."""
    rows: list[Delivery] = []
    for position, provider in enumerate(providers):
        # Stamped in pick order, so providers matched together keep their turn order next time.
        provider.last_matched_at = now + timedelta(microseconds=position)
        if provider.webhook_url:
            rows.append(_row(lead, TargetKind.PROVIDER_WEBHOOK, f"webhook:{provider.id}", now, provider=provider))
        email_skip = None if settings.smtp_host else "not sent: no SMTP server is configured"
        if email_skip is None or not provider.webhook_url:
            rows.append(_row(lead, TargetKind.PROVIDER_EMAIL, f"email:{provider.id}", now, provider=provider,
                             skip_reason=email_skip))
    return _queue(session, rows)


def record_portal_handover(*, session: Session, lead: Lead, provider: Provider, now: datetime) -> Delivery:
    """The provider accepted the lead in the portal: its details were handed over there, now.

    Stored delivered, so privacy's receipts, stop page and access report (which read deliveries)
    name the provider; nothing is ever sent for it."""
    row = _row(lead, TargetKind.PROVIDER_PORTAL, f"portal:{provider.id}", now, provider=provider)
    row.status, row.completed_at = DeliveryStatus.DELIVERED, now
    session.add(row)
    return row


def retry_delivery(*, session: Session, delivery_id: str, now: datetime | None = None) -> Delivery:
    """Put a failed or rejected delivery back in the queue, with a fresh retry window."""
    now = now or utcnow()
    delivery = session.get(Delivery, delivery_id)
    if delivery is None:
        raise NotFound(f"No delivery with id {delivery_id}.")
    if delivery.status not in (DeliveryStatus.FAILED, DeliveryStatus.REJECTED):
        raise ServiceMatchError(
            f"Delivery {delivery_id} is {delivery.status}; only failed or rejected ones can be retried.",
            status_code=409,
        )
    delivery.status = DeliveryStatus.PENDING
    delivery.next_attempt_at = now
    delivery.window_started_at = now
    delivery.completed_at = None
    delivery.claimed_until = None
    delivery.claim_token = None
    wakeup.notify_after_commit(session)
    return delivery


def matched_provider_names(*, session: Session, lead_id: str) -> list[str]:
    """The providers a lead was matched to, for the consumer's thank-you answer."""
    rows = session.execute(
        select(Provider.name).join(Delivery, Delivery.provider_id == Provider.id)
        .where(Delivery.lead_id == lead_id, Delivery.payload_kind == "lead").distinct().order_by(Provider.name)
    ).all()
    return [name for (name,) in rows]
