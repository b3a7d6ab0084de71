"""Tables of the operator console: operators and their sign-in sessions (the audit log they write
to is servicematch.access.models.AuditEntry, importable from here as well).

Also the indexes the console's reads need on tables other packages own (leads, deliveries):
they are declared here, next to the queries that need them, and created by the console's
migration.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Boolean, DateTime, ForeignKey, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.access.models import AuditEntry, SessionColumns
from servicematch.delivery.models import Delivery
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.orm import Base

__all__ = ["AuditEntry", "Operator", "OperatorSession", "Role"]


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


class OperatorSession(SessionColumns, Base):
    """An operator's signed-in browser (access/sessions.py)."""

    __tablename__ = "operator_sessions"

    operator_id: Mapped[str] = mapped_column(ForeignKey("operators.id", ondelete="CASCADE"), index=True)


# The dashboard's per-day counts by vertical, service, state and source over a date range read
# this index alone (an index-only scan on PostgreSQL), not the wide lead rows.
Index("ix_leads_console_day", Lead.created_at, Lead.vertical, Lead.service, Lead.state, Lead.__table__.c.source)
# Delivery health over a date range, and the failing-deliveries list, newest first.
Index("ix_deliveries_created_at_status", Delivery.created_at, Delivery.status)
Index("ix_deliveries_status_created_at", Delivery.status, Delivery.created_at)
