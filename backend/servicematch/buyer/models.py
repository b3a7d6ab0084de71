"""Tables of the buyer portal: a buyer's people, their sessions and one-time links, API keys,
returns and feedback. The buyer itself, and what it may change, lives in routing.models.Buyer."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.access.models import PasswordAccountColumns, SessionColumns
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.orm import Base


class BuyerAccount(PasswordAccountColumns, Base):
    """One person who signs in for a buyer (a buyer may have several). The password is unset
    until the invitation's link is used."""

    __tablename__ = "buyer_accounts"

    buyer_id: Mapped[str] = mapped_column(ForeignKey("buyers.id", ondelete="CASCADE"), index=True)
    # The operator's e-mail (or "cli") that sent the invitation.
    invited_by: Mapped[str] = mapped_column(String(254), default="")


class BuyerSession(SessionColumns, Base):
    """A buyer's person's signed-in browser: a table of its own, never an operator's or a provider's."""

    __tablename__ = "buyer_sessions"

    account_id: Mapped[str] = mapped_column(ForeignKey("buyer_accounts.id", ondelete="CASCADE"), index=True)


class BuyerTokenPurpose:
    INVITE = "invite"  # set the first password (72 hours)
    RESET = "reset"  # set a new password (1 hour)


class BuyerToken(Base):
    """The token of a one-time link (invitation, new password), stored only as a hash."""

    __tablename__ = "buyer_tokens"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    purpose: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("buyer_accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class BuyerApiKey(Base):
    """A key a buyer's system sends as `Authorization: Bearer <key>`. Shown once; only its SHA-256
    is stored, with its first characters so people can tell keys apart."""

    __tablename__ = "buyer_api_keys"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    buyer_id: Mapped[str] = mapped_column(ForeignKey("buyers.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    # "smk_AbCd": enough to recognise the key in a list, far too little to guess the rest.
    prefix: Mapped[str] = mapped_column(String(16))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_by: Mapped[str] = mapped_column(String(254), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ReturnReason:
    WRONG_PHONE = "wrong_phone"  # wrong or disconnected phone number
    DUPLICATE = "duplicate"  # a lead this buyer already bought
    FRAUD = "fraud"  # fake or fraudulent
    UNDER_18 = "under_18"  # the consumer is under 18
    OUTSIDE_FILTERS = "outside_filters"  # outside the buyer's services, area or hours
    OTHER = "other"  # anything else, with a text
    ALL = (WRONG_PHONE, DUPLICATE, FRAUD, UNDER_18, OUTSIDE_FILTERS, OTHER)


class ReturnStatus:
    PENDING = "pending"  # waiting for an operator
    APPROVED = "approved"  # the price is off what the buyer owes
    DENIED = "denied"  # the lead stays sold, at its price
    ALL = (PENDING, APPROVED, DENIED)


class LeadReturn(Base):
    """A buyer's return of a lead it bought: one per sale. Approved, it takes the sale's price
    off the buyer's bill and out of revenue. No foreign key to the lead: the return, like the
    sale, outlives an erased lead's personal data."""

    __tablename__ = "lead_returns"
    __table_args__ = (
        Index("ix_lead_returns_buyer_created", "buyer_id", "created_at"),
        Index("ix_lead_returns_status_created", "status", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sale_id: Mapped[str] = mapped_column(ForeignKey("sales.id", ondelete="CASCADE"), unique=True)
    buyer_id: Mapped[str] = mapped_column(ForeignKey("buyers.id", ondelete="CASCADE"))
    lead_id: Mapped[str] = mapped_column(String(36), index=True)
    reason: Mapped[str] = mapped_column(String(32))
    note: Mapped[str | None] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), default=ReturnStatus.PENDING)
    amount_cents: Mapped[int] = mapped_column(Integer)
    # Who asked: a person's e-mail, or "key:<name>" for an API key.
    requested_by: Mapped[str] = mapped_column(String(254), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # "system" for a return the rules decided, else the operator's e-mail.
    decided_by: Mapped[str | None] = mapped_column(String(254))
    decision_note: Mapped[str | None] = mapped_column(Text)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class FeedbackStatus:
    CONTACTED = "contacted"
    APPOINTMENT = "appointment"
    QUOTED = "quoted"
    SOLD = "sold"
    BAD = "bad"  # with a reason
    ALL = (CONTACTED, APPOINTMENT, QUOTED, SOLD, BAD)


class LeadFeedback(Base):
    """What became of a lead a buyer bought, as the buyer tells it; the newest row is its status."""

    __tablename__ = "lead_feedback"
    __table_args__ = (
        Index("ix_lead_feedback_sale_created", "sale_id", "created_at"),
        Index("ix_lead_feedback_buyer_created", "buyer_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    sale_id: Mapped[str] = mapped_column(ForeignKey("sales.id", ondelete="CASCADE"))
    buyer_id: Mapped[str] = mapped_column(ForeignKey("buyers.id", ondelete="CASCADE"))
    lead_id: Mapped[str] = mapped_column(String(36))
    status: Mapped[str] = mapped_column(String(16))
    reason: Mapped[str | None] = mapped_column(String(200))
    note: Mapped[str | None] = mapped_column(Text)
    # "portal" or "api"
    source: Mapped[str] = mapped_column(String(16))
    given_by: Mapped[str] = mapped_column(String(254), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
