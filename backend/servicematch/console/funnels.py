"""Funnels from first-party events: page views, each step, submissions, disqualifications, call clicks.

Closed days are read from the daily counts; days not counted yet (today, normally) from the raw
events, counted the same way (distinct tabs per day), so the two halves add up alike.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.console.paging import day_of
from servicematch.events.models import EventType, FunnelDaily, FunnelEvent, RolledUpDay
from servicematch.events.rollup import day_start

# (type, vertical, service, step, field, answer) -> tabs
Counts = dict[tuple[str, str, str, int, str, str], int]


def _runs(days: list[date]) -> list[tuple[date, date]]:
    """Consecutive days as (first, last) pairs."""
    runs: list[tuple[date, date]] = []
    for day in days:
        if runs and runs[-1][1] + timedelta(days=1) == day:
            runs[-1] = (runs[-1][0], day)
        else:
            runs.append((day, day))
    return runs


def event_counts(session: Session, filters) -> Counts:
    counts: Counts = defaultdict(int)
    daily_where = [FunnelDaily.day >= filters.start, FunnelDaily.day <= filters.end]
    raw_where = []
    if filters.vertical:
        daily_where.append(FunnelDaily.vertical == filters.vertical)
        raw_where.append(FunnelEvent.vertical == filters.vertical)
    if filters.service:
        daily_where.append(FunnelDaily.service == filters.service)
        raw_where.append(FunnelEvent.service == filters.service)
    daily_keys = (FunnelDaily.type, FunnelDaily.vertical, FunnelDaily.service, FunnelDaily.step,
                  FunnelDaily.field, FunnelDaily.answer)
    for *key, tabs in session.execute(
        select(*daily_keys, func.sum(FunnelDaily.tabs)).where(*daily_where).group_by(*daily_keys)
    ):
        counts[tuple(key)] += int(tabs)
    rolled = set(session.scalars(select(RolledUpDay.day).where(RolledUpDay.day >= filters.start,
                                                              RolledUpDay.day <= filters.end)).all())
    open_days = [filters.start + timedelta(days=n) for n in range((filters.end - filters.start).days + 1)]
    raw_keys = (FunnelEvent.type, FunnelEvent.vertical, FunnelEvent.service, FunnelEvent.step,
                FunnelEvent.field, FunnelEvent.answer)
    day = day_of(session, FunnelEvent.at)
    for first, last in _runs([d for d in open_days if d not in rolled]):
        per_day = (
            select(day.label("day"), *raw_keys, func.count(func.distinct(FunnelEvent.tab_id)).label("tabs"))
            .where(FunnelEvent.at >= day_start(first), FunnelEvent.at < day_start(last + timedelta(days=1)),
                   *raw_where)
            .group_by(day, *raw_keys)
        ).subquery()
        summed = select(per_day.c.type, per_day.c.vertical, per_day.c.service, per_day.c.step, per_day.c.field,
                        per_day.c.answer, func.sum(per_day.c.tabs)).group_by(
            per_day.c.type, per_day.c.vertical, per_day.c.service, per_day.c.step, per_day.c.field,
            per_day.c.answer)
        for *key, tabs in session.execute(summed):
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


def funnels(session: Session, index: CatalogIndex, filters, counts: Counts | None = None) -> list[dict]:
    counts = counts if counts is not None else event_counts(session, filters)
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


def call_clicks(session: Session, filters, counts: Counts | None = None) -> list[dict]:
    counts = counts if counts is not None else event_counts(session, filters)
    totals: dict[str, int] = defaultdict(int)
    for (kind, _vertical, service, _step, _field, _answer), tabs in counts.items():
        if kind == EventType.CALL_CLICK and service:
            totals[service] += tabs
    return [{"service": s, "count": c} for s, c in sorted(totals.items(), key=lambda item: (-item[1], item[0]))]
