"""Tables of the provider portal: applications to join, provider accounts, their sessions, one-time links."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.access.models import SessionColumns
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


class ProviderAccount(Base):
    """Who signs in to the portal for a provider. The password is unset until the invitation's link is used."""

    __tablename__ = "provider_accounts"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    provider_id: Mapped[str] = mapped_column(ForeignKey("providers.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    # The TOTP seed, encrypted with the data key; None while the second factor is off.
    totp_secret: Mapped[bytes | None] = mapped_column(LargeBinary)
    # A seed shown to the provider but not yet confirmed with a code from its app.
    totp_pending: Mapped[bytes | None] = mapped_column(LargeBinary)
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    password_changed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


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
