"""The dashboard's delivery health: a range's lead deliveries by status, and the median and 99th
percentile of their time to delivery.

Counted days are read from delivery_daily and the histograms of delivery_latency_daily
(reporting/), the others from the deliveries themselves; console/dashboard.py adds the two parts.
"""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.console.counted import CountedDays, on_days
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.delivery.models import LEAD_KINDS, Delivery, DeliveryStatus
from servicematch.intake.models import Lead
from servicematch.reporting import latency
from servicematch.reporting.latency import bucket_of
from servicematch.reporting.models import DeliveryDaily, DeliveryLatencyDaily, LatencyGrain
from servicematch.reporting.rollup import day_runs, in_runs, seconds_to_deliver


def _live_deliveries(query, filters: DashboardFilters, runs: list):
    """Restrict a query on deliveries to the range's uncounted days and the filters."""
    query = query.where(Delivery.kind.in_(LEAD_KINDS), in_runs(Delivery.created_at, runs))
    if filters.vertical or filters.service or filters.state or filters.source:
        # A lead's deliveries are created with it: bounding its leads to the same days (with a
        # day's margin) keeps PostgreSQL from reading every lead of the range to join them.
        query = query.join(Lead, Lead.id == Delivery.lead_id).where(
            *filters.lead_conditions(), Lead.created_at >= runs[0][0] - timedelta(days=1))
    return query


def _delivered(query):
    return query.where(Delivery.status == DeliveryStatus.DELIVERED, Delivery.completed_at.is_not(None))


def _latency_grain(filters: DashboardFilters, days: CountedDays) -> tuple[str, list] | None:
    """The histograms that answer these filters, with their conditions; None when none do, or no
    day is counted: the percentiles are then exact, read live over the whole range. Histograms
    are kept per service, per state and per source; a state or source with anything else has none."""
    table = DeliveryLatencyDaily
    if not days.deliveries:
        return None
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


def counted_deliveries(session: Session, filters: DashboardFilters, days: CountedDays) -> tuple[Counter, Counter]:
    """(deliveries by status, time-to-delivery histogram) of the range's counted days."""
    statuses: Counter[str] = Counter()
    buckets: Counter[int] = Counter()
    if not days.deliveries:
        return statuses, buckets
    for status, count in session.execute(
        select(DeliveryDaily.status, func.sum(DeliveryDaily.deliveries))
        .where(on_days(DeliveryDaily.day, days.deliveries), *filters.dimension_conditions(DeliveryDaily))
        .group_by(DeliveryDaily.status)
    ):
        statuses[status] += int(count)
    grain = _latency_grain(filters, days)
    if grain is not None:
        name, conditions = grain
        for bucket, count in session.execute(
            select(DeliveryLatencyDaily.bucket, func.sum(DeliveryLatencyDaily.deliveries))
            .where(on_days(DeliveryLatencyDaily.day, days.deliveries), DeliveryLatencyDaily.grain == name,
                   *conditions)
            .group_by(DeliveryLatencyDaily.bucket)
        ):
            buckets[bucket] += int(count)
    return statuses, buckets


def live_deliveries(session: Session, filters: DashboardFilters, days: CountedDays) -> tuple[Counter, Counter]:
    """(deliveries by status, time-to-delivery histogram) of the range's other days; the histogram
    only where the counted days' one answers these filters."""
    statuses: Counter[str] = Counter()
    buckets: Counter[int] = Counter()
    runs = day_runs(filters.start, filters.end, days.deliveries)
    if not runs:
        return statuses, buckets
    for status, count in session.execute(
        _live_deliveries(select(Delivery.status, func.count()), filters, runs).group_by(Delivery.status)
    ):
        statuses[status] += int(count)
    if _latency_grain(filters, days) is not None:
        for seconds in session.scalars(
                _delivered(_live_deliveries(select(seconds_to_deliver(session)), filters, runs))):
            if seconds is not None:
                buckets[bucket_of(float(seconds))] += 1
    return statuses, buckets


def delivery_health(session: Session, filters: DashboardFilters, days: CountedDays, statuses: Counter,
                    buckets: Counter) -> dict:
    delivered = statuses[DeliveryStatus.DELIVERED]
    failed, rejected = statuses[DeliveryStatus.FAILED], statuses[DeliveryStatus.REJECTED]
    finished = delivered + failed + rejected
    if _latency_grain(filters, days) is None:
        p50, p99 = _exact_percentiles(session, filters)
    else:  # within 5% (reporting/latency.py)
        p50, p99 = latency.percentile(buckets, 0.5), latency.percentile(buckets, 0.99)
    return {
        "total": sum(statuses.values()), "delivered": delivered, "failed": failed, "rejected": rejected,
        "pending": statuses[DeliveryStatus.PENDING],
        "successRate": round(delivered / finished, 4) if finished else None,
        "p50Seconds": _rounded(p50), "p99Seconds": _rounded(p99),
    }


def _rounded(seconds: float | None) -> float | None:
    return round(float(seconds), 3) if seconds is not None else None


def _exact_percentiles(session: Session, filters: DashboardFilters) -> tuple[float | None, float | None]:
    """Over every day of the range, read live."""
    runs = day_runs(filters.start, filters.end, frozenset())
    seconds = seconds_to_deliver(session)
    if session.bind.dialect.name == "postgresql":
        query = _delivered(_live_deliveries(
            select(func.percentile_cont(0.5).within_group(seconds), func.percentile_cont(0.99).within_group(seconds)),
            filters, runs))
        return tuple(session.execute(query).one())
    # SQLite has no percentile function; it serves one machine's volume, so sorting here is fine.
    values = sorted(float(v) for v in session.scalars(_delivered(_live_deliveries(select(seconds), filters, runs)))
                    if v is not None)
    if not values:
        return None, None
    return _percentile(values, 0.5), _percentile(values, 0.99)


def _percentile(values: list[float], fraction: float) -> float:
    """Linear interpolation between closest ranks, as PostgreSQL's percentile_cont."""
    position = fraction * (len(values) - 1)
    low = int(position)
    high = min(low + 1, len(values) - 1)
    return values[low] + (values[high] - values[low]) * (position - low)
