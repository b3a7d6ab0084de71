"""GET /api/console/dashboard: leads by day, vertical, service, state and source; funnels; delivery
health; revenue.

An answer adds two parts. Days already counted are read from the daily counts (reporting/,
events/), and that part is kept in memory while they stand (console/counted.py); the rest of the
range (today, normally) is read from the leads, deliveries and events themselves on every call.
Nothing is decrypted. Funnels come from console/funnels.py, delivery health from
console/delivery_health.py, revenue from console/revenue.py.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import timedelta

from pydantic import Field
from sqlalchemy import Date, func, literal, select, tuple_, union_all
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.console.counted import CountedDays, cached, counted_days, on_days
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.delivery_health import (
    DeliveryCounts,
    DeliverySummary,
    counted_deliveries,
    delivery_health,
    live_deliveries,
)
from servicematch.console.funnels import (
    CallClicks,
    Funnel,
    call_clicks,
    counted_event_counts,
    funnels,
    live_event_counts,
)
from servicematch.console.paging import day_of
from servicematch.console.revenue import (
    Revenue,
    RevenueCounts,
    counted_revenue,
    live_revenue,
    revenue,
)
from servicematch.console.shapes import Shape
from servicematch.intake.models import Lead
from servicematch.reporting.models import LeadDaily
from servicematch.reporting.rollup import day_runs, lead_dimensions

LEAD_GROUPS = ("day", "service", "state", "source")


class DateRange(Shape):
    from_: str = Field(alias="from")
    to: str


class LeadsDay(Shape):
    day: str
    total: int
    byVertical: dict[str, int]


class KeyCount(Shape):
    key: str
    count: int


class Dashboard(Shape):
    """GET /dashboard: leads, funnels, delivery health and revenue over a range of days."""

    range: DateRange
    leadsPerDay: list[LeadsDay]
    byVertical: list[KeyCount]
    byService: list[KeyCount]
    byState: list[KeyCount]
    bySource: list[KeyCount]
    funnels: list[Funnel]
    callClicks: list[CallClicks]
    delivery: DeliverySummary
    revenue: Revenue


@dataclass(frozen=True)
class Tally:
    """Counts over some days of a range, before they are ranked and rounded: the counted days'
    part and the live part are each one, and an answer is their sum."""

    leads: dict[str, Counter]  # by LEAD_GROUPS: (day, vertical), service, state, source
    deliveries: DeliveryCounts  # console/delivery_health.py
    events: Counter  # console/funnels.py: Counts
    revenue: RevenueCounts  # console/revenue.py

    def __add__(self, other: Tally) -> Tally:
        return Tally(leads={name: _sum(self.leads[name], other.leads[name]) for name in LEAD_GROUPS},
                     deliveries=self.deliveries + other.deliveries, events=_sum(self.events, other.events),
                     revenue=self.revenue + other.revenue)


def _sum(first: Counter, second: Counter) -> Counter:
    """A new Counter: the cached part is shared by later calls. The first's keys come first, so
    funnels tied on page views are listed in the daily counts' order."""
    total = Counter(first)
    total.update(second)
    return total


def _ranked(rows) -> list[dict]:
    return sorted(({"key": key or "unknown", "count": int(count)} for key, count in rows),
                  key=lambda item: (-item["count"], item["key"]))


def _counted_lead_rows(filters: DashboardFilters, days: CountedDays):
    """(day, vertical, service, state, source, n) of the counted days, from lead_daily."""
    if not days.leads:
        return None
    return select(LeadDaily.day.label("day"), LeadDaily.vertical, LeadDaily.service, LeadDaily.state,
                  LeadDaily.source, LeadDaily.leads.label("n")).where(
        on_days(LeadDaily.day, days.leads), *filters.dimension_conditions(LeadDaily)).subquery()


def _live_lead_rows(session: Session, filters: DashboardFilters, days: CountedDays):
    """The same of the other days (today, normally), one row per lead."""
    runs = day_runs(filters.start, filters.end, days.leads)
    if not runs:
        return None
    vertical, service, state, source = lead_dimensions()

    def run(start, end):
        # A stretch of one day names it instead of working it out from each lead's time.
        day = literal(start.date(), Date) if end - start == timedelta(days=1) else day_of(session, Lead.created_at)
        return select(day.label("day"), vertical.label("vertical"), service.label("service"), state.label("state"),
                      source.label("source"), literal(1).label("n")).where(
            *filters.lead_conditions(), Lead.created_at >= start, Lead.created_at < end)

    selects = [run(start, end) for start, end in runs]
    return (selects[0] if len(selects) == 1 else union_all(*selects)).subquery()


def _lead_groups(session: Session, rows) -> dict[str, Counter]:
    """Counts by (day, vertical), service, state and source over `rows` (None: no day to read).

    PostgreSQL reads the rows once (GROUPING SETS); SQLite, which has none, groups four times.
    """
    found: dict[str, Counter] = {name: Counter() for name in LEAD_GROUPS}
    if rows is None:
        return found
    total = func.sum(rows.c.n)
    sets = {"day": (rows.c.day, rows.c.vertical), "service": (rows.c.service,), "state": (rows.c.state,),
            "source": (rows.c.source,)}
    if session.bind.dialect.name != "postgresql":
        grouped = [(name, key, count) for name, columns in sets.items()
                   for *key, count in session.execute(select(*columns, total).group_by(*columns))]
    else:
        # GROUPING(day, service, state, source) tells the sets apart: a bit is set where a column is rolled up.
        marks = {0b0111: "day", 0b1011: "service", 0b1101: "state", 0b1110: "source"}
        grouping = func.grouping(rows.c.day, rows.c.service, rows.c.state, rows.c.source)
        query = select(grouping, rows.c.day, rows.c.vertical, rows.c.service, rows.c.state, rows.c.source,
                       total).group_by(func.grouping_sets(*(tuple_(*c) for c in sets.values())))
        grouped = [(marks[mark], {"day": (day, vertical), "service": (service,), "state": (state,),
                                  "source": (source,)}[marks[mark]], count)
                   for mark, day, vertical, service, state, source, count in session.execute(query)]
    for name, key, count in grouped:
        # lead_daily gives a day as a date, SQLite's date() as text: one key for both.
        found[name][(str(key[0])[:10], key[1]) if name == "day" else key[0]] += int(count)
    return found


def _lead_counts(filters: DashboardFilters, groups: dict[str, Counter]) -> dict:
    per_day: dict[str, dict] = {}
    by_vertical: Counter[str] = Counter()
    for (day_value, vertical), count in groups["day"].items():
        entry = per_day.setdefault(day_value, {"total": 0, "byVertical": {}})
        entry["total"] += count
        entry["byVertical"][vertical] = count
        by_vertical[vertical] += count
    days = [filters.start + timedelta(days=n) for n in range((filters.end - filters.start).days + 1)]
    return {
        "leadsPerDay": [{"day": d.isoformat(), **per_day.get(d.isoformat(), {"total": 0, "byVertical": {}})}
                        for d in days],
        "byVertical": _ranked(by_vertical.items()),
        "byService": _ranked(groups["service"].items()),
        "byState": _ranked(groups["state"].items()),
        "bySource": _ranked(groups["source"].items()),
    }


def _counted_part(session: Session, filters: DashboardFilters, days: CountedDays) -> Tally:
    return Tally(leads=_lead_groups(session, _counted_lead_rows(filters, days)),
                 deliveries=counted_deliveries(session, filters, days),
                 events=counted_event_counts(session, filters, days.events),
                 revenue=counted_revenue(session, filters, days))


def _live_part(session: Session, filters: DashboardFilters, days: CountedDays) -> Tally:
    return Tally(leads=_lead_groups(session, _live_lead_rows(session, filters, days)),
                 deliveries=live_deliveries(session, filters, days),
                 events=live_event_counts(session, filters, days.events),
                 revenue=live_revenue(session, filters, days))


def dashboard(session: Session, index: CatalogIndex, filters: DashboardFilters) -> dict:
    """One small query for the counted days, the counted part when they changed, the live part."""
    days = counted_days(session, filters.start, filters.end)
    # The marker changes with any counted day of the range, so an entry kept under an older one is
    # never read again; the counted part reads exactly the marker's days, so it matches its key.
    counted = cached(session, (filters, days.marker), lambda: _counted_part(session, filters, days))
    tally = counted + _live_part(session, filters, days)
    leads = _lead_counts(filters, tally.leads)
    return {
        "range": {"from": filters.start.isoformat(), "to": filters.end.isoformat()},
        **leads,
        "funnels": funnels(index, tally.events),
        "callClicks": call_clicks(tally.events),
        "delivery": delivery_health(session, filters, days, tally.deliveries),
        "revenue": revenue(session, filters, tally.revenue,
                           {entry["day"]: entry["total"] for entry in leads["leadsPerDay"]}),
    }
