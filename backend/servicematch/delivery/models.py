"""Tables for providers, the delivery outbox and the audit trail of every attempt."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.orm import Base


class DeliveryStatus:
    PENDING = "pending"
    DELIVERED = "delivered"
    # The receiver said no (a 4xx other than 408/429): sending again would get the same answer.
    REJECTED = "rejected"
    # Retried for the whole retry window without success.
    FAILED = "failed"
    # Never sent, on purpose (do-not-sell, duplicate); kept so a lead's history says why.
    SKIPPED = "skipped"
    ALL = (PENDING, DELIVERED, REJECTED, FAILED, SKIPPED)


class TargetKind:
    # The fixed buyer of SERVICEMATCH_BUYER_URL: every sellable lead, retried for 24 hours.
    BUYER = "buyer"
    # A buyer of the buyers table that won a lead in routing's auction: one attempt within the
    # post deadline; a refusal, an error or no answer passes the lead to the next bid.
    BUYER_POST = "buyer_post"
    PROVIDER_WEBHOOK = "provider_webhook"
    PROVIDER_EMAIL = "provider_email"
    # The consumer's own mailbox: consent receipts (servicematch.privacy).
    CONSUMER_EMAIL = "consumer_email"
    # A provider accepted the lead's offer in the portal and sees its details there: written
    # delivered in the accepting transaction, as the record of who got the consumer's details.
    # Nothing sends it (the worker claims pending rows only, and this one never is).
    PROVIDER_PORTAL = "provider_portal"


# A lead's own deliveries: to the buyer and to providers (not the consumer's receipt e-mail).
LEAD_KINDS = (TargetKind.BUYER, TargetKind.BUYER_POST, TargetKind.PROVIDER_WEBHOOK, TargetKind.PROVIDER_EMAIL,
              TargetKind.PROVIDER_PORTAL)


class ProviderMode:
    # Every matched lead is sent in full, by webhook and/or e-mail (providers added by operators).
    DIRECT = "direct"
    # Providers who joined through the portal: each matched lead is offered to them first, without
    # the consumer's contact details, to accept (and be charged) or decline (routing/offers.py).
    REVIEW = "review"


class PausedBy:
    OPERATOR = "operator"  # only an operator resumes it
    PROVIDER = "provider"  # the provider paused itself in the portal, and may resume


class Provider(Base):
    """A professional who receives matched leads in its services and service area."""

    __tablename__ = "providers"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    name: Mapped[str] = mapped_column(String(200))
    contact_email: Mapped[str] = mapped_column(String(254))
    webhook_url: Mapped[str | None] = mapped_column(Text)
    webhook_secret: Mapped[str | None] = mapped_column(String(200))
    # Service slugs ("hvac") or vertical-qualified slugs ("legal/debt-relief").
    services: Mapped[list] = mapped_column(JSON, default=list)
    states: Mapped[list] = mapped_column(JSON, default=list)
    zips: Mapped[list] = mapped_column(JSON, default=list)
    radius_miles: Mapped[float | None] = mapped_column(Float)
    daily_cap: Mapped[int | None] = mapped_column(Integer)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    # Round robin: the provider matched longest ago goes first.
    last_matched_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The portal's profile (servicematch.portal). A ProviderMode.
    mode: Mapped[str] = mapped_column(String(16), default=ProviderMode.DIRECT, server_default=ProviderMode.DIRECT)
    # Take each offer at once, without the provider's tap: charged, and sent the lead in full.
    auto_accept: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # When leads may come: "Mon-Fri 08:00-18:00 America/Chicago" (routing/hours.py); empty: always.
    hours: Mapped[str | None] = mapped_column(String(120))
    # Most a week's accepted leads may cost (weeks from Monday 00:00 UTC); routing/matching.py.
    weekly_budget_cents: Mapped[int | None] = mapped_column(Integer)
    # Who set active to false: a PausedBy, None while active.
    paused_by: Mapped[str | None] = mapped_column(String(16))
    contact_name: Mapped[str | None] = mapped_column(String(200))
    phone: Mapped[str | None] = mapped_column(String(10))
    licence_number: Mapped[str | None] = mapped_column(String(40))
    licence_state: Mapped[str | None] = mapped_column(String(2))
    # Set when an operator checked the licence in the console (audited): the verified badge.
    verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # What one accepted lead costs this provider; None: the service's list price (routing/pricing.py).
    lead_price_cents: Mapped[int | None] = mapped_column(Integer)
    # Opted in to exclusive leads: offered alone, at the exclusive price, when no buyer has the lead.
    exclusive_leads: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Most credits a calendar month may approve, as a share (percent) of that month's accepted leads.
    credit_cap_percent: Mapped[int] = mapped_column(Integer, default=20, server_default="20")
    # The least quality score (0-100) of a lead it is sent or offered; None: any (routing/buyer_rules.py).
    min_quality: Mapped[int | None] = mapped_column(Integer)


class Delivery(Base):
    """One lead to one target: an outbox row stored in the lead's own transaction."""

    __tablename__ = "deliveries"
    # One row per lead and target is what makes "never twice to the same provider" hold.
    __table_args__ = (
        UniqueConstraint("lead_id", "target_key", name="uq_deliveries_lead_id_target_key"),
        Index("ix_deliveries_due", "status", "next_attempt_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    lead_id: Mapped[str] = mapped_column(ForeignKey("leads.id", ondelete="CASCADE"), index=True)
    provider_id: Mapped[str | None] = mapped_column(
        ForeignKey("providers.id", ondelete="SET NULL"), index=True
    )
    # A buyer of routing's buyers table (servicematch.routing.models.Buyer), for buyer_post rows
    # and the privacy notices that follow them.
    buyer_id: Mapped[str | None] = mapped_column(ForeignKey("buyers.id", ondelete="SET NULL"), index=True)
    kind: Mapped[str] = mapped_column(String(24))
    # What is sent: the lead itself, or a privacy message about it (servicematch.privacy.notices:
    # receipt, lead.revoked, lead.deleted, lead.corrected) to the same party by the same channel.
    payload_kind: Mapped[str] = mapped_column(String(24), default="lead", server_default="lead")
    target_key: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(16), default=DeliveryStatus.PENDING)
    attempt_count: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # A claim is a lease: when a worker dies mid-send the row is claimable again after this.
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    claim_token: Mapped[str | None] = mapped_column(String(36))
    last_error: Mapped[str | None] = mapped_column(Text)
    # Retries stop once this is older than the retry window; a manual retry starts a new window.
    window_started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    attempts: Mapped[list[DeliveryAttempt]] = relationship(
        back_populates="delivery", order_by="DeliveryAttempt.attempted_at"
    )
    provider: Mapped[Provider | None] = relationship()
    # Resolved by name in the ORM's registry: routing, which owns buyers, imports delivery, not
    # the other way round.
    buyer: Mapped[Buyer | None] = relationship("Buyer")  # noqa: F821
    # Lets one flush insert a new lead before its deliveries (the unit of work orders by it).
    lead: Mapped[Lead] = relationship()


class DeliveryAttempt(Base):
    """What happened on one try: when, where, the answer or error, and how long it took."""

    __tablename__ = "delivery_attempts"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    delivery_id: Mapped[str] = mapped_column(
        ForeignKey("deliveries.id", ondelete="CASCADE"), index=True
    )
    attempted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    target: Mapped[str] = mapped_column(Text)
    status_code: Mapped[int | None] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    response_body: Mapped[str | None] = mapped_column(Text)
    duration_ms: Mapped[int] = mapped_column(Integer)
    outcome: Mapped[str] = mapped_column(String(16))

    delivery: Mapped[Delivery] = relationship(back_populates="attempts")


class DeliveryEndpoint(Base):
    """A receiver's health, shared by every worker: the circuit breaker of one endpoint.

    Endpoints are the buyer (`buyer`), each provider's webhook (`webhook:<provider id>`) and the
    SMTP server (`smtp`). A row exists once an endpoint has failed; success resets it.
    """

    __tablename__ = "delivery_endpoints"

    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    consecutive_failures: Mapped[int] = mapped_column(Integer, default=0)
    # While in the future, nothing is sent to the endpoint; once past, one probe may go.
    paused_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    last_error: Mapped[str | None] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


