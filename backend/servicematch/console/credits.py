"""Credit requests in the console: the list by status, and an admin's approval (the credit goes into
the provider's ledger in the same transaction) or denial (with a note the provider reads). Every
decision is on the audit log."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict
from sqlalchemy import select

from servicematch.catalog.loader import CatalogDep, CatalogIndex
from servicematch.console import audit
from servicematch.console.audit import Action
from servicematch.console.auth import AdminOnly, AnyOperator, Db
from servicematch.delivery.models import Provider
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, NotFound, ServiceMatchError
from servicematch.intake.schemas import LongText, RequiredLongText
from servicematch.kernel.clock import utcnow
from servicematch.kernel.references import shown_reference
from servicematch.portal import credits
from servicematch.portal.models import CreditRequest, CreditStatus
from servicematch.portal.places import LeadPlace, places_of

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
# A page of requests, oldest first: the longest waiting is decided first.
LIST_LIMIT = 200


class ConsoleCredit(BaseModel):
    id: str
    status: Literal["pending", "approved", "denied"]
    providerId: str
    providerName: str
    offerId: str | None
    leadId: str | None
    leadReference: str | None
    reason: str
    reasonLabel: str
    detail: str | None
    amountCents: int
    serviceName: str | None
    city: str | None
    state: str | None
    createdAt: str
    decidedAt: str | None
    decidedBy: str | None
    decisionNote: str | None


class ConsoleCreditList(BaseModel):
    items: list[ConsoleCredit]


class CreditApproval(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: LongText | None = None


class CreditDenial(BaseModel):
    model_config = ConfigDict(extra="forbid")

    note: RequiredLongText


def _shown(reference: str | None) -> str | None:
    return shown_reference(reference) if reference else None


def credits_json(db, catalog: CatalogIndex, rows: list[CreditRequest]) -> list[ConsoleCredit]:
    names = dict(db.execute(select(Provider.id, Provider.name).where(
        Provider.id.in_({row.provider_id for row in rows}))).all()) if rows else {}
    places = places_of(db, catalog, [row.lead_id for row in rows])
    return [ConsoleCredit(
        **credits.view_of(row, places.get(row.lead_id, LeadPlace())).model_dump(), providerId=row.provider_id,
        providerName=names.get(row.provider_id, "deleted provider"), leadId=row.lead_id,
        # As the consumer and the provider are shown it: two groups of four (kernel/references.py).
        leadReference=_shown(places[row.lead_id].reference) if row.lead_id in places else None,
        decidedBy=row.decided_by)
        for row in rows]


@router.get("/credits", response_model=ConsoleCreditList,
            summary="Providers' credit requests of one status (pending first: oldest first)")
def list_credits(caller: AnyOperator, db: Db, catalog: CatalogDep, status: str = Query(
        default=CreditStatus.PENDING, json_schema_extra={"enum": list(CreditStatus.ALL)})) -> ConsoleCreditList:
    if status not in CreditStatus.ALL:
        raise ServiceMatchError("Unknown status.", fields={"status": "unknown"}, status_code=422)
    # Waiting ones oldest first (the queue); decided ones newest first (the history).
    order = (CreditRequest.created_at.asc() if status == CreditStatus.PENDING
             else CreditRequest.decided_at.desc(), CreditRequest.id)
    rows = list(db.scalars(select(CreditRequest).where(CreditRequest.status == status).order_by(*order)
                           .limit(LIST_LIMIT)))
    return ConsoleCreditList(items=credits_json(db, catalog, rows))


def _decide(db, catalog: CatalogIndex, caller, credit_id: str, *, approve: bool, note: str | None) -> ConsoleCredit:
    row = db.get(CreditRequest, credit_id[:36], with_for_update=True)
    if row is None:
        raise NotFound("No credit request with this id.")
    credits.decide(db, row, approve=approve, by=caller.operator.email, note=note, now=utcnow())
    audit.record(db, action=Action.CREDIT_APPROVE if approve else Action.CREDIT_DENY, operator=caller.operator,
                 ip=caller.ip, target=row.id, detail={"providerId": row.provider_id, "amountCents": row.amount_cents,
                                                      "note": (note or "")[:500]})
    db.commit()
    return credits_json(db, catalog, [row])[0]


@router.post("/credits/{credit_id}/approve", response_model=ConsoleCredit,
             summary="Approve a waiting credit request: the credit is written to the provider's ledger (admins)")
def approve(credit_id: str, body: CreditApproval, caller: AdminOnly, db: Db, catalog: CatalogDep) -> ConsoleCredit:
    return _decide(db, catalog, caller, credit_id, approve=True, note=body.note)


@router.post("/credits/{credit_id}/deny", response_model=ConsoleCredit,
             summary="Deny a waiting credit request with a note the provider reads (admins)")
def deny(credit_id: str, body: CreditDenial, caller: AdminOnly, db: Db, catalog: CatalogDep) -> ConsoleCredit:
    if not body.note.strip():
        raise ServiceMatchError("Say why the credit is denied.", fields={"note": "required"}, status_code=422)
    return _decide(db, catalog, caller, credit_id, approve=False, note=body.note.strip())
