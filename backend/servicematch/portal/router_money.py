"""The portal's money: credit requests, the ledger and its monthly statement (docs/portal.md).

Every route takes the provider's own id (OwnProvider): another provider's id, offer or credit
answers 404 with no body; the one change, asking for a credit, needs the CSRF token.
"""

from __future__ import annotations

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from servicematch.access.models import add_audit_entry
from servicematch.catalog.loader import CatalogDep
from servicematch.deps import SessionDep, SettingsDep
from servicematch.errors import ErrorBody
from servicematch.kernel.clock import utcnow
from servicematch.portal import credits, ledger
from servicematch.portal.auth import OwnProvider

CREDIT_REQUEST = "portal.credit.request"
NOT_FOUND_NO_BODY = {404: {"description": "Not this account's provider or offer, or none: no body at all"}}
MONTH = Query(default="", max_length=7,
              description="YYYY-MM (UTC), from 2000-01 to December of next year; this month when empty")

# Included in the portal's router (portal/router.py), under its /api/pro.
router = APIRouter(prefix="/providers/{provider_id}", responses=NOT_FOUND_NO_BODY)


@router.post("/offers/{offer_id}/credit", status_code=201, response_model=credits.CreditRequestView,
             responses={409: {"model": ErrorBody, "description": "A credit was already requested for this lead"}},
             summary="Ask for a credit on an accepted lead (a proven duplicate is approved at once)")
def request_credit(offer_id: str, ask: credits.CreditAsk, caller: OwnProvider, db: SessionDep,
                   settings: SettingsDep, catalog: CatalogDep) -> credits.CreditRequestView:
    row = credits.request_credit(db, settings, caller.provider, offer_id, ask, now=utcnow())
    add_audit_entry(db, action=CREDIT_REQUEST, actor_id=caller.account.id, actor_email=caller.account.email,
                    ip=caller.ip, target=row.id, detail={"offerId": row.offer_id, "reason": row.reason,
                                                         "status": row.status})
    db.commit()
    return credits.views_of(db, catalog, [row])[0]


@router.get("/credits", response_model=credits.CreditList,
            summary="The provider's credit requests, newest first, and this month's cap: used and allowed")
def list_credits(caller: OwnProvider, db: SessionDep, catalog: CatalogDep) -> credits.CreditList:
    cap = credits.allowance(db, caller.provider, utcnow())
    rows = credits.provider_requests(db, caller.provider.id)
    return credits.CreditList(items=credits.views_of(db, catalog, rows), capPercent=cap.cap_percent,
                              usedThisMonth=cap.used, allowedThisMonth=cap.allowed)


@router.get("/ledger", response_model=ledger.LedgerStatement,
            summary="The balance, and one month's statement: opening and closing balance, charges, credits")
def read_ledger(caller: OwnProvider, db: SessionDep, month: str = MONTH) -> ledger.LedgerStatement:
    return ledger.statement(db, caller.provider.id, ledger.parse_month(month, utcnow()))


class StatementCsv(StreamingResponse):
    media_type = "text/csv"


@router.get("/ledger.csv", response_class=StatementCsv, summary="One month's statement as CSV",
            responses={200: {"description": "date, description, kind, amount, running balance; the opening "
                                            "balance first", "content": {"text/csv": {"schema": {"type": "string"}}}}})
def statement_csv(caller: OwnProvider, db: SessionDep, month: str = MONTH) -> StatementCsv:
    start = ledger.parse_month(month, utcnow())
    # Written out before the answer starts: the request's session ends with it.
    lines = list(ledger.statement_csv(db, caller.provider.id, start))
    return StatementCsv(iter(lines), media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="servicematch-statement-{start:%Y-%m}.csv"',
        "Cache-Control": "no-store"})
