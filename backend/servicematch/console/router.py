"""The console's JSON API under /api/console (contract: docs/console-api.md); its page is /admin.

Every route states who may call it: AnyOperator (admins and analysts) or AdminOnly. Changes
need the session's CSRF token (checked in console/auth.py) and are written to the audit log
in the same transaction as the change itself.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, Query
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from servicematch.catalog.loader import CatalogDep
from servicematch.console import audit, deliveries, lead_detail, leads
from servicematch.console import buyers as console_buyers
from servicematch.console import providers as console_providers
from servicematch.console.applications import router as applications_router
from servicematch.console.audit import Action
from servicematch.console.auth import AdminOnly, AnyOperator, Db
from servicematch.console.buyer_people import router as buyer_people_router
from servicematch.console.buyer_returns import router as buyer_returns_router
from servicematch.console.credits import router as credits_router
from servicematch.console.dashboard import Dashboard, dashboard
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.export import export_rows
from servicematch.console.held_leads import router as held_leads_router
from servicematch.console.invoices import router as invoices_router
from servicematch.console.lead_quality import QUALITY_FILTERS
from servicematch.console.paging import DAY_SCHEMA, INT_CURSOR_PATTERN, MAX_LIMIT
from servicematch.console.payments import router as payments_router
from servicematch.console.quality_measures import router as quality_measures_router
from servicematch.console.reviews import router as reviews_router
from servicematch.console.router_money import router as money_router
from servicematch.console.router_session import router as session_router
from servicematch.console.suppression import router as suppression_router
from servicematch.delivery import providers as directory
from servicematch.delivery.schemas import ProviderUpdate
from servicematch.deps import SessionFactoryDep, SettingsDep
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES
from servicematch.intake.schemas import text
from servicematch.kernel.clock import utcnow
from servicematch.reporting.rollup import retry_counted_delivery
from servicematch.routing import buyers as buyer_directory
from servicematch.settings import Settings

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
Limit = Query(default=50, ge=1, le=MAX_LIMIT)


def one_of(values: tuple[str, ...]):
    """A filter that is empty or one of these values, as the schema says; the list refuses others by name."""
    return Query(default="", json_schema_extra={"enum": ["", *map(str, values)]})


def day_filter(name: str):
    return Query(default="", alias=name, json_schema_extra=DAY_SCHEMA)


# A page's position as the previous page named it (base64url); made up ones are refused with a 422.
Position = Query(default=None, pattern=r"^[A-Za-z0-9_-]{0,200}$")


# The quality gate's score filters (docs/quality.md): both ends included.
ScoreMin = Query(default=None, alias="scoreMin", ge=0, le=100)
ScoreMax = Query(default=None, alias="scoreMax", ge=0, le=100)


def _lead_filters(q: str, vertical: str, service: str, state: str, status: str, date_from: str,
                  date_to: str, quality: str = "", score_min: int | None = None,
                  score_max: int | None = None) -> leads.LeadFilters:
    return leads.LeadFilters(q=q[:254], vertical=vertical[:32], service=service[:64], state=state[:2],
                             status=status[:16], date_from=date_from[:10], date_to=date_to[:10],
                             quality=quality[:16], score_min=score_min, score_max=score_max)


@router.get("/dashboard", response_model=Dashboard,
            summary="Leads, funnels, delivery health and revenue over a date range")
def read_dashboard(caller: AnyOperator, db: Db, catalog: CatalogDep,
                   date_from: str | None = Query(default=None, alias="from", json_schema_extra=DAY_SCHEMA),
                   date_to: str | None = Query(default=None, alias="to", json_schema_extra=DAY_SCHEMA),
                   vertical: str = Query(default="", max_length=32), service: str = Query(default="", max_length=64),
                   state: str = Query(default="", max_length=2), source: str = Query(default="", max_length=120)
                   ) -> dict:
    filters = DashboardFilters.parse(date_from=date_from, date_to=date_to, vertical=vertical, service=service,
                                     state=state, source=source)
    return dashboard(db, catalog, filters)


@router.get("/leads", response_model=leads.LeadPage,
            summary="Leads, newest first; q is a reference, requestId, e-mail or phone")
def list_leads(caller: AnyOperator, db: Db, settings: SettingsDep, q: str = "", vertical: str = "",
               service: str = "", state: str = "", status: str = one_of(leads.LEAD_STATUSES),
               date_from: str = day_filter("from"), date_to: str = day_filter("to"),
               quality: str = one_of(QUALITY_FILTERS), score_min: int | None = ScoreMin,
               score_max: int | None = ScoreMax, cursor: str | None = Position, limit: int = Limit) -> dict:
    filters = _lead_filters(q, vertical, service, state, status, date_from, date_to, quality, score_min, score_max)
    page = leads.lead_page(db, settings, filters=filters, cursor=cursor, limit=limit, reveal=caller.is_admin)
    if caller.is_admin:
        # Admins see contact details in clear: each page they open is on the record, like a lead's page.
        audit.record(db, action=Action.LEAD_LIST, operator=caller.operator, ip=caller.ip, target="leads",
                     detail={"filters": filters.audited(), "laterPage": cursor is not None, "shown": len(page["items"])})
        db.commit()
    return page


class CsvResponse(StreamingResponse):
    media_type = "text/csv"


@router.get("/leads.csv", summary="The filtered leads as CSV (admins; audited)", response_class=CsvResponse,
            responses={200: {"description": "One row per lead, with a header row",
                             "content": {"text/csv": {"schema": {"type": "string"}}}}})
def export_leads(caller: AdminOnly, db: Db, settings: SettingsDep, factory: SessionFactoryDep, q: str = "",
                 vertical: str = "", service: str = "", state: str = "", status: str = one_of(leads.LEAD_STATUSES),
                 date_from: str = day_filter("from"), date_to: str = day_filter("to"),
                 quality: str = one_of(QUALITY_FILTERS), score_min: int | None = ScoreMin,
                 score_max: int | None = ScoreMax) -> CsvResponse:
    filters = _lead_filters(q, vertical, service, state, status, date_from, date_to, quality, score_min, score_max)
    leads.filtered_leads(filters, settings)  # refuse bad filters before the audit entry
    audit.record(db, action=Action.LEAD_EXPORT, operator=caller.operator, ip=caller.ip, target="leads.csv",
                 detail={"filters": filters.audited()})
    db.commit()
    name = f"leads-{utcnow():%Y%m%d-%H%M%S}.csv"
    return CsvResponse(
        export_rows(factory, settings, filters),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"},
    )


@router.get("/leads/{lead_id}", response_model=lead_detail.LeadDetail,
            summary="One lead: answers, consent, privacy, deliveries")
def read_lead(lead_id: str, caller: AnyOperator, db: Db, settings: SettingsDep, catalog: CatalogDep) -> dict:
    lead = lead_detail.find_lead(db, lead_id)
    detail = lead_detail.lead_detail(db, settings, catalog, lead=lead, reveal=caller.is_admin)
    if caller.is_admin:
        # Only admins see personal data in clear, and each look is on the record.
        audit.record(db, action=Action.LEAD_VIEW, operator=caller.operator, ip=caller.ip, target=lead.id,
                     detail={"requestId": lead.request_id})
        db.commit()
    return detail


@router.get("/deliveries", response_model=deliveries.DeliveryPage,
            summary="Failed, rejected or pending deliveries, newest first")
def list_deliveries(caller: AnyOperator, db: Db, status: str = one_of(deliveries.LISTED),
                    cursor: str | None = Position, limit: int = Limit) -> dict:
    return deliveries.delivery_page(db, status=status, cursor=cursor, limit=limit)


@router.get("/deliveries/counts", response_model=deliveries.WaitingCounts,
            summary="How many deliveries are failed, rejected and pending now")
def count_deliveries(caller: AnyOperator, db: Db) -> dict[str, int]:
    return deliveries.waiting_counts(db)


@router.post("/deliveries/{delivery_id}/retry", status_code=202, response_model=deliveries.Retried,
             summary="Send a failed or rejected delivery again")
def retry_one(delivery_id: str, caller: AdminOnly, db: Db) -> dict:
    delivery = retry_counted_delivery(session=db, delivery_id=delivery_id[:36])
    audit.record(db, action=Action.DELIVERY_RETRY, operator=caller.operator, ip=caller.ip, target=delivery.id,
                 detail={"leadId": delivery.lead_id})
    db.commit()
    return {"id": delivery.id, "status": delivery.status}


class RetryMany(BaseModel):
    ids: list[text(36, min_length=1)] = Field(min_length=1, max_length=deliveries.MAX_BULK)


@router.post("/deliveries/retry", status_code=202, response_model=deliveries.RetriedMany,
             summary="Send several failed or rejected deliveries again")
def retry_bulk(body: RetryMany, caller: AdminOnly, db: Db) -> dict:
    retried = deliveries.retry_many(db, body.ids)
    for delivery_id in retried:
        audit.record(db, action=Action.DELIVERY_RETRY, operator=caller.operator, ip=caller.ip,
                     target=delivery_id, detail={"bulk": True})
    db.commit()
    return {"retried": len(retried)}


@router.get("/providers", response_model=console_providers.ConsoleProviderList,
            summary="Every provider, with today's lead count")
def list_providers(caller: AnyOperator, db: Db) -> dict:
    today, paused = console_providers.leads_today(db), console_providers.paused_webhooks(db)
    accounts = console_providers.portal_accounts(db)
    return {"items": [console_providers.provider_json(p, today=today, paused=paused, accounts=accounts)
                      for p in directory.list_providers(session=db)]}


def _provider_change(db, caller, *, action: str, provider, detail: dict) -> dict:
    audit.record(db, action=action, operator=caller.operator, ip=caller.ip, target=provider.id, detail=detail)
    db.commit()
    return console_providers.provider_json(provider, today=console_providers.leads_today(db),
                                           paused=console_providers.paused_webhooks(db),
                                           accounts=console_providers.portal_accounts(db))


@router.post("/providers", status_code=201, response_model=console_providers.ConsoleProvider,
             summary="Add a provider (admins)")
def add_provider(fields: console_providers.ProviderFields, caller: AdminOnly, db: Db, catalog: CatalogDep) -> dict:
    provider = directory.add_provider(session=db, data=console_providers.create_values(fields),
                                      catalog=catalog)
    console_providers.set_money(db, provider, fields, new=True)
    return _provider_change(db, caller, action=Action.PROVIDER_ADD, provider=provider,
                            detail={"name": provider.name})


@router.patch("/providers/{provider_id}", response_model=console_providers.ConsoleProvider,
              summary="Change a provider; send only the fields to change (admins)")
def change_provider(provider_id: str, fields: console_providers.ProviderFields, caller: AdminOnly, db: Db,
                    catalog: CatalogDep) -> dict:
    changes = console_providers.update_values(fields)
    provider = directory.update_provider(session=db, provider_id=provider_id[:36], changes=changes,
                                         catalog=catalog)
    console_providers.set_money(db, provider, fields)
    return _provider_change(db, caller, action=Action.PROVIDER_CHANGE, provider=provider,
                            detail={"fields": sorted(fields.model_dump(exclude_unset=True))})


@router.post("/providers/{provider_id}/disable", response_model=console_providers.ConsoleProvider,
             summary="Pause a provider: no new leads (admins)")
def disable_provider(provider_id: str, caller: AdminOnly, db: Db) -> dict:
    provider = directory.disable_provider(session=db, provider_id=provider_id[:36])
    return _provider_change(db, caller, action=Action.PROVIDER_DISABLE, provider=provider, detail={})


@router.post("/providers/{provider_id}/enable", response_model=console_providers.ConsoleProvider,
             summary="Match a provider again (admins)")
def enable_provider(provider_id: str, caller: AdminOnly, db: Db, catalog: CatalogDep) -> dict:
    provider = directory.update_provider(session=db, provider_id=provider_id[:36],
                                         changes=ProviderUpdate(active=True), catalog=catalog)
    return _provider_change(db, caller, action=Action.PROVIDER_ENABLE, provider=provider, detail={})


@router.post("/providers/{provider_id}/test-send", response_model=console_providers.SampleSends,
             summary="Send a sample lead marked as a test (admins)")
def test_send(provider_id: str, caller: AdminOnly, db: Db, settings: SettingsDep) -> dict:
    provider = directory.get_provider(session=db, provider_id=provider_id[:36])
    results = console_providers.test_send(provider, settings)
    audit.record(db, action=Action.PROVIDER_TEST_SEND, operator=caller.operator, ip=caller.ip,
                 target=provider.id, detail={"results": [r["outcome"] for r in results]})
    db.commit()
    return {"results": results}


@router.get("/buyers", response_model=console_buyers.ConsoleBuyerList,
            summary="Every buyer, with what it bought today and this month (never its secret)")
def list_buyers(caller: AnyOperator, db: Db) -> dict:
    return {"items": console_buyers.buyers_json(db, buyer_directory.list_buyers(db))}


@router.get("/partner-lists", response_model=console_buyers.PartnerLists,
            summary="The published marketing-partners lists, newest first (the last 50)")
def list_partner_lists(caller: AnyOperator, db: Db) -> dict:
    return {"items": console_buyers.partner_lists_json(db)}


def _buyer_change(db, caller, *, action: str, buyer, detail: dict) -> dict:
    audit.record(db, action=action, operator=caller.operator, ip=caller.ip, target=buyer.id, detail=detail)
    db.commit()
    return console_buyers.buyers_json(db, [buyer])[0]


@router.post("/buyers", status_code=201, response_model=console_buyers.NewBuyer,
             summary="Add a buyer; the answer carries its signing secret, once (admins)")
def add_buyer(fields: console_buyers.BuyerFields, caller: AdminOnly, db: Db, settings: SettingsDep) -> dict:
    buyer = console_buyers.add(db, fields, settings)
    # The only answer that carries the secret: the list and every other answer leave it out.
    return {**_buyer_change(db, caller, action=Action.BUYER_ADD, buyer=buyer, detail={"name": buyer.name}),
            "secret": buyer.secret}


@router.patch("/buyers/{buyer_id}", response_model=console_buyers.ConsoleBuyer,
              summary="Change a buyer; send only the fields to change (admins)")
def change_buyer(buyer_id: str, fields: console_buyers.BuyerFields, caller: AdminOnly, db: Db,
                 settings: SettingsDep) -> dict:
    buyer = console_buyers.change(db, buyer_id[:36], fields, settings)
    # The secret itself is never written to the log; only that it changed.
    return _buyer_change(db, caller, action=Action.BUYER_CHANGE, buyer=buyer,
                         detail={"fields": sorted(fields.model_dump(exclude_unset=True))})


@router.post("/buyers/{buyer_id}/pause", response_model=console_buyers.ConsoleBuyer,
             summary="Pause a buyer: it is not pinged or posted to (admins)")
def pause_buyer(buyer_id: str, caller: AdminOnly, db: Db) -> dict:
    buyer = buyer_directory.set_active(db, buyer_id[:36], False)
    return _buyer_change(db, caller, action=Action.BUYER_PAUSE, buyer=buyer, detail={})


@router.post("/buyers/{buyer_id}/resume", response_model=console_buyers.ConsoleBuyer,
             summary="Let a paused buyer bid again (admins)")
def resume_buyer(buyer_id: str, caller: AdminOnly, db: Db) -> dict:
    buyer = buyer_directory.set_active(db, buyer_id[:36], True)
    return _buyer_change(db, caller, action=Action.BUYER_RESUME, buyer=buyer, detail={})


def _buyer_test(db, caller, settings: Settings, buyer_id: str, *, action: str, send) -> dict:
    buyer = buyer_directory.get_buyer(db, buyer_id[:36])
    result = send(buyer, settings)
    audit.record(db, action=action, operator=caller.operator, ip=caller.ip, target=buyer.id,
                 detail={"outcome": result["outcome"], "httpStatus": result["httpStatus"]})
    db.commit()
    return result


@router.post("/buyers/{buyer_id}/test-ping", response_model=console_buyers.PingTried,
             summary="Ping the buyer with a sample lead's facts and read its bid (admins)")
def test_ping(buyer_id: str, caller: AdminOnly, db: Db, settings: SettingsDep) -> dict:
    return _buyer_test(db, caller, settings, buyer_id, action=Action.BUYER_TEST_PING, send=console_buyers.test_ping)


@router.post("/buyers/{buyer_id}/test-post", response_model=console_buyers.PostTried,
             summary="Post a sample lead marked as a test to the buyer (admins)")
def test_post(buyer_id: str, caller: AdminOnly, db: Db, settings: SettingsDep) -> dict:
    return _buyer_test(db, caller, settings, buyer_id, action=Action.BUYER_TEST_POST, send=console_buyers.test_post)


@router.get("/buyers/{buyer_id}/bids", response_model=console_buyers.BuyerBidList,
            summary="The buyer's last bids and passes, newest first")
def buyer_bids(buyer_id: str, caller: AnyOperator, db: Db, limit: int = Query(default=20, ge=1, le=MAX_LIMIT)
               ) -> dict:
    return {"items": console_buyers.bids_json(db, buyer_id[:36], limit=limit)}


@router.get("/audit", response_model=audit.AuditPage, summary="The audit log, newest first")
def read_audit(caller: AnyOperator, db: Db, cursor: str | None = Query(default=None, pattern=INT_CURSOR_PATTERN),
               limit: int = Limit) -> dict:
    return audit.audit_page(db, cursor=cursor, limit=limit)


def install_console(app: FastAPI) -> None:
    """The console's API (its page, /admin/*, is the site's: web/router.py answers it with admin.html)."""
    app.include_router(session_router)
    app.include_router(applications_router)
    app.include_router(credits_router)
    app.include_router(reviews_router)
    app.include_router(buyer_people_router)
    app.include_router(buyer_returns_router)
    app.include_router(money_router)
    app.include_router(payments_router)
    app.include_router(invoices_router)
    app.include_router(held_leads_router)
    app.include_router(quality_measures_router)
    app.include_router(suppression_router)
    app.include_router(router)
