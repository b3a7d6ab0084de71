"""Funnels from first-party events: page views, each step, submissions, disqualifications, call clicks.

Rolled-up days are read from the daily counts; days not rolled up yet (today, normally) from the
raw events, counted the same way (distinct tabs per day), so the two parts add up alike
(console/dashboard.py adds them).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.console.counted import on_days
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.paging import day_of
from servicematch.events.models import EventType, FunnelDaily, FunnelEvent
from servicematch.reporting.rollup import day_runs

# (type, vertical, service, step, field, answer) -> tabs
Counts = Counter[tuple[str, str, str, int, str, str]]


# Events carry a vertical and a service, not a state or a source.
FILTERED_BY = ("vertical", "service")


def _keys(table) -> tuple:
    return table.type, table.vertical, table.service, table.step, table.field, table.answer


def counted_event_counts(session: Session, filters: DashboardFilters, days: frozenset[date]) -> Counts:
    """Tabs of the range's rolled-up days, from funnel_daily."""
    counts: Counts = Counter()
    if not days:
        return counts
    keys = _keys(FunnelDaily)
    for *key, tabs in session.execute(
        select(*keys, func.sum(FunnelDaily.tabs))
        .where(on_days(FunnelDaily.day, days), *filters.dimension_conditions(FunnelDaily, FILTERED_BY)).group_by(*keys)
    ):
        counts[tuple(key)] += int(tabs)
    return counts


def live_event_counts(session: Session, filters: DashboardFilters, rolled: frozenset[date]) -> Counts:
    """Tabs of the range's other days, from the raw events: distinct per day, then summed."""
    counts: Counts = Counter()
    keys = _keys(FunnelEvent)
    day = day_of(session, FunnelEvent.at)
    for start, end in day_runs(filters.start, filters.end, rolled):
        per_day = (
            select(day.label("day"), *keys, func.count(func.distinct(FunnelEvent.tab_id)).label("tabs"))
            .where(FunnelEvent.at >= start, FunnelEvent.at < end, *filters.dimension_conditions(FunnelEvent, FILTERED_BY))
            .group_by(day, *keys)
        ).subquery()
        summed = _keys(per_day.c)
        for *key, tabs in session.execute(select(*summed, func.sum(per_day.c.tabs)).group_by(*summed)):
            counts[tuple(key)] += int(tabs)
    return counts


def _step_label(index: CatalogIndex, vertical: str, service: str, step: int) -> str:
    """The step's first question, as the visitor saw it: the service's own fields first, then the
    site's base fields (name and address on step 98, phone on 99) where the form merges them in."""
    config = index.find(service, vertical)
    own = list(config.fields) if config else []
    base = list(index.catalog.site.baseFields) if config and config.includeBaseFields else []
    fields = [f for f in own + base if f.step == step]
    return f"Step {step}: {fields[0].label}" if fields else f"Step {step}"


def funnels(index: CatalogIndex, counts: Counts) -> list[dict]:
    services: dict[tuple[str, str], dict] = {}
    for (kind, vertical, service, step, field, answer), tabs in counts.items():
        if not service:
            continue
        entry = services.setdefault((vertical, service), {"page": 0, "steps": defaultdict(int), "submitted": 0,
                                                          "disqualified": []})
        if kind == EventType.PAGE_VIEW:
            entry["page"] += tabs
        elif kind == EventType.STEP_VIEW:
            entry["steps"][step] += tabs
        elif kind == EventType.SUBMITTED:
            entry["submitted"] += tabs
        elif kind == EventType.DISQUALIFIED:
            entry["disqualified"].append({"field": field, "answer": answer, "count": tabs})
    result = []
    for (vertical, service), entry in sorted(services.items(), key=lambda item: -item[1]["page"]):
        steps = [{"step": 0, "label": "Page view", "count": entry["page"]}]
        steps += [{"step": n, "label": _step_label(index, vertical, service, n), "count": entry["steps"][n]}
                  for n in sorted(entry["steps"])]
        steps.append({"step": len(steps), "label": "Submitted", "count": entry["submitted"]})
        previous = None
        for step in steps:
            step["dropOffPct"] = (round(100.0 * (previous - step["count"]) / previous, 1)
                                  if previous else 0.0)
            previous = step["count"]
        # The last entry repeats `submitted` as a step, so a chart can draw the whole funnel.
        result.append({"service": service, "vertical": vertical, "steps": steps, "submitted": entry["submitted"],
                       "disqualifications": sorted(entry["disqualified"], key=lambda d: -d["count"])})
    return result


def call_clicks(counts: Counts) -> list[dict]:
    totals: dict[str, int] = defaultdict(int)
    for (kind, _vertical, service, _step, _field, _answer), tabs in counts.items():
        if kind == EventType.CALL_CLICK and service:
            totals[service] += tabs
    return [{"service": s, "count": c} for s, c in sorted(totals.items(), key=lambda item: (-item[1], item[0]))]
