"""What storing a lead also does for privacy, around the deliveries: honour an earlier opt-out,
and queue the consent receipt, in the lead's own transaction."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from servicematch.delivery import wakeup
from servicematch.delivery.models import Delivery, DeliveryStatus
from servicematch.intake.models import Lead
from servicematch.intake.service import LeadSideEffects
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.privacy.actions import is_suppressed
from servicematch.privacy.contacts import keys_of_lead
from servicematch.privacy.notices import RECEIPT


@dataclass(frozen=True)
class WithConsentReceipt:
    """Intake's LeadSideEffects: the deliveries `inner` queues, plus the privacy side of a new lead."""

    inner: LeadSideEffects

    def on_stored(self, session: Session, lead: Lead) -> list[str]:
        # Before the deliveries are queued, so the buyer's row is made as for a GPC signal.
        if not lead.do_not_sell and is_suppressed(session=session, keys=keys_of_lead(lead)):
            lead.do_not_sell = True
        names = self.inner.on_stored(session, lead)
        enqueue_receipt(session=session, lead=lead)
        return names

    def provider_names(self, session: Session, lead_id: str) -> list[str]:
        return self.inner.provider_names(session, lead_id)


def enqueue_receipt(*, session: Session, lead: Lead) -> Delivery:
    """The consent receipt's outbox row; sent by the delivery worker, retried and recorded."""
    now = utcnow()
    skip = None if lead.email_hash else "not sent: no e-mail address was given"
    row = Delivery(id=new_id(), lead_id=lead.id, provider_id=None, kind="consumer_email", payload_kind=RECEIPT,
                   target_key="receipt", status=DeliveryStatus.SKIPPED if skip else DeliveryStatus.PENDING,
                   attempt_count=0, last_error=skip, next_attempt_at=now, window_started_at=now,
                   created_at=now, completed_at=now if skip else None)
    session.add(row)
    if not skip:
        wakeup.notify_after_commit(session)
    return row
