"""GET /api/console/dashboard: leads by day, vertical, service, state and source; delivery health.

Days already counted are read from the daily counts (reporting/), the rest of the range (today,
normally) from the leads and deliveries themselves; nothing is decrypted. The funnels come from
console/funnels.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import and_, func, literal, or_, select, tuple_, union_all
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.console.funnels import call_clicks, event_counts, funnels
from servicematch.console.paging import day_of, day_start, parse_day
from servicematch.delivery.models import LEAD_KINDS, Delivery, DeliveryStatus
from servicematch.errors import ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.reporting import latency
from servicematch.reporting.latency import bucket_of
from servicematch.reporting.models import (
    DeliveryDaily,
    DeliveryLatencyDaily,
    LatencyGrain,
    LeadDaily,
    ReportKind,
)
from servicematch.reporting.rollup import (
    day_runs,
    lead_dimensions,
    lead_source,
    reported_days,
    seconds_to_deliver,
)

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


def _daily_conditions(table, filters: DashboardFilters) -> list:
    conditions = [table.day >= filters.start, table.day <= filters.end]
    for name in ("vertical", "service", "state", "source"):
        if getattr(filters, name):
            conditions.append(getattr(table, name) == getattr(filters, name))
    return conditions


def _in_runs(column, runs: list) -> object:
    return or_(*(and_(column >= start, column < end) for start, end in runs))


def _ranked(rows) -> list[dict]:
    return sorted(({"key": key or "unknown", "count": int(count)} for key, count in rows),
                  key=lambda item: (-item["count"], item["key"]))


def _lead_rows(session: Session, filters: DashboardFilters):
    """(day, vertical, service, state, source, n) over the range: days already counted from
    lead_daily, the others (today, normally) from the leads themselves, one row per lead."""
    counted = reported_days(session, ReportKind.LEADS, filters.start, filters.end)
    parts = []
    if counted:
        parts.append(select(LeadDaily.day.label("day"), LeadDaily.vertical, LeadDaily.service, LeadDaily.state,
                            LeadDaily.source, LeadDaily.leads.label("n"))
                     .where(*_daily_conditions(LeadDaily, filters)))
    runs = day_runs(filters.start, filters.end, counted)
    if runs:
        vertical, service, state, source = lead_dimensions()
        parts.append(select(day_of(session, Lead.created_at).label("day"), vertical.label("vertical"),
                            service.label("service"), state.label("state"), source.label("source"),
                            literal(1).label("n"))
                     .where(*_lead_conditions(filters), _in_runs(Lead.created_at, runs)))
    return (parts[0] if len(parts) == 1 else union_all(*parts)).subquery()


def _lead_groups(session: Session, filters: DashboardFilters) -> dict[str, list[tuple]]:
    """Counts by (day, vertical), service, state and source over the filtered leads.

    PostgreSQL reads the rows once (GROUPING SETS); SQLite, which has none, groups four times.
    """
    rows = _lead_rows(session, filters)
    total = func.sum(rows.c.n)
    sets = {"day": (rows.c.day, rows.c.vertical), "service": (rows.c.service,), "state": (rows.c.state,),
            "source": (rows.c.source,)}
    if session.bind.dialect.name != "postgresql":
        return {name: session.execute(select(*columns, total).group_by(*columns)).all()
                for name, columns in sets.items()}
    # GROUPING(day, service, state, source) tells the sets apart: a bit is set where a column is rolled up.
    marks = {0b0111: "day", 0b1011: "service", 0b1101: "state", 0b1110: "source"}
    grouping = func.grouping(rows.c.day, rows.c.service, rows.c.state, rows.c.source)
    query = select(grouping, rows.c.day, rows.c.vertical, rows.c.service, rows.c.state, rows.c.source,
                   total).group_by(func.grouping_sets(*(tuple_(*c) for c in sets.values())))
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
        count = int(count)
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


def _live_deliveries(query, filters: DashboardFilters, runs: list):
    """Restrict a query on deliveries to the range's uncounted days and the filters."""
    query = query.where(Delivery.kind.in_(LEAD_KINDS), _in_runs(Delivery.created_at, runs))
    if filters.vertical or filters.service or filters.state or filters.source:
        # A lead's deliveries are created with it: bounding its leads to the same days (with a
        # day's margin) keeps PostgreSQL from reading every lead of the range to join them.
        query = query.join(Lead, Lead.id == Delivery.lead_id).where(
            *_lead_conditions(filters), Lead.created_at >= runs[0][0] - timedelta(days=1))
    return query


def delivery_health(session: Session, filters: DashboardFilters) -> dict:
    counted = reported_days(session, ReportKind.DELIVERIES, filters.start, filters.end)
    runs = day_runs(filters.start, filters.end, counted)
    counts: dict[str, int] = {}
    if counted:
        for status, count in session.execute(
            select(DeliveryDaily.status, func.sum(DeliveryDaily.deliveries))
            .where(*_daily_conditions(DeliveryDaily, filters)).group_by(DeliveryDaily.status)
        ):
            counts[status] = counts.get(status, 0) + int(count)
    if runs:
        for status, count in session.execute(
            _live_deliveries(select(Delivery.status, func.count()), filters, runs).group_by(Delivery.status)
        ):
            counts[status] = counts.get(status, 0) + int(count)
    delivered = counts.get(DeliveryStatus.DELIVERED, 0)
    failed, rejected = counts.get(DeliveryStatus.FAILED, 0), counts.get(DeliveryStatus.REJECTED, 0)
    finished = delivered + failed + rejected
    p50, p99 = _delivery_percentiles(session, filters, counted)
    return {
        "total": sum(counts.values()), "delivered": delivered, "failed": failed, "rejected": rejected,
        "pending": counts.get(DeliveryStatus.PENDING, 0),
        "successRate": round(delivered / finished, 4) if finished else None,
        "p50Seconds": p50, "p99Seconds": p99,
    }


def _delivered(query):
    return query.where(Delivery.status == DeliveryStatus.DELIVERED, Delivery.completed_at.is_not(None))


def _latency_grain(filters: DashboardFilters) -> tuple[str, list] | None:
    """The histograms that answer these filters, with their conditions; None when none do."""
    table = DeliveryLatencyDaily
    if not filters.state and not filters.source:
        conditions = [table.vertical == filters.vertical] if filters.vertical else []
        if filters.service:
            conditions.append(table.service == filters.service)
        return LatencyGrain.SERVICE, conditions
    if filters.vertical or filters.service or (filters.state and filters.source):
        return None
    if filters.state:
        return LatencyGrain.STATE, [table.state == filters.state]
    return LatencyGrain.SOURCE, [table.source == filters.source]


def _delivery_percentiles(session: Session, filters: DashboardFilters,
                          counted: set[date]) -> tuple[float | None, float | None]:
    """Exact while every day of the range is read live; otherwise from the counted days'
    histograms (within 5%, reporting/latency.py), kept per service, per state and per source.
    Filters that combine a state or source with anything else read the range live."""
    grain = _latency_grain(filters)
    if not counted or grain is None:
        everything = day_runs(filters.start, filters.end, set())
        return _exact_percentiles(session, filters, everything)
    name, conditions = grain
    buckets: dict[int, int] = {}
    for bucket, count in session.execute(
        select(DeliveryLatencyDaily.bucket, func.sum(DeliveryLatencyDaily.deliveries))
        .where(DeliveryLatencyDaily.day >= filters.start, DeliveryLatencyDaily.day <= filters.end,
               DeliveryLatencyDaily.grain == name, *conditions)
        .group_by(DeliveryLatencyDaily.bucket)
    ):
        buckets[bucket] = buckets.get(bucket, 0) + int(count)
    runs = day_runs(filters.start, filters.end, counted)
    if runs:
        for seconds in session.scalars(
                _delivered(_live_deliveries(select(seconds_to_deliver(session)), filters, runs))):
            if seconds is not None:
                bucket = bucket_of(float(seconds))
                buckets[bucket] = buckets.get(bucket, 0) + 1
    p50, p99 = latency.percentile(buckets, 0.5), latency.percentile(buckets, 0.99)
    return (round(p50, 3) if p50 is not None else None, round(p99, 3) if p99 is not None else None)


def _exact_percentiles(session: Session, filters: DashboardFilters, runs: list) -> tuple[float | None, float | None]:
    seconds = seconds_to_deliver(session)
    if session.bind.dialect.name == "postgresql":
        query = _delivered(_live_deliveries(
            select(func.percentile_cont(0.5).within_group(seconds), func.percentile_cont(0.99).within_group(seconds)),
            filters, runs))
        p50, p99 = session.execute(query).one()
        return (round(float(p50), 3) if p50 is not None else None,
                round(float(p99), 3) if p99 is not None else None)
    # SQLite has no percentile function; it serves one machine's volume, so sorting here is fine.
    values = sorted(float(v) for v in session.scalars(_delivered(_live_deliveries(select(seconds), filters, runs)))
                    if v is not None)
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

