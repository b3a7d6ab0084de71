"""The audit log: who did what to which record, from where. Entries are added, never changed."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.access.models import AuditEntry, add_audit_entry
from servicematch.console.models import Operator
from servicematch.console.paging import decode_int_cursor, iso
from servicematch.console.shapes import Shape


class Action:
    SIGN_IN = "signin.success"
    SIGN_IN_FAILED = "signin.failure"
    SIGN_OUT = "signout"
    LEAD_VIEW = "lead.view"
    LEAD_EXPORT = "lead.export"
    # An admin's page of the lead list, contact details in clear: its filters, no personal data.
    LEAD_LIST = "lead.list"
    DELIVERY_RETRY = "delivery.retry"
    PROVIDER_ADD = "provider.add"
    PROVIDER_CHANGE = "provider.change"
    PROVIDER_DISABLE = "provider.disable"
    PROVIDER_ENABLE = "provider.enable"
    PROVIDER_TEST_SEND = "provider.test_send"
    BUYER_ADD = "buyer.add"
    BUYER_CHANGE = "buyer.change"
    BUYER_PAUSE = "buyer.pause"
    BUYER_RESUME = "buyer.resume"
    BUYER_TEST_PING = "buyer.test_ping"
    BUYER_TEST_POST = "buyer.test_post"
    APPLICATION_APPROVE = "application.approve"
    APPLICATION_REJECT = "application.reject"
    PROVIDER_INVITE = "provider.invite"
    PROVIDER_INVITE_AGAIN = "provider.invite_again"
    LICENCE_CHECKED = "provider.licence_checked"
    CREDIT_APPROVE = "credit.approve"
    CREDIT_DENY = "credit.deny"
    REVIEW_HIDE = "review.hide"


class AuditRow(Shape):
    at: str | None
    # The operator's e-mail (a provider account's for portal.* actions); null or empty when unknown.
    operator: str | None
    action: str
    target: str | None
    ip: str | None
    # What the action was about, as recorded with it (an object; {} when nothing).
    detail: Any


class AuditPage(Shape):
    items: list[AuditRow]
    nextCursor: str | None


def record(session: Session, *, action: str, operator: Operator | None, ip: str, target: str = "",
           detail: dict | None = None, operator_email: str | None = None) -> None:
    """Add an entry to the caller's transaction: it commits with the action it describes."""
    add_audit_entry(session, action=action, actor_id=operator.id if operator else None,
                    actor_email=operator.email if operator else operator_email or "", ip=ip, target=target,
                    detail=detail)


def audit_page(session: Session, *, cursor: str | None, limit: int) -> dict:
    """Newest first; the cursor is the id of the last entry shown."""
    query = select(AuditEntry).order_by(AuditEntry.id.desc()).limit(limit + 1)
    before = decode_int_cursor(cursor)
    if before is not None:
        query = query.where(AuditEntry.id < before)
    rows = list(session.scalars(query).all())
    items = [
        {"at": iso(row.at), "operator": row.operator_email, "action": row.action, "target": row.target,
         "ip": row.ip, "detail": row.detail}
        for row in rows[:limit]
    ]
    return {"items": items, "nextCursor": str(rows[limit - 1].id) if len(rows) > limit else None}
