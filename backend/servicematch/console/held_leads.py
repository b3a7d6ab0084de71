"""Leads the quality gate held (docs/quality.md, "Review in the console"): the list, newest first, and
an admin's release (routed again as if it had passed) or rejection (sold to nobody, with a note).

Routing holds a lead whose score is under SERVICEMATCH_QUALITY_HOLD_BELOW: it marks the lead's
event done and pings nobody. A release marks the lead released and writes a new pending "lead
accepted" event, so the worker routes it again (woken when the release commits); a rejection
marks it rejected and queues its consent receipt, which then says truthfully that nobody received
the request. Each decision changes the lead only while it is still held, so two operators
deciding at once get one decision and one 409, and each is on the audit log, in the same
transaction.
"""

from __future__ import annotations

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, ConfigDict
from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.orm import Session

from servicematch.console import audit
from servicematch.console.auth import AdminOnly, AnyOperator, Db
from servicematch.console.lead_quality import LEAD_REJECT, LEAD_RELEASE
from servicematch.console.paging import MAX_LIMIT, decode_position, encode_position, iso
from servicematch.console.shapes import Shape
from servicematch.delivery.models import Delivery
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, ErrorBody, NotFound, ServiceMatchError
from servicematch.intake.models import (
    LEAD_ACCEPTED,
    QUALITY_HELD,
    QUALITY_REJECTED,
    QUALITY_RELEASED,
    Lead,
    LeadEvent,
)
from servicematch.intake.schemas import LongText, RequiredLongText
from servicematch.kernel import wakeup
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.references import shown_reference
from servicematch.privacy.notices import RECEIPT
from servicematch.privacy.wiring import enqueue_receipt
from servicematch.reporting.rollup import lead_source

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
DECIDED = {404: {"model": ErrorBody, "description": "No lead with this id"},
           409: {"model": ErrorBody, "description": "The lead is not held (any more): released or rejected "
                                                    "meanwhile, or never held"}}
NOT_HELD = {QUALITY_RELEASED: "This lead was released already.", QUALITY_REJECTED: "This lead was rejected already."}
LeadId = Path(max_length=36)
Position = Query(default=None, pattern=r"^[A-Za-z0-9_-]{0,200}$")


class HeldLead(Shape):
    """A held lead as the review list shows it: no name, e-mail, phone or address."""

    id: str
    # The reference the consumer is shown and quotes (7K3M-Q9TX).
    reference: str
    createdAt: str
    vertical: str
    service: str
    # subid1, else subid2:<value>, else fbclid, else the lead's own source ("website").
    source: str
    state: str | None
    # 0-100; under SERVICEMATCH_QUALITY_HOLD_BELOW, or a check that holds whatever the score.
    score: int | None
    # The gate's reason codes (docs/quality.md, "Checks and reason codes").
    reasons: list[str]


class HeldLeadPage(Shape):
    items: list[HeldLead]
    nextCursor: str | None
    # Every held lead matching the filters, on every page.
    total: int


class Release(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: LongText | None = None


class Rejection(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: RequiredLongText


class HeldLeadDecision(Shape):
    id: str
    reference: str
    # released (routed again) or rejected (sold to nobody)
    qualityStatus: str
    decidedBy: str
    decidedAt: str | None
    note: str | None


def _held(service: str, source: str):
    conditions = [Lead.quality_status == QUALITY_HELD]
    if service:
        conditions.append(Lead.service == service)
    if source:
        conditions.append(lead_source() == source)
    return conditions


def held_page(session: Session, *, service: str, source: str, cursor: str | None, limit: int) -> dict:
    """Newest first, keyset-paged on (createdAt, id) like the lead list."""
    conditions = _held(service, source)
    query = (select(Lead.id, Lead.reference, Lead.created_at, Lead.vertical, Lead.service, lead_source(),
                    Lead.state, Lead.quality_score, Lead.quality_reasons)
             .where(*conditions).order_by(Lead.created_at.desc(), Lead.id.desc()).limit(limit + 1))
    if (position := decode_position(cursor)) is not None:
        moment, lead_id = position
        query = query.where(or_(Lead.created_at < moment, and_(Lead.created_at == moment, Lead.id < lead_id)))
    rows = session.execute(query).all()
    shown = rows[:limit]
    return {
        "items": [{"id": row.id, "reference": shown_reference(row.reference), "createdAt": iso(row.created_at),
                   "vertical": row.vertical, "service": row.service, "source": row[5], "state": row.state,
                   "score": row.quality_score, "reasons": [str(reason) for reason in row.quality_reasons or []]}
                  for row in shown],
        "nextCursor": encode_position(shown[-1].created_at, shown[-1].id) if len(rows) > limit else None,
        "total": session.scalar(select(func.count()).select_from(Lead).where(*conditions)) or 0,
    }


def _take_held(session: Session, lead_id: str, status: str) -> Lead:
    """Move the lead from held to `status`, or refuse: only one of two decisions at once finds it held."""
    moved = session.execute(update(Lead).where(Lead.id == lead_id, Lead.quality_status == QUALITY_HELD)
                            .values(quality_status=status).execution_options(synchronize_session=False))
    lead = session.get(Lead, lead_id, populate_existing=True)
    if lead is None:
        raise NotFound(f"No lead with id {lead_id}.")
    if moved.rowcount != 1:
        raise ServiceMatchError(NOT_HELD.get(lead.quality_status or "", "This lead is not held for review."),
                                fields={"qualityStatus": lead.quality_status or "not judged"}, status_code=409)
    return lead


def _route_again(session: Session, lead: Lead) -> None:
    """A new pending event: the worker claims it like a new lead's and routes the lead, now released."""
    session.add(LeadEvent(id=new_id(), lead_id=lead.id, type=LEAD_ACCEPTED, created_at=utcnow(), attempts=0))
    wakeup.notify_after_commit(session)


def _queue_receipt(session: Session, lead: Lead) -> None:
    """The consent receipt, unless one is queued already: it names nobody and says the request was not passed on."""
    queued = session.scalar(select(Delivery.id).where(Delivery.lead_id == lead.id, Delivery.payload_kind == RECEIPT))
    if queued is None:
        enqueue_receipt(session=session, lead=lead)


def _decide(db: Session, caller, lead_id: str, *, release: bool, note: str | None) -> dict:
    lead = _take_held(db, lead_id, QUALITY_RELEASED if release else QUALITY_REJECTED)
    if release:
        _route_again(db, lead)
    else:
        _queue_receipt(db, lead)
    audit.record(db, action=LEAD_RELEASE if release else LEAD_REJECT, operator=caller.operator, ip=caller.ip,
                 target=lead.id, detail={"reference": shown_reference(lead.reference), "score": lead.quality_score,
                                         "reasons": lead.quality_reasons or [], "note": (note or "")[:2000] or None})
    db.commit()
    return {"id": lead.id, "reference": shown_reference(lead.reference), "qualityStatus": lead.quality_status,
            "decidedBy": caller.operator.email, "decidedAt": iso(utcnow()), "note": note}


@router.get("/held-leads", response_model=HeldLeadPage,
            summary="Leads the quality gate held for review, newest first, with their score and reasons")
def list_held(caller: AnyOperator, db: Db, service: str = Query(default="", max_length=64),
              source: str = Query(default="", max_length=120), cursor: str | None = Position,
              limit: int = Query(default=50, ge=1, le=MAX_LIMIT)) -> dict:
    return held_page(db, service=service, source=source, cursor=cursor, limit=limit)


@router.post("/held-leads/{lead_id}/release", response_model=HeldLeadDecision, responses=DECIDED,
             summary="Release a held lead: routing sells and offers it as if it had passed (admins)")
def release(body: Release, caller: AdminOnly, db: Db, lead_id: str = LeadId) -> dict:
    return _decide(db, caller, lead_id, release=True, note=(body.note or "").strip() or None)


@router.post("/held-leads/{lead_id}/reject", response_model=HeldLeadDecision, responses=DECIDED,
             summary="Reject a held lead with a note: it is sold to nobody and offered to nobody (admins)")
def reject(body: Rejection, caller: AdminOnly, db: Db, lead_id: str = LeadId) -> dict:
    if not body.note.strip():
        raise ServiceMatchError("Say why the lead is rejected.", fields={"note": "required"}, status_code=422)
    return _decide(db, caller, lead_id, release=False, note=body.note.strip())
