"""The buyer's own audit log: every change to its settings, URLs, secret, pause and keys, with who
made it, newest first (GET /api/buyer/audit and /api/buyer/v1/audit).

Entries live in the one audit log (access.models.AuditEntry) under the buyer's id as their target,
written in the transaction of the change they describe. An operator's change to the buyer in the
console is listed too, as made by "ServiceMatch": the buyer learns what changed, not which of our
people changed it or from where.
"""

from __future__ import annotations

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.access.models import AuditEntry, add_audit_entry
from servicematch.buyer.accounts import Action as AccountAction
from servicematch.buyer.auth import Caller
from servicematch.buyer.models import BuyerAccount, BuyerApiKey
from servicematch.errors import ServiceMatchError
from servicematch.portal.ledger import iso

OPERATOR = "ServiceMatch"
BAD_CURSOR = "This cursor is not one the list gave; start again without it."


class Action:
    """What a buyer's person or key changed in the portal's settings (detail: field: [old, new])."""

    SETTINGS_CHANGE = "buyer.settings.change"
    # Apart from the operator's own switch (console: buyer.pause, buyer.resume).
    PAUSE = "buyer.self.pause"
    RESUME = "buyer.self.resume"
    URLS_CHANGE = "buyer.urls.change"
    SECRET_ROTATE = "buyer.secret.rotate"


# The console's changes to a buyer (console/audit.py Action.BUYER_*): the console sits above this
# package, so their names are written here. Its pause and resume are the operator's switch; the
# buyer's own are buyer.self.*.
OPERATOR_ACTIONS = ("buyer.add", "buyer.change", "buyer.pause", "buyer.resume")
# The buyer's own Add funds and automatic top-up (buyer/router_funds.py, which imports this module).
FUNDS_ACTIONS = ("buyer.funds.checkout", "buyer.funds.topup_set", "buyer.funds.topup_stop")
LISTED = tuple(dict.fromkeys((Action.SETTINGS_CHANGE, Action.PAUSE, Action.RESUME, Action.URLS_CHANGE,
                              Action.SECRET_ROTATE, AccountAction.KEY_CREATE, AccountAction.KEY_REVOKE,
                              *FUNDS_ACTIONS, *OPERATOR_ACTIONS)))


class BuyerAuditEntry(BaseModel):
    at: str | None
    # A person's e-mail, "key:<name>" for an API key, or "ServiceMatch" for an operator.
    who: str
    action: str
    # What changed: {field: [old, new]} for settings (never a secret), else what the action was about.
    detail: dict


class BuyerAuditPage(BaseModel):
    items: list[BuyerAuditEntry]
    nextCursor: str | None


def record(session: Session, caller: Caller, action: str, detail: dict) -> None:
    """The caller's change, on the log under its buyer, in the transaction that makes it."""
    add_audit_entry(session, action=action, actor_id=caller.actor_id, actor_email=caller.who, ip=caller.ip,
                    target=caller.buyer.id, detail=detail)


def _own_actors(session: Session, buyer_id: str) -> set[str]:
    """The ids of the buyer's people and keys: the entries they made name them, the rest were ours."""
    people = session.scalars(select(BuyerAccount.id).where(BuyerAccount.buyer_id == buyer_id))
    keys = session.scalars(select(BuyerApiKey.id).where(BuyerApiKey.buyer_id == buyer_id))
    return {*people, *keys}


def audit_page(session: Session, buyer_id: str, *, cursor: str | None, limit: int) -> BuyerAuditPage:
    """Newest first; the cursor is the id of the last entry shown. Listed by action and target, the
    audit log's own index, so a busy log costs no more than a quiet one."""
    query = (select(AuditEntry).where(AuditEntry.action.in_(LISTED), AuditEntry.target == buyer_id)
             .order_by(AuditEntry.id.desc()).limit(limit + 1))
    if cursor:
        if not cursor.isdigit() or len(cursor) > 18:
            raise ServiceMatchError(BAD_CURSOR, fields={"cursor": "unknown cursor"}, status_code=422)
        query = query.where(AuditEntry.id < int(cursor))
    rows = list(session.scalars(query))
    own = _own_actors(session, buyer_id) if rows else set()
    items = [BuyerAuditEntry(at=iso(row.at), who=row.operator_email if row.operator_id in own else OPERATOR,
                             action=row.action, detail=row.detail or {}) for row in rows[:limit]]
    return BuyerAuditPage(items=items, nextCursor=str(rows[limit - 1].id) if len(rows) > limit else None)
