"""The consumer's e-mails queued by routing: the consent receipt once it knows who received the
lead, and the short e-mail naming a provider that accepted the lead later in its portal."""

from __future__ import annotations

from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery, DeliveryStatus
from servicematch.intake.models import Lead
from servicematch.kernel import wakeup
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.privacy.notices import ACCEPTED, RECEIPT


def enqueue_receipt(*, session: Session, lead: Lead, skip_reason: str | None = None) -> Delivery:
    """The consent receipt's outbox row; sent by the delivery worker, retried and recorded."""
    return _consumer_email(session, lead, RECEIPT, "receipt", skip_reason=skip_reason)


def enqueue_acceptance_email(*, session: Session, lead: Lead, provider_id: str) -> Delivery:
    """The short e-mail naming the provider that accepted the lead in its portal, in the accepting
    transaction; sent by the delivery worker like the receipt."""
    return _consumer_email(session, lead, ACCEPTED, f"accepted:{provider_id}", provider_id=provider_id)


def _consumer_email(session: Session, lead: Lead, payload_kind: str, target_key: str, *,
                    provider_id: str | None = None, skip_reason: str | None = None) -> Delivery:
    now = utcnow()
    skip = skip_reason or (None if lead.email_hash else "not sent: no e-mail address was given")
    row = Delivery(id=new_id(), lead_id=lead.id, provider_id=provider_id, kind="consumer_email",
                   payload_kind=payload_kind,
                   target_key=target_key, status=DeliveryStatus.SKIPPED if skip else DeliveryStatus.PENDING,
                   attempt_count=0, last_error=skip, next_attempt_at=now, window_started_at=now,
                   created_at=now, completed_at=now if skip else None)
    session.add(row)
    if not skip:
        wakeup.notify_after_commit(session)
    return row
