"""The leads a buyer bought: the list (newest first, in keyset pages), its filters and its CSV export.

A row is one sale to this buyer, never anyone else's: every query starts from `sales.buyer_id`,
read backwards along its (buyer_id, created_at) index, so a page costs the same at any depth. The
lead's status comes from its return, if any (pending, approved, denied), and its feedback is the
newest the buyer gave. No personal data is read here: the lead's encrypted column is never selected.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal, get_args

from pydantic import BaseModel, Field
from sqlalchemy import and_, exists, or_, select, text
from sqlalchemy.orm import Session, aliased, sessionmaker

from servicematch.buyer.feedback import latest_statuses
from servicematch.buyer.models import LeadReturn
from servicematch.buyer.returns import SALE_STATUS
from servicematch.errors import ServiceMatchError
from servicematch.events.rollup import day_start
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc
from servicematch.kernel.csv_text import csv_line, dollars
from servicematch.kernel.references import shown_reference
from servicematch.portal.ledger import iso
from servicematch.routing.buyers import US_STATES
from servicematch.routing.models import Sale
from servicematch.routing.offer_notice import service_name
from servicematch.settings import Settings

LeadStatus = Literal["sold", "returned", "return_pending", "return_denied"]
STATUSES: tuple[str, ...] = get_args(LeadStatus)
# A lead's status is its return's (returns.SALE_STATUS); no return is a plain sale.
RETURN_OF_STATUS = {shown: stored for stored, shown in SALE_STATUS.items()}
BAD_CURSOR = "This cursor is not one the list gave; start again without it."
DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# A row's id as the cursor names it (kernel.ids: a UUID's text).
ROW_ID = re.compile(r"[0-9A-Za-z-]{1,36}")
EARLIEST_DAY, LATEST_DAY = date(2000, 1, 1), date(9000, 12, 31)
# The CSV export reads this many sales per query, each page in a session of its own.
EXPORT_PAGE = 1000
CSV_COLUMNS = ("id", "reference", "boughtAt", "vertical", "service", "serviceName", "state", "zip", "price",
               "exclusive", "status", "feedback")


class BuyerLeadRow(BaseModel):
    id: str = Field(description="The lead's id (GET /leads/{id})")
    reference: str = Field(description="The lead's short reference, as the consumer quotes it (7K3M-Q9TX)")
    boughtAt: str = Field(description="When the buyer bought it (its post's 2xx), ISO 8601 UTC")
    vertical: str
    service: str
    serviceName: str
    state: str | None = Field(description="None once the consumer's data was erased")
    zip: str | None = Field(description="None once the consumer's data was erased")
    price: float = Field(description="What the buyer paid, in dollars")
    exclusive: bool
    status: LeadStatus
    feedback: str | None = Field(description="The newest feedback status the buyer gave, if any")


class BuyerLeadPage(BaseModel):
    items: list[BuyerLeadRow]
    nextCursor: str | None = Field(description="Pass as `cursor` for the next page; None on the last page")


@dataclass(frozen=True)
class LeadFilters:
    """What the list is narrowed to; days are UTC days of the sale, both ends included."""

    date_from: date | None = None
    date_to: date | None = None
    vertical: str = ""
    service: str = ""
    state: str = ""
    status: str = ""

    @classmethod
    def parse(cls, *, date_from: str = "", date_to: str = "", service: str = "", state: str = "",
              status: str = "") -> LeadFilters:
        """The filters as a request gives them; a 422 naming the field for anything unusable.
        `service` is a slug (`hvac`) or vertical/slug (`legal/debt-relief`)."""
        vertical, _, slug = service.strip().rpartition("/")
        state = state.strip().upper()
        if state and state not in US_STATES:
            raise ServiceMatchError("state is a two-letter US state, like TX.", fields={"state": "unknown state"},
                                    status_code=422)
        if status and status not in STATUSES:
            raise ServiceMatchError(f"status is one of {', '.join(STATUSES)}.", fields={"status": "invalid"},
                                    status_code=422)
        start, end = _day(date_from, "from"), _day(date_to, "to")
        if start and end and end < start:
            raise ServiceMatchError("to is before from.", fields={"to": "before from"}, status_code=422)
        return cls(date_from=start, date_to=end, vertical=vertical, service=slug, state=state, status=status)


def _day(value: str, name: str) -> date | None:
    if not value:
        return None
    try:
        if not DAY.fullmatch(value):
            raise ValueError(value)  # fromisoformat would also read 20261123 and 2026-W48-1
        day = date.fromisoformat(value)
    except ValueError as exc:
        raise ServiceMatchError(f"{name} must be a date like 2026-11-23.", fields={name: "invalid date"},
                                status_code=422) from exc
    # Beyond these no sale exists; clamping keeps the day arithmetic below in range.
    return min(max(day, EARLIEST_DAY), LATEST_DAY)


# -- cursors: (time, id) of the last row shown; the bids list pages the same way ------------------

def encode_cursor(moment: datetime, row_id: str) -> str:
    raw = f"{as_utc(moment).isoformat()}|{row_id}".encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str | None) -> tuple[datetime, str] | None:
    if not cursor:
        return None
    try:
        moment, row_id = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode().split("|", 1)
        if not ROW_ID.fullmatch(row_id):
            raise ValueError(row_id)  # a made-up id could carry what PostgreSQL refuses (a NUL)
        return as_utc(datetime.fromisoformat(moment)), row_id
    except (ValueError, UnicodeDecodeError, binascii.Error) as exc:
        raise ServiceMatchError(BAD_CURSOR, fields={"cursor": "unknown cursor"}, status_code=422) from exc


def before(time_column, id_column, position: tuple[datetime, str]):
    """Rows strictly after `position` in newest-first order. The time bound alone is what an index
    on (owner, time) can seek to; the id only breaks ties within one instant."""
    moment, row_id = position
    return and_(time_column <= moment, or_(time_column < moment, id_column < row_id))


# -- the list -------------------------------------------------------------------------------------

def _bought(buyer_id: str, filters: LeadFilters):
    """The buyer's sales matching the filters, with what a row shows (no order, no limit)."""
    query = (select(Sale.id.label("sale_id"), Sale.created_at, Sale.price_cents, Sale.exclusive,
                    Lead.id.label("lead_id"), Lead.reference, Lead.vertical, Lead.service, Lead.category,
                    Lead.state, Lead.zip, LeadReturn.status.label("return_status"))
             .join(Lead, Lead.id == Sale.lead_id)
             .outerjoin(LeadReturn, LeadReturn.sale_id == Sale.id)
             .where(Sale.buyer_id == buyer_id))
    if filters.date_from:
        query = query.where(Sale.created_at >= day_start(filters.date_from))
    if filters.date_to:
        query = query.where(Sale.created_at < day_start(filters.date_to + timedelta(days=1)))
    if filters.service:
        query = query.where(Lead.service == filters.service)
    if filters.vertical:
        query = query.where(Lead.vertical == filters.vertical)
    if filters.state:
        query = query.where(Lead.state == filters.state)
    if filters.status == "sold":
        # NOT EXISTS, not the outer join's NULL: PostgreSQL then probes the returns' index row by row
        # along the buyer's sales, where it would hash every return and sort all the buyer's sales.
        lodged = aliased(LeadReturn)
        query = query.where(~exists().where(lodged.sale_id == Sale.id))
    elif filters.status:
        query = query.where(LeadReturn.status == RETURN_OF_STATUS[filters.status])
    return query


def _newest_first(query, position: tuple[datetime, str] | None, limit: int):
    if position is not None:
        query = query.where(before(Sale.created_at, Sale.id, position))
    return query.order_by(Sale.created_at.desc(), Sale.id.desc()).limit(limit)


def row_fields(settings: Settings, row) -> dict:
    """A row's fields from a sale and its lead (anything with the columns `_bought` selects)."""
    return {"id": row.lead_id, "reference": shown_reference(row.reference), "boughtAt": iso(row.created_at),
            "vertical": row.vertical, "service": row.service, "serviceName": service_name(settings, row),
            "state": row.state, "zip": row.zip, "price": round(row.price_cents / 100, 2),
            "exclusive": bool(row.exclusive), "status": SALE_STATUS.get(row.return_status, "sold")}


def bought_row(db: Session, buyer_id: str, sale_id: str):
    """One sale of the buyer's as a list row reads it (for a lead's page)."""
    return db.execute(_bought(buyer_id, LeadFilters()).where(Sale.id == sale_id)).one()


def plan_without_parallel_workers(db: Session) -> None:
    """For the rest of this transaction, on PostgreSQL. A page reads a few dozen rows along the buyer's
    index, but with a filter on the day or the lead the planner may prefer a parallel scan of every
    buyer's recent sales (the table is in time order, so that scan looks cheap): measured at 1,000,000
    sales, 50 to 100 ms against 1 ms (docs/benchmarks.md, "Buyer portal")."""
    if db.bind.dialect.name == "postgresql":
        db.execute(text("SET LOCAL max_parallel_workers_per_gather = 0"))


def lead_page(db: Session, settings: Settings, buyer_id: str, *, filters: LeadFilters, cursor: str | None,
              limit: int) -> BuyerLeadPage:
    """One page of the buyer's leads, newest first; `cursor` is the last page's nextCursor."""
    plan_without_parallel_workers(db)
    rows = db.execute(_newest_first(_bought(buyer_id, filters), decode_cursor(cursor), limit + 1)).all()
    page = rows[:limit]
    feedback = latest_statuses(db, [row.sale_id for row in page])
    return BuyerLeadPage(
        items=[BuyerLeadRow(**row_fields(settings, row), feedback=feedback.get(row.sale_id)) for row in page],
        nextCursor=encode_cursor(page[-1].created_at, page[-1].sale_id) if len(rows) > limit else None)


def csv_lines(factory: sessionmaker[Session], settings: Settings, buyer_id: str,
              filters: LeadFilters) -> Iterator[str]:
    """The header, then one line per lead as the list shows it, newest first. Each page is read in a
    session of its own, closed before its lines go out: a slow download holds no connection."""
    yield csv_line(list(CSV_COLUMNS))
    position = None
    while True:
        with factory() as db:
            plan_without_parallel_workers(db)
            rows = db.execute(_newest_first(_bought(buyer_id, filters), position, EXPORT_PAGE)).all()
            feedback = latest_statuses(db, [row.sale_id for row in rows])
        for row in rows:
            fields = row_fields(settings, row)
            yield csv_line([fields["id"], fields["reference"], fields["boughtAt"], fields["vertical"],
                            fields["service"], fields["serviceName"], fields["state"], fields["zip"],
                            dollars(row.price_cents), "yes" if fields["exclusive"] else "no", fields["status"],
                            feedback.get(row.sale_id)])
        if len(rows) < EXPORT_PAGE:
            return
        position = (as_utc(rows[-1].created_at), rows[-1].sale_id)
