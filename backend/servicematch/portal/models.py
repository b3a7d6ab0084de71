"""Tables of the provider portal: applications to join, provider accounts, their sessions, one-time
links, credit requests and consumers' reviews."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.access.models import PasswordAccountColumns, SessionColumns
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.orm import Base


class ApplicationStatus:
    UNCONFIRMED = "unconfirmed"  # the applicant has not confirmed the e-mail address yet
    PENDING = "pending"  # confirmed: waits for an operator
    APPROVED = "approved"
    REJECTED = "rejected"
    ALL = (UNCONFIRMED, PENDING, APPROVED, REJECTED)


class ProviderApplication(Base):
    """An application to join from /partner-with-us, reviewed by an operator in the console."""

    __tablename__ = "provider_applications"
    __table_args__ = (Index("ix_provider_applications_status_created_at", "status", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    status: Mapped[str] = mapped_column(String(16), default=ApplicationStatus.UNCONFIRMED)
    business_name: Mapped[str] = mapped_column(String(200))
    contact_name: Mapped[str] = mapped_column(String(200))
    email: Mapped[str] = mapped_column(String(254))
    phone: Mapped[str] = mapped_column(String(10))
    # Catalogue ids, "vertical/slug".
    services: Mapped[list] = mapped_column(JSON, default=list)
    # The area: ZIP codes (with a radius, or not), or states; one of the two.
    zips: Mapped[list] = mapped_column(JSON, default=list)
    radius_miles: Mapped[float | None] = mapped_column(Float)
    states: Mapped[list] = mapped_column(JSON, default=list)
    licence_number: Mapped[str | None] = mapped_column(String(40))
    licence_state: Mapped[str | None] = mapped_column(String(2))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    confirmed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    decided_by: Mapped[str | None] = mapped_column(String(254))
    reject_reason: Mapped[str | None] = mapped_column(Text)
    # The provider an approval created.
    provider_id: Mapped[str | None] = mapped_column(ForeignKey("providers.id", ondelete="SET NULL"))


class ProviderAccount(PasswordAccountColumns, Base):
    """Who signs in to the portal for a provider. The password is unset until the invitation's link is used."""

    __tablename__ = "provider_accounts"

    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"), index=True)


class ProviderSession(SessionColumns, Base):
    """A provider's signed-in browser: a table of its own, never an operator's session."""

    __tablename__ = "provider_sessions"

    account_id: Mapped[str] = mapped_column(ForeignKey("provider_accounts.id", ondelete="CASCADE"), index=True)


class TokenPurpose:
    CONFIRM = "confirm"  # an applicant's e-mail address
    INVITE = "invite"  # set the first password (72 hours)
    RESET = "reset"  # set a new password (1 hour)


class PortalToken(Base):
    """The token of a one-time link, stored only as a hash: good once, until it expires."""

    __tablename__ = "portal_tokens"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    purpose: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    account_id: Mapped[str | None] = mapped_column(ForeignKey("provider_accounts.id", ondelete="CASCADE"),
                                                   index=True)
    application_id: Mapped[str | None] = mapped_column(
        ForeignKey("provider_applications.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class CreditReason:
    WRONG_PHONE = "wrong_phone"          # wrong or disconnected phone
    DUPLICATE = "duplicate"              # the provider already bought this consumer's request
    OUTSIDE_AREA = "outside_area"
    WRONG_SERVICE = "wrong_service"
    COMPETITOR = "competitor_testing"
    OTHER = "other"                      # with the provider's own words
    ALL = (WRONG_PHONE, DUPLICATE, OUTSIDE_AREA, WRONG_SERVICE, COMPETITOR, OTHER)


class CreditStatus:
    PENDING = "pending"    # waits for an operator
    APPROVED = "approved"  # the credit is in the provider's ledger
    DENIED = "denied"
    ALL = (PENDING, APPROVED, DENIED)


class CreditRequest(Base):
    """A provider's request for a credit on a lead it accepted: one per accepted offer."""

    __tablename__ = "credit_requests"
    __table_args__ = (
        UniqueConstraint("offer_id", name="uq_credit_requests_offer_id"),
        Index("ix_credit_requests_status_created_at", "status", "created_at"),
        Index("ix_credit_requests_provider_created_at", "provider_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"))
    offer_id: Mapped[str | None] = mapped_column(ForeignKey("provider_offers.id", ondelete="SET NULL"))
    lead_id: Mapped[str | None] = mapped_column(ForeignKey("leads.id", ondelete="SET NULL"), index=True)
    reason: Mapped[str] = mapped_column(String(32))
    # The provider's words (required for "other"); never shown to the consumer.
    detail: Mapped[str | None] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default=CreditStatus.PENDING)
    # What the credit gives back: the charge of the lead, in cents.
    amount_cents: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # An operator's e-mail, or "automatic" for a duplicate approved at once.
    decided_by: Mapped[str | None] = mapped_column(String(254))
    decision_note: Mapped[str | None] = mapped_column(Text)


class ProviderReview(Base):
    """A consumer's rating of a provider that accepted its lead, sent through a signed link."""

    __tablename__ = "provider_reviews"
    __table_args__ = (
        UniqueConstraint("offer_id", name="uq_provider_reviews_offer_id"),
        Index("ix_provider_reviews_provider_created_at", "provider_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"))
    # The accepted offer the consumer rates; NULL once the lead is erased (the rating stays).
    offer_id: Mapped[str | None] = mapped_column(ForeignKey("provider_offers.id", ondelete="SET NULL"))
    stars: Mapped[int] = mapped_column(Integer)
    # "A few words", at most 1,000 characters; shown to the provider and operators.
    text: Mapped[str | None] = mapped_column(Text)
    # Where the job was, for the profile ("Austin, TX"), never the consumer's name.
    city: Mapped[str | None] = mapped_column(String(100))
    state: Mapped[str | None] = mapped_column(String(2))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Hidden by an operator (audited): left out of averages and lists.
    hidden_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    hidden_by: Mapped[str | None] = mapped_column(String(254))
