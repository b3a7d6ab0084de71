"""Buyers' returns in the console: the review queue by status, and an admin's approval (the price
comes off the buyer's bill and the revenue) or denial (with a note the buyer reads); and what
buyers' leads became, by buyer, service or source (console/conversion.py).

As with providers' credits (console/credits.py): any operator reads, only admins decide, and every
decision is on the audit log in the same transaction.
"""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, ConfigDict
from sqlalchemy import and_, or_, select

from servicematch.buyer import returns
from servicematch.buyer.models import LeadReturn, ReturnStatus
from servicematch.catalog.loader import CatalogDep
from servicematch.console import audit
from servicematch.console.auth import AdminOnly, AnyOperator, Db
from servicematch.console.conversion import Conversion, conversion
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.paging import DAY_SCHEMA, decode_position, encode_position
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, ErrorBody, NotFound, ServiceMatchError
from servicematch.intake.schemas import LongText, RequiredLongText
from servicematch.kernel.clock import utcnow
from servicematch.routing.models import Buyer

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
# The audit log's names of the decisions (console/audit.py's Action names the others).
RETURN_APPROVE = "return.approve"
RETURN_DENY = "return.deny"
PAGE = 100
DECIDED = {404: {"model": ErrorBody, "description": "No return with this id"},
           409: {"model": ErrorBody, "description": "The return was already decided"}}


class ConsoleReturn(returns.BuyerReturn):
    model_config = ConfigDict(extra="forbid")

    buyerId: str
    buyerName: str


class ConsoleReturnPage(BaseModel):
    model_config = ConfigDict(extra="forbid")

    items: list[ConsoleReturn]
    nextCursor: str | None


class ReturnApproval(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: LongText | None = None


class ReturnDenial(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: RequiredLongText


def returns_json(db, rows: list[LeadReturn]) -> list[ConsoleReturn]:
    ids = {row.buyer_id for row in rows}
    names = dict(db.execute(select(Buyer.id, Buyer.name).where(Buyer.id.in_(ids))).all()) if ids else {}
    return [ConsoleReturn(**view.model_dump(), buyerId=row.buyer_id, buyerName=names.get(row.buyer_id, "deleted buyer"))
            for row, view in zip(rows, returns.return_views(db, rows), strict=True)]


@router.get("/returns", response_model=ConsoleReturnPage,
            summary="Buyers' returns of one status: waiting ones oldest first (the queue), decided ones newest first")
def list_returns(caller: AnyOperator, db: Db,
                 status: str = Query(default=ReturnStatus.PENDING, json_schema_extra={"enum": list(ReturnStatus.ALL)}),
                 cursor: str | None = Query(default=None, pattern=r"^[A-Za-z0-9_-]{0,200}$")) -> ConsoleReturnPage:
    if status not in ReturnStatus.ALL:
        raise ServiceMatchError("Unknown status.", fields={"status": "pending, approved or denied"}, status_code=422)
    waiting = status == ReturnStatus.PENDING
    moment = LeadReturn.created_at if waiting else LeadReturn.decided_at
    query = select(LeadReturn).where(LeadReturn.status == status)
    if (after := decode_position(cursor)) is not None:
        at, row_id = after
        query = query.where(or_(moment > at, and_(moment == at, LeadReturn.id > row_id)) if waiting
                            else or_(moment < at, and_(moment == at, LeadReturn.id < row_id)))
    order = (moment.asc(), LeadReturn.id.asc()) if waiting else (moment.desc(), LeadReturn.id.desc())
    rows = list(db.scalars(query.order_by(*order).limit(PAGE + 1)))
    page = rows[:PAGE]
    last = page[-1] if len(rows) > PAGE else None
    return ConsoleReturnPage(items=returns_json(db, page), nextCursor=None if last is None else encode_position(
        last.created_at if waiting else last.decided_at, last.id))


def _decide(db, caller, return_id: str, *, approve: bool, note: str | None) -> ConsoleReturn:
    row = db.get(LeadReturn, return_id, with_for_update=True)
    if row is None:
        raise NotFound("No return with this id.")
    returns.decide_return(db, row, approve=approve, by=caller.operator.email, note=note, now=utcnow())
    audit.record(db, action=RETURN_APPROVE if approve else RETURN_DENY, operator=caller.operator, ip=caller.ip,
                 target=row.id, detail={"buyerId": row.buyer_id, "leadId": row.lead_id,
                                        "amountCents": row.amount_cents, "note": (note or "")[:500]})
    db.commit()
    return returns_json(db, [row])[0]


ReturnId = Path(max_length=36)


@router.post("/returns/{return_id}/approve", response_model=ConsoleReturn, responses=DECIDED,
             summary="Approve a waiting return: its price comes off the buyer's bill and the revenue (admins)")
def approve(body: ReturnApproval, caller: AdminOnly, db: Db, return_id: str = ReturnId) -> ConsoleReturn:
    return _decide(db, caller, return_id, approve=True, note=(body.note or "").strip() or None)


@router.post("/returns/{return_id}/deny", response_model=ConsoleReturn, responses=DECIDED,
             summary="Deny a waiting return with a note the buyer reads; the lead stays sold (admins)")
def deny(body: ReturnDenial, caller: AdminOnly, db: Db, return_id: str = ReturnId) -> ConsoleReturn:
    if not body.note.strip():
        raise ServiceMatchError("Say why the return is denied.", fields={"note": "required"}, status_code=422)
    return _decide(db, caller, return_id, approve=False, note=body.note.strip())


@router.get("/conversion", response_model=Conversion,
            summary="What buyers' leads became (their feedback, and approved returns), by buyer, service or source")
def read_conversion(caller: AnyOperator, db: Db, catalog: CatalogDep,
                    by: Literal["buyer", "service", "source"] = Query(default="buyer"),
                    date_from: str | None = Query(default=None, alias="from", json_schema_extra=DAY_SCHEMA),
                    date_to: str | None = Query(default=None, alias="to", json_schema_extra=DAY_SCHEMA)) -> dict:
    filters = DashboardFilters.parse(date_from=date_from, date_to=date_to)
    return conversion(db, catalog, filters, by)
