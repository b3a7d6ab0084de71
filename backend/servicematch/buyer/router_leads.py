"""The leads a buyer bought and the auctions it took part in: the list, its CSV, one lead and the bids,
under /api/buyer (the portal: a person's session) and /api/buyer/v1 (the buyer's systems: an API
key), the same handlers on both; and the portal's live stream, GET /api/buyer/events.

Every read is the caller's buyer's own (`caller.buyer.id`): another buyer's lead, or a lead this
buyer never bought, answers 404 with no body, by session and by key alike.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import Path, Query, Request
from fastapi.responses import StreamingResponse

from servicematch.buyer import bids, lead_detail, leads, live
from servicematch.buyer.auth import SignedInBuyer, SignedInPerson
from servicematch.buyer.prefixes import BothPrefixes
from servicematch.catalog.loader import CatalogDep
from servicematch.deps import SessionDep, SessionFactoryDep, SettingsDep
from servicematch.kernel.clock import utcnow

NOT_FOUND_NO_BODY = {404: {"description": "Not a lead this buyer bought (another buyer's, or none): no body at all"}}
DAY = {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "maxLength": 0}]}
LeadId = Annotated[str, Path(alias="leadId", max_length=64, description="The lead's id, as the lead list gives it")]
Limit = Annotated[int, Query(ge=1, le=100, description="Rows a page")]
Cursor = Annotated[str | None, Query(max_length=200, pattern=r"^[A-Za-z0-9_-]*$",
                                     description="The last page's nextCursor")]
DateFrom = Annotated[str, Query(alias="from", max_length=10, json_schema_extra=DAY,
                                description="First day bought (UTC), YYYY-MM-DD")]
DateTo = Annotated[str, Query(alias="to", max_length=10, json_schema_extra=DAY,
                              description="Last day bought (UTC), YYYY-MM-DD")]
Service = Annotated[str, Query(max_length=100, description="A service slug (hvac) or vertical/slug")]
State = Annotated[str, Query(max_length=2, description="Two-letter state")]
Status = Annotated[str, Query(max_length=16, json_schema_extra={"enum": ["", *leads.STATUSES]})]

both = BothPrefixes()
portal, on_both = both.portal, both.route



class CsvResponse(StreamingResponse):
    media_type = "text/csv"


@on_both("GET", "/leads", response_model=leads.BuyerLeadPage,
         summary="The leads the buyer bought, newest first, filtered by day, service, state and status")
def list_leads(caller: SignedInBuyer, db: SessionDep, settings: SettingsDep, date_from: DateFrom = "",
               date_to: DateTo = "", service: Service = "", state: State = "", status: Status = "",
               cursor: Cursor = None, limit: Limit = 25) -> leads.BuyerLeadPage:
    filters = leads.LeadFilters.parse(date_from=date_from, date_to=date_to, service=service, state=state,
                                      status=status)
    return leads.lead_page(db, settings, caller.buyer.id, filters=filters, cursor=cursor, limit=limit)


@on_both("GET", "/leads.csv", response_class=CsvResponse,
         responses={200: {"description": "A header row, then one row per lead with the list's columns",
                          "content": {"text/csv": {"schema": {"type": "string"}}}}},
         summary="The same leads as CSV: the list's filters and columns, every page")
def export_leads(caller: SignedInBuyer, db: SessionDep, settings: SettingsDep, factory: SessionFactoryDep,
                 date_from: DateFrom = "", date_to: DateTo = "", service: Service = "", state: State = "",
                 status: Status = "") -> CsvResponse:
    filters = leads.LeadFilters.parse(date_from=date_from, date_to=date_to, service=service, state=state,
                                      status=status)
    # The sign-in check's connection goes back to the pool now: each page of the file reads in its own.
    db.close()
    name = f"leads-{utcnow():%Y%m%d-%H%M%S}.csv"
    return CsvResponse(leads.csv_lines(factory, settings, caller.buyer.id, filters),
                       media_type="text/csv; charset=utf-8",
                       headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


@on_both("GET", "/leads/{leadId}", response_model=lead_detail.BuyerLead, responses=NOT_FOUND_NO_BODY,
         summary="One lead the buyer bought: the lead, its consent proof, its post's attempts, return and feedback")
def read_lead(lead_id: LeadId, caller: SignedInBuyer, db: SessionDep,
              settings: SettingsDep, catalog: CatalogDep) -> lead_detail.BuyerLead:
    return lead_detail.buyer_lead(db, settings, catalog, caller.buyer, lead_id, utcnow())


@on_both("GET", "/bids", response_model=bids.BuyerBidPage,
         summary="The auctions the buyer took part in, newest first: its bid or pass, and what came of it")
def list_bids(caller: SignedInBuyer, db: SessionDep, cursor: Cursor = None, limit: Limit = 25) -> bids.BuyerBidPage:
    return bids.bid_page(db, caller.buyer.id, cursor=cursor, limit=limit)


@portal.get("/events", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "`event: lead.bought` with {id, reference} for each lead sold to the "
                                            "buyer from now on"}},
            summary="Live updates of the leads the buyer buys (server-sent events; a person's session only)")
def bought_event_stream(caller: SignedInPerson, request: Request, db: SessionDep, factory: SessionFactoryDep,
                        settings: SettingsDep) -> StreamingResponse:
    # The baseline is taken before the stream opens (live.py says why).
    watch = live.SaleWatch(caller.buyer.id)
    watch.look(db, utcnow())
    # The sign-in check's connection goes back to the pool now, not when the stream ends.
    db.close()
    stream = live.sale_events(request, factory, watch=watch, session_id=caller.session_id,
                              idle=timedelta(minutes=settings.portal_session_idle_minutes))
    # no-transform: no proxy compresses or buffers it; X-Accel-Buffering: the same for nginx.
    return StreamingResponse(stream, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"})


router = both.router
