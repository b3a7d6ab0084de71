"""Funnels from first-party events: page views, each step, submissions, disqualifications, call clicks.

Rolled-up days are read from the daily counts; days not rolled up yet (today, normally) from the
raw events, counted the same way (distinct tabs per day), so the two parts add up alike
(console/dashboard.py adds them).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import date
from typing import Literal

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.steps import VisitorStep, shown_fields, visitor_steps
from servicematch.console.counted import on_days
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.paging import day_of
from servicematch.console.shapes import Shape
from servicematch.events.models import EventType, FunnelDaily, FunnelEvent
from servicematch.reporting.rollup import day_runs

# (type, vertical, service, step, field, answer) -> tabs
Counts = Counter[tuple[str, str, str, int, str, str]]


class FunnelStep(Shape):
    """One entry of a funnel: the page view, a step as the visitor numbers it, or the submission."""

    # 'unknown': a step number events carried that the form does not have (now).
    kind: Literal["page_view", "step", "unknown", "submitted"]
    # The catalogue's step number (what events carry); 0 for the page view, null for Submitted.
    step: int | None
    # As the visitor reads it: "Step {number} of {total}"; null outside the form's steps.
    number: int | None
    total: int | None
    title: str
    label: str
    count: int
    dropOffPct: float | None


class Disqualification(Shape):
    field: str
    # The question as the visitor saw it; step: its step as the visitor numbers it.
    label: str
    answer: str
    step: int | None
    count: int


class Funnel(Shape):
    service: str
    vertical: str
    steps: list[FunnelStep]
    submitted: int
    disqualifications: list[Disqualification]


class CallClicks(Shape):
    service: str
    count: int


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


def _steps(index: CatalogIndex, vertical: str, service: str) -> dict[int, VisitorStep]:
    config = index.find(service, vertical)
    return {s.step: s for s in visitor_steps(index, config)} if config else {}


def _step_entry(step: int, shown: VisitorStep | None, count: int) -> dict:
    """A step as the visitor saw it: its number in the form and its questions. An event's step that
    the form does not have (the catalogue changed since, or a made-up event) says so."""
    if shown is None:
        return {"kind": "unknown", "step": step, "number": None, "total": None,
                "title": "Not a step of the form now", "label": f"Step not in the form now (event step {step})",
                "count": count}
    return {"kind": "step", "step": step, "number": shown.number, "total": shown.total, "title": shown.title,
            "label": f"Step {shown.number} of {shown.total}: {shown.title}", "count": count}


def _field_labels(index: CatalogIndex, vertical: str, service: str) -> dict[str, str]:
    config = index.find(service, vertical)
    return {f.id: f.label for _step, f in shown_fields(index, config)} if config else {}


def funnels(index: CatalogIndex, counts: Counts) -> list[dict]:
    services: dict[tuple[str, str], dict] = {}
    for (kind, vertical, service, step, field, answer), tabs in counts.items():
        if not service:
            continue
        entry = services.setdefault((vertical, service), {"page": 0, "steps": defaultdict(int), "submitted": 0,
                                                          "disqualified": Counter()})
        if kind == EventType.PAGE_VIEW:
            entry["page"] += tabs
        elif kind == EventType.STEP_VIEW:
            entry["steps"][step] += tabs
        elif kind == EventType.SUBMITTED:
            entry["submitted"] += tabs
        elif kind == EventType.DISQUALIFIED:
            entry["disqualified"][(step, field, answer)] += tabs
    result = []
    for (vertical, service), entry in sorted(services.items(), key=lambda item: -item[1]["page"]):
        shown = _steps(index, vertical, service)
        # Every step of the form in the visitor's order (one nobody reached shows 0), then any
        # other step events carried.
        numbers = sorted(shown) + sorted(set(entry["steps"]) - set(shown))
        steps = [{"kind": "page_view", "step": 0, "number": None, "total": None, "title": "Page view",
                  "label": "Page view", "count": entry["page"]}]
        steps += [_step_entry(n, shown.get(n), entry["steps"][n]) for n in numbers]
        steps.append({"kind": "submitted", "step": None, "number": None, "total": None, "title": "Submitted",
                      "label": "Submitted", "count": entry["submitted"]})
        previous = None
        for step in steps:
            if step["kind"] == "unknown":
                step["dropOffPct"] = None  # not part of the visitor's way through the form
                continue
            step["dropOffPct"] = (round(100.0 * (previous - step["count"]) / previous, 1)
                                  if previous else 0.0)
            previous = step["count"]
        labels = _field_labels(index, vertical, service)
        disqualified = [{"field": field, "label": labels.get(field, field), "answer": answer,
                         "step": shown[step].number if step in shown else None, "count": tabs}
                        for (step, field, answer), tabs in entry["disqualified"].items()]
        # The last entry repeats `submitted` as a step, so a chart can draw the whole funnel.
        result.append({"service": service, "vertical": vertical, "steps": steps, "submitted": entry["submitted"],
                       "disqualifications": sorted(disqualified, key=lambda d: -d["count"])})
    return result


def call_clicks(counts: Counts) -> list[dict]:
    totals: dict[str, int] = defaultdict(int)
    for (kind, _vertical, service, _step, _field, _answer), tabs in counts.items():
        if kind == EventType.CALL_CLICK and service:
            totals[service] += tabs
    return [{"service": s, "count": c} for s, c in sorted(totals.items(), key=lambda item: (-item[1], item[0]))]
