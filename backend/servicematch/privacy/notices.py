"""Privacy notices through the delivery outbox: `lead.revoked`, `lead.deleted`, `lead.corrected`,
`lead.do_not_sell`, and `lead.discard` to an auction buyer that got the lead but did not buy it.

Each party that received a lead (the buyer, a provider's webhook or its mailbox) gets one notice
row per lead and notice type, stored in the same transaction as the change it announces and
then sent, retried and recorded by the delivery worker like the lead itself.
"""

from __future__ import annotations

from datetime import datetime
from types import EllipsisType

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery, DeliveryAttempt, DeliveryStatus, TargetKind
from servicematch.kernel import wakeup
from servicematch.kernel.ids import new_id
from servicematch.outbound.outcome import may_have_arrived

LEAD = "lead"
RECEIPT = "receipt"
# The consumer's e-mail asking it to rate a provider that accepted its lead (servicematch.portal.reviews):
# stopped here with the receipt when the consumer withdraws consent or has its data erased.
REVIEW_REQUEST = "review_request"
REVOKED = "lead.revoked"
DELETED = "lead.deleted"
CORRECTED = "lead.corrected"
# The consumer opted out of sale and sharing: every company holding one of its leads is told.
DO_NOT_SELL = "lead.do_not_sell"
# An auction buyer received the full lead in its post but did not buy it (it refused, or its answer
# did not come within the post deadline): it is told to discard the lead, once per lead and buyer.
DISCARD = "lead.discard"
NOTICE_KINDS = (REVOKED, DELETED, CORRECTED, DO_NOT_SELL, DISCARD)
# Why a buyer is told to discard a lead.
REFUSED = "refused"
LATE = "late"
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
    """Skip every lead, receipt, acceptance and review-request e-mail of these leads not yet sent, retries included.

    A send under way (claimed by a worker) finishes; its party then counts as having received
    the lead, and gets the notice.
    """
    if not lead_ids:
        return 0
    return session.execute(
        update(Delivery)
        .where(Delivery.lead_id.in_(lead_ids), Delivery.payload_kind.in_((LEAD, RECEIPT, ACCEPTED, REVIEW_REQUEST)),
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


def post_answer(attempts) -> str | None:
    """How a post that did not end in a sale reached its buyer, from its attempts (each with
    status_code, outcome and error): REFUSED (the buyer answered, with anything but a 2xx),
    LATE (the post went out and no answer came within the post deadline, or a 2xx came after the
    post was settled), or None (it never left: a connection refused, a held or unbuildable post)."""
    codes = [attempt.status_code for attempt in attempts if attempt.status_code is not None]
    if any(not 200 <= code < 300 for code in codes):
        return REFUSED
    if codes:
        return LATE
    if any(may_have_arrived(outcome=attempt.outcome, status_code=None, error=attempt.error) for attempt in attempts):
        return LATE
    return None


def post_answers(*, session: Session, delivery_ids: list[str]) -> dict[str, str | None]:
    """post_answer for each of these deliveries, read in one query."""
    if not delivery_ids:
        return {}
    attempts: dict[str, list] = {delivery_id: [] for delivery_id in delivery_ids}
    for row in session.execute(
            select(DeliveryAttempt.delivery_id, DeliveryAttempt.status_code, DeliveryAttempt.outcome,
                   DeliveryAttempt.error).where(DeliveryAttempt.delivery_id.in_(delivery_ids))):
        attempts[row.delivery_id].append(row)
    return {delivery_id: post_answer(rows) for delivery_id, rows in attempts.items()}


def enqueue_discard(*, session: Session, post: Delivery, now: datetime, reason: str | None | EllipsisType = ...) -> str | None:
    """Tell the buyer of an auction post that reached it but was no sale to discard the lead:
    one `lead.discard` row, in the transaction that settles the post (routing calls this), sent
    by the delivery worker with retries. Returns why (REFUSED or LATE), or None when the post never
    left (nothing to discard). At most one row per lead and buyer. `reason`: the post's
    post_answer, when the caller read it already."""
    if (post.kind != TargetKind.BUYER_POST or post.payload_kind != LEAD
            or post.status in (DeliveryStatus.PENDING, DeliveryStatus.SKIPPED, DeliveryStatus.DELIVERED)):
        return None
    if reason is ...:  # not read by the caller already
        reason = post_answers(session=session, delivery_ids=[post.id])[post.id]
    if reason is None:
        return None
    target_key = notice_target_key(DISCARD, post.target_key)
    if session.scalar(select(Delivery.id).where(Delivery.lead_id == post.lead_id,
                                                Delivery.target_key == target_key)) is None:
        session.add(Delivery(id=new_id(), lead_id=post.lead_id, buyer_id=post.buyer_id, kind=TargetKind.BUYER_POST,
                             payload_kind=DISCARD, target_key=target_key, status=DeliveryStatus.PENDING,
                             attempt_count=0, next_attempt_at=now, window_started_at=now, created_at=now))
        wakeup.notify_after_commit(session)
    return reason


def discarded_post(*, session: Session, notice: Delivery) -> Delivery | None:
    """The post a `lead.discard` notice is about."""
    return session.scalar(select(Delivery).where(Delivery.lead_id == notice.lead_id,
                                                 Delivery.target_key == notice.target_key.split(":", 1)[1]))


def companies_told(*, session: Session, lead_ids: list[str], notice: str) -> int:
    """How many companies hold a `notice` row for these leads (a company holding several leads counts once)."""
    if not lead_ids:
        return 0
    parties = set(session.execute(
        select(Delivery.kind == TargetKind.BUYER, Delivery.buyer_id, Delivery.provider_id)
        .where(Delivery.lead_id.in_(lead_ids), Delivery.payload_kind == notice)).all())
    return len(parties)
