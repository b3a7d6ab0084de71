"""Tables for accepted leads and the consent evidence stored with each."""

from __future__ import annotations

from datetime import datetime
from typing import ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Computed,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    case,
    column,
    func,
    literal,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from servicematch.catalog.schema import SITE_SOURCE
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.orm import Base

LEAD_ACCEPTED = "lead.accepted"
# Lead.quality_status: passed the gate; held for an operator's review; released by one after a
# hold (routed as if it had passed); rejected by one (sold to nobody, offered to nobody).
QUALITY_PASSED = "passed"
QUALITY_HELD = "held"
QUALITY_RELEASED = "released"
QUALITY_REJECTED = "rejected"


def _clicked(key: str):
    return func.coalesce(column("click", JSON)[key].as_string(), literal(""))


# Where a lead came from: subid1's value, else "subid2:<value>", else "fbclid" when one was
# present, else the lead's own source as its payload states it ("website"): the console groups,
# filters, lists and exports leads by it, and shows nothing the lead does not say.
SOURCE = case(
    (_clicked("subid1") != "", _clicked("subid1")),
    (_clicked("subid2") != "", literal("subid2:") + _clicked("subid2")),
    (_clicked("fbclid") != "", literal("fbclid")),
    else_=literal(SITE_SOURCE),
)


class Lead(Base):
    """One consumer request. Personal data lives only in `personal_data`, encrypted.

    `source` (SOURCE) is a column the database derives from `click` whenever a lead is written,
    so reading it costs no JSON parsing (stored on PostgreSQL; computed on read, and kept in
    indexes, on SQLite). The ORM leaves it out of the mapping, since nothing may write it:
    queries use `Lead.__table__.c.source`.
    """

    __tablename__ = "leads"
    __table_args__ = (Column("source", String(120), Computed(SOURCE, persisted=True)),)
    __mapper_args__: ClassVar[dict] = {"exclude_properties": ["source"]}

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    # The browser's requestId doubles as the idempotency key; kept for the lead's lifetime.
    request_id: Mapped[str] = mapped_column(String(64), unique=True)
    # What the consumer is shown and quotes (servicematch.kernel.references): set by intake with
    # the lead, never changed; the INSERT that stores the lead is all it costs.
    reference: Mapped[str] = mapped_column(String(8), unique=True, index=True)
    request_hash: Mapped[str] = mapped_column(String(64))
    flow: Mapped[str] = mapped_column(String(8))
    vertical: Mapped[str] = mapped_column(String(32))
    service: Mapped[str] = mapped_column(String(64), index=True)
    # hiddenParams.category: the buyer's name for the service (e.g. "Workers Compensation").
    category: Mapped[str] = mapped_column(String(64))
    cid: Mapped[int] = mapped_column(Integer)
    is_test: Mapped[bool] = mapped_column(Boolean, default=False)
    is_duplicate: Mapped[bool] = mapped_column(Boolean, default=False)
    do_not_sell: Mapped[bool] = mapped_column(Boolean, default=False)
    # Keyed hashes (HMAC-SHA256) find repeats without decrypting anything.
    email_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    phone_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    # The street address and ZIP, normalised (intake/submission.py, address_key), for the quality
    # gate's velocity check: many leads from one address in minutes.
    address_hash: Mapped[str | None] = mapped_column(String(64), index=True)
    state: Mapped[str | None] = mapped_column(String(2))
    zip: Mapped[str | None] = mapped_column(String(5))
    personal_data: Mapped[bytes] = mapped_column(LargeBinary)
    # Choice answers only, by mapping (cq1...); date of birth and free text are in personal_data.
    answers: Mapped[dict] = mapped_column(JSON, default=dict)
    click: Mapped[dict] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    # The quality gate's verdict (docs/quality.md), written by routing before any ping: a score
    # from 0 to 100, its reason codes, and QUALITY_* below (None until the gate has run).
    quality_score: Mapped[int | None] = mapped_column(Integer)
    quality_reasons: Mapped[list | None] = mapped_column(JSON)
    quality_status: Mapped[str | None] = mapped_column(String(16), index=True)
    # What intake kept for the gate: {"form_seconds": the browser's first step to submit,
    # "tab_id": its funnel-events tab, "honeypot": whether the hidden field was filled,
    # "recaptcha_score": reCAPTCHA's v3 score}, each only when known; None for older leads.
    quality_signals: Mapped[dict | None] = mapped_column(JSON)
    # What TrustedForm said of the lead's certificate (verified, retained until), as posts' consent
    # proof carries it (quality/gate.py, consent_proof_fields); written by routing with the score.
    quality_proof: Mapped[dict | None] = mapped_column(JSON)

    consent: Mapped[ConsentRecord] = relationship(back_populates="lead", uselist=False)


class ConsentRecord(Base):
    """What the visitor agreed to, exactly as shown, and the circumstances of the agreement."""

    __tablename__ = "consent_records"
    # The quality gate counts recent leads from one client address (quality/history.py).
    __table_args__ = (Index("ix_consent_records_ip_address_consented_at", "ip_address", "consented_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    lead_id: Mapped[str] = mapped_column(ForeignKey("leads.id", ondelete="CASCADE"), unique=True)
    consent_text: Mapped[str] = mapped_column(Text)
    consent_text_sha256: Mapped[str] = mapped_column(String(64))
    partner_list_version: Mapped[str] = mapped_column(String(32))
    consented_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ip_address: Mapped[str | None] = mapped_column(String(45))
    user_agent: Mapped[str | None] = mapped_column(Text)
    page_url: Mapped[str | None] = mapped_column(Text)
    trustedform_cert_url: Mapped[str | None] = mapped_column(Text)
    global_privacy_control: Mapped[bool] = mapped_column(Boolean, default=False)

    lead: Mapped[Lead] = relationship(back_populates="consent")


class LeadEvent(Base):
    """"A lead was accepted": written in the lead's own transaction, consumed by routing.

    The request that stored the lead does nothing else: routing (run by the worker) claims these
    rows under a lease, decides who gets the lead and marks the row done in the transaction that
    commits its decision, so a worker that dies mid-way leaves the row to be claimed again.
    """

    __tablename__ = "lead_events"
    __table_args__ = (Index("ix_lead_events_pending", "done_at", "created_at"),)

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    lead_id: Mapped[str] = mapped_column(ForeignKey("leads.id", ondelete="CASCADE"), index=True)
    type: Mapped[str] = mapped_column(String(32), default=LEAD_ACCEPTED)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    claim_token: Mapped[str | None] = mapped_column(String(36))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    done_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
