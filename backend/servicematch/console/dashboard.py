"""GET /api/console/dashboard: leads by day, vertical, service, state and source; delivery health.

Every figure is one aggregate query over an indexed date range; nothing is decrypted.
The funnels come from console/funnels.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import case, func, literal, select, tuple_
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.console.funnels import call_clicks, event_counts, funnels
from servicematch.console.leads import LEAD_KINDS
from servicematch.console.paging import day_of, day_start, parse_day
from servicematch.delivery.models import Delivery, DeliveryStatus
from servicematch.errors import ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow

DEFAULT_DAYS = 30
MAX_DAYS = 366


@dataclass(frozen=True)
class DashboardFilters:
    start: date
    end: date  # inclusive
    vertical: str = ""
    service: str = ""
    state: str = ""
    source: str = ""

    @classmethod
    def parse(cls, *, date_from: str | None, date_to: str | None, vertical: str = "", service: str = "",
              state: str = "", source: str = "") -> DashboardFilters:
        end = parse_day(date_to, "to") or utcnow().date()
        start = parse_day(date_from, "from") or end - timedelta(days=DEFAULT_DAYS - 1)
        if start > end:
            raise ServiceMatchError("from must not be after to.", fields={"from": "after to"}, status_code=422)
        if (end - start).days >= MAX_DAYS:
            raise ServiceMatchError(f"Choose a range of at most {MAX_DAYS} days.", fields={"from": "range too long"},
                                    status_code=422)
        return cls(start=start, end=end, vertical=vertical, service=service, state=state.upper(), source=source)

    @property
    def since(self):
        return day_start(self.start)

    @property
    def until(self):
        return day_start(self.end + timedelta(days=1))


def _click(key: str):
    return func.coalesce(Lead.click[key].as_string(), literal(""))


def lead_source():
    """subid1's value, else "subid2:<value>", else "fbclid" when present, else "direct"."""
    return case(
        (_click("subid1") != "", _click("subid1")),
        (_click("subid2") != "", literal("subid2:") + _click("subid2")),
        (_click("fbclid") != "", literal("fbclid")),
        else_=literal("direct"),
    )


def _lead_conditions(filters: DashboardFilters) -> list:
    conditions = [Lead.created_at >= filters.since, Lead.created_at < filters.until]
    if filters.vertical:
        conditions.append(Lead.vertical == filters.vertical)
    if filters.service:
        conditions.append(Lead.service == filters.service)
    if filters.state:
        conditions.append(Lead.state == filters.state)
    if filters.source:
        conditions.append(lead_source() == filters.source)
    return conditions


def _ranked(rows) -> list[dict]:
    return sorted(({"key": key or "unknown", "count": count} for key, count in rows),
                  key=lambda item: (-item["count"], item["key"]))


def _lead_groups(session: Session, filters: DashboardFilters) -> dict[str, list[tuple]]:
    """Counts by (day, vertical), service, state and source over the filtered leads.

    PostgreSQL reads the range once (GROUPING SETS); SQLite, which has none, groups four times.
    The CASE of the source is computed once, in a subquery, for both.
    """
    rows = select(day_of(session, Lead.created_at).label("day"), Lead.vertical, Lead.service, Lead.state,
                  lead_source().label("source")).where(*_lead_conditions(filters)).subquery()
    sets = {"day": (rows.c.day, rows.c.vertical), "service": (rows.c.service,), "state": (rows.c.state,),
            "source": (rows.c.source,)}
    if session.bind.dialect.name != "postgresql":
        return {name: session.execute(select(*columns, func.count()).group_by(*columns)).all()
                for name, columns in sets.items()}
    # GROUPING(day, service, state, source) tells the sets apart: a bit is set where a column is rolled up.
    marks = {0b0111: "day", 0b1011: "service", 0b1101: "state", 0b1110: "source"}
    grouping = func.grouping(rows.c.day, rows.c.service, rows.c.state, rows.c.source)
    query = select(grouping, rows.c.day, rows.c.vertical, rows.c.service, rows.c.state, rows.c.source,
                   func.count()).group_by(func.grouping_sets(*(tuple_(*c) for c in sets.values())))
    found: dict[str, list[tuple]] = {name: [] for name in sets}
    for mark, day, vertical, service, state, source, count in session.execute(query):
        name = marks[mark]
        found[name].append({"day": (day, vertical, count), "service": (service, count), "state": (state, count),
                            "source": (source, count)}[name])
    return found


def lead_counts(session: Session, filters: DashboardFilters) -> dict:
    groups = _lead_groups(session, filters)
    per_day: dict[str, dict] = {}
    by_vertical: dict[str, int] = {}
    for day_value, vertical, count in groups["day"]:
        entry = per_day.setdefault(str(day_value)[:10], {"total": 0, "byVertical": {}})
        entry["total"] += count
        entry["byVertical"][vertical] = count
        by_vertical[vertical] = by_vertical.get(vertical, 0) + count
    days = [filters.start + timedelta(days=n) for n in range((filters.end - filters.start).days + 1)]
    return {
        "leadsPerDay": [{"day": d.isoformat(), **per_day.get(d.isoformat(), {"total": 0, "byVertical": {}})}
                        for d in days],
        "byVertical": _ranked(by_vertical.items()),
        "byService": _ranked(groups["service"]),
        "byState": _ranked(groups["state"]),
        "bySource": _ranked(groups["source"]),
    }


def _seconds_to_deliver(session: Session):
    if session.bind.dialect.name == "postgresql":
        return func.extract("epoch", Delivery.completed_at - Delivery.created_at)
    return (func.julianday(Delivery.completed_at) - func.julianday(Delivery.created_at)) * 86400.0


def delivery_health(session: Session, filters: DashboardFilters) -> dict:
    query_filters = [Delivery.created_at >= filters.since, Delivery.created_at < filters.until,
                     Delivery.kind.in_(LEAD_KINDS)]
    lead_filtered = filters.vertical or filters.service or filters.state or filters.source
    scope = select(Delivery.status, func.count()).where(*query_filters)
    if lead_filtered:
        scope = scope.join(Lead, Lead.id == Delivery.lead_id).where(*_lead_conditions(filters))
    counts = dict(session.execute(scope.group_by(Delivery.status)).all())
    delivered = counts.get(DeliveryStatus.DELIVERED, 0)
    failed, rejected = counts.get(DeliveryStatus.FAILED, 0), counts.get(DeliveryStatus.REJECTED, 0)
    finished = delivered + failed + rejected
    p50, p99 = _delivery_percentiles(session, filters, query_filters, lead_filtered)
    return {
        "total": sum(counts.values()), "delivered": delivered, "failed": failed, "rejected": rejected,
        "pending": counts.get(DeliveryStatus.PENDING, 0),
        "successRate": round(delivered / finished, 4) if finished else None,
        "p50Seconds": p50, "p99Seconds": p99,
    }


def _delivery_percentiles(session: Session, filters: DashboardFilters, query_filters: list,
                          lead_filtered: object) -> tuple[float | None, float | None]:
    seconds = _seconds_to_deliver(session)
    where = [*query_filters, Delivery.status == DeliveryStatus.DELIVERED, Delivery.completed_at.is_not(None)]
    if session.bind.dialect.name == "postgresql":
        query = select(func.percentile_cont(0.5).within_group(seconds),
                       func.percentile_cont(0.99).within_group(seconds)).where(*where)
        if lead_filtered:
            query = query.join(Lead, Lead.id == Delivery.lead_id).where(*_lead_conditions(filters))
        p50, p99 = session.execute(query).one()
        return (round(float(p50), 3) if p50 is not None else None,
                round(float(p99), 3) if p99 is not None else None)
    # SQLite has no percentile function; it serves one machine's volume, so sorting here is fine.
    query = select(seconds).where(*where)
    if lead_filtered:
        query = query.join(Lead, Lead.id == Delivery.lead_id).where(*_lead_conditions(filters))
    values = sorted(float(v) for v in session.scalars(query).all() if v is not None)
    if not values:
        return None, None
    return round(_percentile(values, 0.5), 3), round(_percentile(values, 0.99), 3)


def _percentile(values: list[float], fraction: float) -> float:
    """Linear interpolation between closest ranks, as PostgreSQL's percentile_cont."""
    position = fraction * (len(values) - 1)
    low = int(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)


def dashboard(session: Session, index: CatalogIndex, filters: DashboardFilters) -> dict:
    counts = event_counts(session, filters)
    return {
        "range": {"from": filters.start.isoformat(), "to": filters.end.isoformat()},
        **lead_counts(session, filters),
        "funnels": funnels(session, index, filters, counts),
        "callClicks": call_clicks(session, filters, counts),
        "delivery": delivery_health(session, filters),
    }

