"""The outbox: rows added in the lead's transaction, claimed under a lease, completed per attempt."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from servicematch.delivery import wakeup
from servicematch.delivery.matching import match_providers
from servicematch.delivery.models import (
    Delivery,
    DeliveryAttempt,
    DeliveryStatus,
    Provider,
    TargetKind,
    as_utc,
    new_id,
    utcnow,
)
from servicematch.delivery.outcome import Outcome, SendResult
from servicematch.delivery.retry import next_delay, window_is_over
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.settings import Settings


@dataclass(frozen=True)
class EnqueueResult:
    deliveries: list[Delivery] = field(default_factory=list)
    providers: list[Provider] = field(default_factory=list)

    @property
    def provider_names(self) -> list[str]:
        """What the consumer's thank-you answer may show."""
        return [provider.name for provider in self.providers]


@dataclass(frozen=True)
class Claim:
    delivery_id: str
    token: str


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


def _claimable(now: datetime):
    return (
        Delivery.status == DeliveryStatus.PENDING,
        Delivery.next_attempt_at <= now,
        or_(Delivery.claimed_until.is_(None), Delivery.claimed_until < now),
    )


def claim_due(
    *, session_factory: sessionmaker[Session], now: datetime, lease_seconds: float, limit: int,
) -> list[Claim]:
    """Lease up to `limit` due deliveries to this caller; no two callers get the same one."""
    with session_factory() as session:
        candidates = select(Delivery.id).where(*_claimable(now)).order_by(Delivery.next_attempt_at).limit(limit)
        if session.get_bind().dialect.name == "postgresql":
            # Workers skip rows another worker is claiming instead of queueing behind it.
            candidates = candidates.with_for_update(skip_locked=True)
        claims = []
        for delivery_id in session.scalars(candidates).all():
            token = new_id()
            # Compare-and-set: the lease is taken only if nobody holds it, on every backend.
            taken = session.execute(
                update(Delivery).where(Delivery.id == delivery_id, *_claimable(now))
                .values(claimed_until=now + timedelta(seconds=lease_seconds), claim_token=token)
                .execution_options(synchronize_session=False)
            ).rowcount
            if taken == 1:
                claims.append(Claim(delivery_id=delivery_id, token=token))
        session.commit()
    return claims


def complete_attempt(
    *, session_factory: sessionmaker[Session], claim: Claim, result: SendResult, now: datetime,
    attempted_at: datetime, settings: Settings,
) -> str | None:
    """Record the attempt and move the delivery on; returns its new status (None if the lease was lost)."""
    with session_factory() as session:
        delivery = session.get(Delivery, claim.delivery_id)
        if delivery is None:
            return None
        session.add(DeliveryAttempt(
            id=new_id(), delivery_id=delivery.id, attempted_at=attempted_at, target=result.target,
            status_code=result.status_code, error=result.error, response_body=result.response_body,
            duration_ms=result.duration_ms, outcome=result.outcome,
        ))
        attempts = delivery.attempt_count + 1
        values: dict = {"attempt_count": attempts, "claimed_until": None, "claim_token": None,
                        "last_error": _describe_failure(result)}
        if result.outcome == Outcome.DELIVERED:
            values |= {"status": DeliveryStatus.DELIVERED, "completed_at": now}
        elif result.outcome == Outcome.REJECTED:
            values |= {"status": DeliveryStatus.REJECTED, "completed_at": now}
        elif window_is_over(created_at=as_utc(delivery.window_started_at), now=now, settings=settings):
            values |= {"status": DeliveryStatus.FAILED, "completed_at": now}
        else:
            values |= {"next_attempt_at": now + next_delay(attempt=attempts, settings=settings)}
        # Only the lease holder moves the delivery on; a worker whose lease ran out keeps its
        # attempt on record but leaves the state to the worker that took over.
        moved = session.execute(
            update(Delivery).where(Delivery.id == delivery.id, Delivery.claim_token == claim.token)
            .values(**values).execution_options(synchronize_session=False)
        ).rowcount
        session.commit()
        return values.get("status", DeliveryStatus.PENDING) if moved == 1 else None


def release_claim(*, session_factory: sessionmaker[Session], claim: Claim) -> None:
    """Give a lease back unused (the worker is stopping before sending)."""
    with session_factory() as session:
        session.execute(
            update(Delivery).where(Delivery.id == claim.delivery_id, Delivery.claim_token == claim.token)
            .values(claimed_until=None, claim_token=None)
        )
        session.commit()


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


def _describe_failure(result: SendResult) -> str | None:
    if result.outcome == Outcome.DELIVERED:
        return None
    if result.error:
        return result.error
    return f"HTTP {result.status_code}" if result.status_code else "unknown failure"


def matched_provider_names(*, session: Session, lead_id: str) -> list[str]:
    """The providers a lead was matched to, for the consumer's thank-you answer."""
    rows = session.execute(
        select(Provider.name).join(Delivery, Delivery.provider_id == Provider.id)
        .where(Delivery.lead_id == lead_id).distinct().order_by(Provider.name)
    ).all()
    return [name for (name,) in rows]
