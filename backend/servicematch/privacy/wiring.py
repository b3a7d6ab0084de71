"""The consent receipt's outbox row, queued by routing once it knows who received the lead."""

from __future__ import annotations

from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery, DeliveryStatus
from servicematch.intake.models import Lead
from servicematch.kernel import wakeup
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.privacy.notices import RECEIPT


def enqueue_receipt(*, session: Session, lead: Lead, skip_reason: str | None = None) -> Delivery:
    """The consent receipt's outbox row; sent by the delivery worker, retried and recorded."""
    now = utcnow()
    skip = skip_reason or (None if lead.email_hash else "not sent: no e-mail address was given")
    row = Delivery(id=new_id(), lead_id=lead.id, provider_id=None, kind="consumer_email", payload_kind=RECEIPT,
                   target_key="receipt", status=DeliveryStatus.SKIPPED if skip else DeliveryStatus.PENDING,
                   attempt_count=0, last_error=skip, next_attempt_at=now, window_started_at=now,
                   created_at=now, completed_at=now if skip else None)
    session.add(row)
    if not skip:
        wakeup.notify_after_commit(session)
    return row
