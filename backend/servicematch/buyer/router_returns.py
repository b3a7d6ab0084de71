"""Returns and feedback, for a buyer's people (/api/buyer, the portal) and its systems (/api/buyer/v1,
an API key): the same handlers under both prefixes (docs/buyer-portal.md, docs/buyer-api.md).

Every route works on the caller's own buyer only: a lead this buyer never bought, another buyer's
included, answers 404 with no body. Changes need the session's CSRF token, or a key; each is on the
audit log with who made it.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query
from pydantic import BaseModel
from sqlalchemy import select

from servicematch.access.models import add_audit_entry
from servicematch.buyer import feedback, returns
from servicematch.buyer.auth import Caller, SignedInBuyer
from servicematch.buyer.leads import before, decode_cursor, encode_cursor
from servicematch.buyer.models import LeadReturn, ReturnStatus
from servicematch.buyer.prefixes import BothPrefixes
from servicematch.deps import SessionDep, SettingsDep
from servicematch.errors import ErrorBody, ServiceMatchError
from servicematch.kernel.clock import utcnow

RETURN_LODGE = "buyer.return.lodge"
FEEDBACK_GIVE = "buyer.feedback.give"
PAGE = 50
NOT_BOUGHT = {404: {"description": "Not a lead this buyer bought (another buyer's, or none): no body at all"}}
REFUSED = {409: {"model": ErrorBody, "description": "Already returned (or too much feedback on the lead)"},
           422: {"model": ErrorBody, "description": "Not returnable: no returns, the window passed, the share "
                                                    "reached; or a reason or note missing"}}
LeadId = Annotated[str, Path(alias="leadId", max_length=64, description="The lead's id, as the lead list gives it")]

both = BothPrefixes()
portal, on_both = both.portal, both.route



class ReturnPage(BaseModel):
    items: list[returns.BuyerReturn]
    nextCursor: str | None


def _audit(db, caller: Caller, action: str, detail: dict) -> None:
    add_audit_entry(db, action=action, actor_id=caller.actor_id, actor_email=caller.who, ip=caller.ip,
                    target=caller.buyer.id, detail=detail)


@on_both("POST", "/leads/{leadId}/return", status_code=201, response_model=returns.BuyerReturn,
         responses={**NOT_BOUGHT, **REFUSED},
         summary="Return a lead this buyer bought, with a reason (a test lead or a proven duplicate is approved "
                 "at once; the rest wait for ServiceMatch)")
def lodge_return(lead_id: LeadId, ask: returns.ReturnAsk, caller: SignedInBuyer, db: SessionDep,
                 settings: SettingsDep) -> returns.BuyerReturn:
    sale = returns.own_sale(db, caller.buyer, lead_id)
    row = returns.lodge_return(db, settings, caller.buyer, sale, ask, who=caller.who, now=utcnow())
    _audit(db, caller, RETURN_LODGE, {"returnId": row.id, "leadId": row.lead_id, "reason": row.reason,
                                      "status": row.status, "amountCents": row.amount_cents})
    db.commit()
    return returns.return_views(db, [row])[0]


@on_both("GET", "/returns", response_model=ReturnPage,
         summary="This buyer's returns, newest first, of one status or all; 50 a page")
def list_returns(caller: SignedInBuyer, db: SessionDep,
                 status: str = Query(default="", json_schema_extra={"enum": ["", *ReturnStatus.ALL]}),
                 cursor: str | None = Query(default=None, max_length=200, description="The last page's nextCursor")
                 ) -> ReturnPage:
    if status and status not in ReturnStatus.ALL:
        raise ServiceMatchError("Unknown status.", fields={"status": "pending, approved, denied or empty"},
                                status_code=422)
    query = select(LeadReturn).where(LeadReturn.buyer_id == caller.buyer.id)
    if status:
        query = query.where(LeadReturn.status == status)
    if (position := decode_cursor(cursor)) is not None:
        query = query.where(before(LeadReturn.created_at, LeadReturn.id, position))
    rows = list(db.scalars(query.order_by(LeadReturn.created_at.desc(), LeadReturn.id.desc()).limit(PAGE + 1)))
    page = rows[:PAGE]
    last = page[-1] if len(rows) > PAGE else None
    return ReturnPage(items=returns.return_views(db, page),
                      nextCursor=encode_cursor(last.created_at, last.id) if last is not None else None)


@on_both("POST", "/leads/{leadId}/feedback", status_code=201, response_model=feedback.BuyerFeedback,
         responses={**NOT_BOUGHT, 409: REFUSED[409], 422: {"model": ErrorBody, "description": "Unknown status, or "
                                                                                              "bad without a reason"}},
         summary="Say what became of a lead this buyer bought: contacted, appointment, quoted, sold, or bad with a "
                 "reason (the newest counts)")
def give_feedback(lead_id: LeadId, given: feedback.FeedbackGiven, caller: SignedInBuyer,
                  db: SessionDep) -> feedback.BuyerFeedback:
    sale = returns.own_sale(db, caller.buyer, lead_id)
    row = feedback.give_feedback(db, sale, given, source=feedback.API if caller.key else feedback.PORTAL,
                                 who=caller.who, now=utcnow())
    _audit(db, caller, FEEDBACK_GIVE, {"leadId": row.lead_id, "status": row.status})
    db.commit()
    return feedback.feedback_view(row)


router = both.router
