"""The outbox: rows added in the lead's transaction (claims.py leases and completes them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.delivery import wakeup
from servicematch.delivery.matching import match_providers
from servicematch.delivery.models import (
    Delivery,
    DeliveryStatus,
    Provider,
    TargetKind,
    as_utc,
    new_id,
    utcnow,
)
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.reporting.models import reopen_delivery_day
from servicematch.settings import Settings


@dataclass(frozen=True)
class EnqueueResult:
    deliveries: list[Delivery] = field(default_factory=list)
    providers: list[Provider] = field(default_factory=list)

    @property
    def provider_names(self) -> list[str]:
        """What the consumer's thank-you answer may show."""
        return [provider.name for provider in self.providers]


def buyer_skip_reason(lead: Lead) -> str | None:
    """Why a lead must not go to the buyer, or None when it may."""
    if lead.do_not_sell:
        return "not sent: the consumer opted out of sale (Global Privacy Control)"
    if lead.is_duplicate:
        return "not sent: duplicate of an earlier lead"
    return None


def enqueue_deliveries(
    *, session: Session, lead: Lead, settings: Settings, now: datetime | None = None
) -> EnqueueResult:
    """Add a lead's deliveries to `session`; the caller's commit stores them with the lead."""
    now = now or utcnow()
    if lead.id is None:
        session.flush()
    rows: list[Delivery] = []

    def add(kind: str, target_key: str, provider: Provider | None = None,
            skip_reason: str | None = None) -> None:
        rows.append(Delivery(
            id=new_id(), lead_id=lead.id, provider_id=provider.id if provider else None, kind=kind,
            target_key=target_key, status=DeliveryStatus.SKIPPED if skip_reason else DeliveryStatus.PENDING,
            attempt_count=0, last_error=skip_reason, next_attempt_at=now, window_started_at=now,
            created_at=now, completed_at=now if skip_reason else None,
        ))

    if settings.buyer_url:
        add(TargetKind.BUYER, "buyer", skip_reason=buyer_skip_reason(lead))
    # A duplicate already reached its providers the first time it came in.
    providers = [] if lead.is_duplicate else match_providers(
        session=session, vertical=lead.vertical, service=lead.service, state=lead.state,
        zip_code=lead.zip, now=now,
    )
    for position, provider in enumerate(providers):
        # Stamped in pick order, so providers matched together keep their turn order next time.
        provider.last_matched_at = now + timedelta(microseconds=position)
        if provider.webhook_url:
            add(TargetKind.PROVIDER_WEBHOOK, f"webhook:{provider.id}", provider)
        email_skip = None if settings.smtp_host else "not sent: no SMTP server is configured"
        if email_skip is None or not provider.webhook_url:
            add(TargetKind.PROVIDER_EMAIL, f"email:{provider.id}", provider, email_skip)
    session.add_all(rows)
    if any(row.status == DeliveryStatus.PENDING for row in rows):
        wakeup.notify_after_commit(session)
    return EnqueueResult(deliveries=rows, providers=providers)


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
    # The dashboard counted the delivery's day with its old outcome: count it again once settled.
    reopen_delivery_day(session, as_utc(delivery.created_at).astimezone(UTC).date())
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
        .where(Delivery.lead_id == lead_id).distinct().order_by(Provider.name)
    ).all()
    return [name for (name,) in rows]
