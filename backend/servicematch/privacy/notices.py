"""Privacy notices through the delivery outbox: `lead.revoked`, `lead.deleted`, `lead.corrected`.

Each party that received a lead (the buyer, a provider's webhook or its mailbox) gets one notice
row per lead and notice type, stored in the same transaction as the change it announces and
then sent, retried and recorded by the delivery worker like the lead itself.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery, DeliveryStatus, TargetKind
from servicematch.kernel import wakeup
from servicematch.kernel.ids import new_id

LEAD = "lead"
RECEIPT = "receipt"
REVOKED = "lead.revoked"
DELETED = "lead.deleted"
CORRECTED = "lead.corrected"
NOTICE_KINDS = (REVOKED, DELETED, CORRECTED)
# The consumer's short e-mail naming a provider that accepted the lead's offer in the portal.
ACCEPTED = "offer.accepted"


def received_by(*, session: Session, lead_ids: list[str]) -> list[Delivery]:
    """The lead deliveries that reached, or may have reached, a party: sent, or under way."""
    if not lead_ids:
        return []
    return list(session.scalars(
        select(Delivery).where(
            Delivery.lead_id.in_(lead_ids), Delivery.payload_kind == LEAD,
            # Sent, tried (a timed-out try may have arrived), or being sent right now.
            or_(Delivery.status == DeliveryStatus.DELIVERED, Delivery.attempt_count > 0,
                Delivery.claimed_until.is_not(None)),
        )
    ))


def stop_unsent(*, session: Session, lead_ids: list[str], reason: str, now: datetime) -> int:
    """Skip every lead, receipt and acceptance e-mail of these leads not yet sent, retries included.

    A send under way (claimed by a worker) finishes; its party then counts as having received
    the lead, and gets the notice.
    """
    if not lead_ids:
        return 0
    return session.execute(
        update(Delivery)
        .where(Delivery.lead_id.in_(lead_ids), Delivery.payload_kind.in_((LEAD, RECEIPT, ACCEPTED)),
               Delivery.status == DeliveryStatus.PENDING,
               or_(Delivery.claimed_until.is_(None), Delivery.claimed_until < now))
        .values(status=DeliveryStatus.SKIPPED, last_error=reason, completed_at=now)
        .execution_options(synchronize_session=False)
    ).rowcount


def notice_target_key(notice: str, original_target: str, request_id: str | None = None) -> str:
    # Revoked and deleted happen once per lead and party; corrections once per request and party.
    return f"{notice}:{request_id}:{original_target}" if notice == CORRECTED else f"{notice}:{original_target}"


def correction_request_id(delivery: Delivery) -> str | None:
    if delivery.payload_kind != CORRECTED:
        return None
    return delivery.target_key.split(":", 2)[1]


def enqueue_notices(*, session: Session, lead_ids: list[str], notice: str, now: datetime,
                    request_id: str | None = None) -> int:
    """One `notice` row for each party that received each lead; a row already there is kept."""
    sent = received_by(session=session, lead_ids=lead_ids)
    # A provider that accepted in the portal and also got the lead by webhook or e-mail (auto-accept)
    # is told once, by that channel.
    reached = {(d.lead_id, d.provider_id) for d in sent if d.kind != TargetKind.PROVIDER_PORTAL}
    sent = [d for d in sent if d.kind != TargetKind.PROVIDER_PORTAL or (d.lead_id, d.provider_id) not in reached]
    wanted = {(d.lead_id, notice_target_key(notice, d.target_key, request_id)): d for d in sent}
    if not wanted:
        return 0
    existing = set(session.execute(
        select(Delivery.lead_id, Delivery.target_key)
        .where(Delivery.lead_id.in_(lead_ids), Delivery.payload_kind == notice)
    ).all())
    rows = [
        Delivery(id=new_id(), lead_id=lead_id, provider_id=original.provider_id, buyer_id=original.buyer_id,
                 # A provider that accepted in the portal is told by e-mail (the portal sends nothing).
                 kind=TargetKind.PROVIDER_EMAIL if original.kind == TargetKind.PROVIDER_PORTAL else original.kind,
                 payload_kind=notice, target_key=target_key, status=DeliveryStatus.PENDING,
                 attempt_count=0, next_attempt_at=now, window_started_at=now, created_at=now)
        for (lead_id, target_key), original in wanted.items() if (lead_id, target_key) not in existing
    ]
    session.add_all(rows)
    if rows:
        wakeup.notify_after_commit(session)
    return len(rows)
