"""What signing in stores for both kinds of account: the columns of an account and of a session row,
the audit log, and the e-mailed sign-in links."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, BigInteger, Boolean, DateTime, Index, LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.orm import Base, BigId


class PasswordAccountColumns:
    """A person who signs in to a portal with an e-mail, a password and an optional second factor:
    every account table has these columns, and a foreign key to what the person signs in for.

    The password is unset until the invitation's link is used.
    """

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200))
    # The TOTP seed, encrypted with the data key; None while the second factor is off.
    totp_secret: Mapped[bytes | None] = mapped_column(LargeBinary)
    # A seed shown but not yet confirmed with a code from the person's app.
    totp_pending: Mapped[bytes | None] = mapped_column(LargeBinary)
    totp_last_step: Mapped[int | None] = mapped_column(BigInteger)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    password_changed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class SessionColumns:
    """A signed-in browser: every session table has these columns, and a foreign key to its account.

    Only a hash of the cookie's token is stored.
    """

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # The absolute limit; the idle limit is last_seen_at plus the idle setting.
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    ip: Mapped[str | None] = mapped_column(String(45))
    user_agent: Mapped[str | None] = mapped_column(String(300))


class AuditEntry(Base):
    """One action by an operator, or by a provider in its portal (actions named portal.*).

    Rows are only ever added: no route, command or function changes them.
    """

    __tablename__ = "audit_log"
    __table_args__ = (
        # Sign-in throttling counts recent failures per account and per address.
        Index("ix_audit_log_action_target_at", "action", "target", "at"),
        Index("ix_audit_log_action_ip_at", "action", "ip", "at"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)
    # No foreign key: the entry outlives whatever it names. The columns keep their first names:
    # for a provider's action they hold its account's id and e-mail.
    operator_id: Mapped[str | None] = mapped_column(String(36))
    operator_email: Mapped[str] = mapped_column(String(254))
    action: Mapped[str] = mapped_column(String(40))
    target: Mapped[str] = mapped_column(String(254), default="")
    ip: Mapped[str] = mapped_column(String(45), default="")
    detail: Mapped[dict] = mapped_column(JSON, default=dict)


class SignInLink(Base):
    """An e-mailed one-time sign-in link, for a console or a portal account (`surface`).

    Only a hash of the link's token is stored. No foreign key: the two surfaces keep their accounts
    in tables of their own; a link whose account is gone is refused like a spent one.
    """

    __tablename__ = "signin_links"
    __table_args__ = (
        # Links sent lately to one account (a few an hour) and its outstanding ones.
        Index("ix_signin_links_surface_account_created", "surface", "account_id", "created_at"),
    )

    id: Mapped[str] = mapped_column(String(36), primary_key=True, default=new_id)
    surface: Mapped[str] = mapped_column(String(16))
    account_id: Mapped[str] = mapped_column(String(36))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


def add_audit_entry(session, *, action: str, actor_id: str | None, actor_email: str, ip: str,
                    target: str = "", detail: dict | None = None) -> None:
    """Add an entry to the caller's transaction: it commits with the action it describes."""
    session.add(AuditEntry(at=utcnow(), operator_id=actor_id, operator_email=(actor_email or "")[:254],
                           action=action, target=target[:254], ip=(ip or "")[:45], detail=detail or {}))
