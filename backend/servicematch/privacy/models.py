"""Tables of privacy requests, one-time codes, revocations, opt-outs and retention runs.

None holds an e-mail address or phone number in clear: a contact is known by the keyed lookup
hash intake already stores on each lead (`email:<hash>` or `phone:<hash>`).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.orm import Base


class RequestKind:
    ACCESS = "access"
    DELETE = "delete"
    CORRECT = "correct"
    OPT_OUT = "opt_out"
    # Revoking consent to be contacted (TCPA): from a receipt's link or /privacy/choices.
    STOP = "stop"
    ALL = (ACCESS, DELETE, CORRECT, OPT_OUT, STOP)


class PrivacyRequest(Base):
    """One rights request, with the dates the law asks a business to keep."""

    __tablename__ = "privacy_requests"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    kind: Mapped[str] = mapped_column(String(16))
    # web form, stop link or choices page: how the person reached us.
    channel: Mapped[str] = mapped_column(String(16))
    contact_key: Mapped[str] = mapped_column(String(80), index=True)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    # fulfilled, nothing held, refused (and why), expired unverified
    outcome: Mapped[str | None] = mapped_column(Text)
    leads_affected: Mapped[int] = mapped_column(Integer, default=0)
    # A correction's text is personal data: encrypted like a lead's (AES-256-GCM).
    details: Mapped[bytes | None] = mapped_column(LargeBinary)


class VerificationCode(Base):
    """A one-time code proving control of an e-mail address; only its keyed hash is stored."""

    __tablename__ = "privacy_codes"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    request_id: Mapped[str] = mapped_column(
        ForeignKey("privacy_requests.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class LeadRevocation(Base):
    """A lead whose consent to be contacted was withdrawn: when, and how."""

    __tablename__ = "lead_revocations"

    lead_id: Mapped[str] = mapped_column(ForeignKey("leads.id", ondelete="CASCADE"), primary_key=True)
    revoked_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    method: Mapped[str] = mapped_column(String(32))
    request_id: Mapped[str | None] = mapped_column(String(36))


class LeadErasure(Base):
    """A lead whose personal data was erased (a delete request or the retention period)."""

    __tablename__ = "lead_erasures"

    lead_id: Mapped[str] = mapped_column(ForeignKey("leads.id", ondelete="CASCADE"), primary_key=True)
    erased_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    reason: Mapped[str] = mapped_column(String(32))


class ContactSuppression(Base):
    """A contact who opted out of sale and sharing: no later lead of theirs goes to the buyer."""

    __tablename__ = "contact_suppressions"

    contact_key: Mapped[str] = mapped_column(String(80), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    request_id: Mapped[str | None] = mapped_column(String(36))


class UsedLink(Base):
    """A signed stop link that was acted on: a link works once."""

    __tablename__ = "privacy_used_links"

    link_id: Mapped[str] = mapped_column(String(36), primary_key=True)
    used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class RetentionRun(Base):
    """When retention last ran and what it did; the worker runs it once a day."""

    __tablename__ = "retention_runs"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    ran_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    counts: Mapped[dict] = mapped_column(JSON, default=dict)
