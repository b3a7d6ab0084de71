"""Tables of the operator console: operators, their sign-in sessions and the audit log.

Also the indexes the console's reads need on tables other packages own (leads, deliveries):
they are declared here, next to the queries that need them, and created by the console's
migration.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.delivery.models import Delivery
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.orm import Base

# SQLite only auto-increments an INTEGER PRIMARY KEY; PostgreSQL gets a 64-bit identity.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class Role:
    ADMIN = "admin"
    ANALYST = "analyst"
    ALL = (ADMIN, ANALYST)


class Operator(Base):
    """A person who signs in to the console. Disabled, never deleted, so the audit log stays whole."""

    __tablename__ = "operators"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(16))
    # The TOTP seed, encrypted with the data key; None while the second factor is off.
    totp_secret: Mapped[bytes | None] = mapped_column(LargeBinary)
    # The last accepted TOTP time step: a code is good once, not for its whole 30 seconds.
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    password_changed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OperatorSession(Base):
    """A signed-in browser. Only a hash of the cookie's token is stored."""

    __tablename__ = "operator_sessions"

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    operator_id: Mapped[str] = mapped_column(ForeignKey("operators.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The absolute limit; the idle limit is last_seen_at plus the idle setting.
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    ip: Mapped[str | None] = mapped_column(String(45))
    user_agent: Mapped[str | None] = mapped_column(String(300))


class AuditEntry(Base):
    """One operator action. Rows are only ever added: no route, command or function changes them."""

    __tablename__ = "audit_log"
    __table_args__ = (
        # Sign-in throttling counts recent failures per account and per address.
        Index("ix_audit_log_action_target_at", "action", "target", "at"),
        Index("ix_audit_log_action_ip_at", "action", "ip", "at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    # No foreign key: the entry outlives whatever it names.
    operator_id: Mapped[str | None] = mapped_column(String(36))
    operator_email: Mapped[str] = mapped_column(String(254))
    action: Mapped[str] = mapped_column(String(40))
    target: Mapped[str] = mapped_column(String(254), default="")
    ip: Mapped[str] = mapped_column(String(45), default="")
    detail: Mapped[dict] = mapped_column(JSON, default=dict)


# The dashboard's per-day counts by vertical, service, state and source over a date range read
# this index alone (an index-only scan on PostgreSQL), not the wide lead rows.
Index("ix_leads_console_day", Lead.created_at, Lead.vertical, Lead.service, Lead.state, Lead.__table__.c.source)
# Delivery health over a date range, and the failing-deliveries list, newest first.
Index("ix_deliveries_created_at_status", Delivery.created_at, Delivery.status)
Index("ix_deliveries_status_created_at", Delivery.status, Delivery.created_at)
