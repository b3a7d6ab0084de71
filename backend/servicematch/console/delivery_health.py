"""The dashboard's delivery health: a range's deliveries of leads (to buyers and providers) by
status, and the median and 99th percentile of their time to delivery; apart from them, the
consumers' consent receipts and the privacy notices (lead.revoked, .deleted, .corrected) by status.

Counted days are read from delivery_daily and the histograms of delivery_latency_daily
(reporting/), the others from the deliveries themselves; console/dashboard.py adds the two parts.
Where no histogram answers the filters, the percentiles are exact, taken over every time of the
range: the counted days' times are then part of the counted part (kept in memory with it), and
the other days' times are read on each call.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import chain

from sqlalchemy import Float, Integer, and_, case, cast, func, literal, select
from sqlalchemy.orm import Session

from servicematch.console.counted import CountedDays, day_stretches, on_days
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.shapes import Shape
from servicematch.delivery.models import Delivery, DeliveryStatus
from servicematch.events.rollup import day_start
from servicematch.intake.models import Lead
from servicematch.privacy.notices import LEAD
from servicematch.reporting import latency
from servicematch.reporting.latency import GROWTH, SMALLEST_SECONDS, bucket_of
from servicematch.reporting.models import Carried, DeliveryDaily, DeliveryLatencyDaily, LatencyGrain
from servicematch.reporting.rollup import day_runs, in_runs, seconds_to_deliver

# Counted days' times kept for exact percentiles, at most (8 bytes each); a range with more
# reads its percentiles over the whole range on each call.
MAX_KEPT_TIMES = 50_000

Runs = list[tuple[datetime, datetime]]


@dataclass(frozen=True)
class DeliveryCounts:
    """Deliveries of some days of a range; an answer adds the counted days' and the others'."""

    statuses: Counter  # by (what was carried: reporting/models.py Carried, status)
    buckets: Counter  # times to delivery by histogram bucket, where a histogram answers the filters
    # Else the times themselves, in sorted runs (one per part added); None when not kept.
    times: tuple[Sequence[float], ...] | None

    def __add__(self, other: DeliveryCounts) -> DeliveryCounts:
        statuses, buckets = Counter(self.statuses), Counter(self.buckets)  # the kept part stays as it is
        statuses.update(other.statuses)
        buckets.update(other.buckets)
        times = None if self.times is None or other.times is None else self.times + other.times
        return DeliveryCounts(statuses=statuses, buckets=buckets, times=times)


def _filtered(filters: DashboardFilters) -> bool:
    return bool(filters.vertical or filters.service or filters.state or filters.source)


def _deliveries(filters: DashboardFilters, runs: Runs, *columns, live: bool = False):
    """A subquery of `columns` of the deliveries created in `runs` whose lead passes the filters."""
    rows = select(*columns).where(in_runs(Delivery.created_at, runs))
    if not _filtered(filters):
        return rows.subquery()
    # A lead's deliveries are created with it: bounding its leads to the same days (with a day's
    # margin) keeps PostgreSQL from reading every lead of the range to join them.
    of_leads = (*filters.lead_conditions(), Lead.created_at >= runs[0][0] - timedelta(days=1))
    if not live:
        return rows.join(Lead, Lead.id == Delivery.lead_id).where(*of_leads).subquery()
    # The open days: both sides are read once and joined by hashing. The planner's statistics
    # predate most of today's rows, and from them it would look up the deliveries once per lead.
    leads = select(Lead.id).where(*of_leads).cte("open_leads").prefix_with("MATERIALIZED", dialect="postgresql")
    deliveries = rows.add_columns(Delivery.lead_id).cte("open_deliveries").prefix_with(
        "MATERIALIZED", dialect="postgresql")
    return select(deliveries).join(leads, leads.c.id == deliveries.c.lead_id).subquery()


def _time(session: Session):
    """Seconds from queued to delivered (as a double on PostgreSQL, the type percentile_cont takes);
    null unless a lead's delivery, delivered."""
    seconds = seconds_to_deliver(session)
    if session.bind.dialect.name == "postgresql":
        seconds = cast(seconds, Float)
    return case((and_(Delivery.payload_kind == LEAD, Delivery.status == DeliveryStatus.DELIVERED), seconds),
                else_=None)


def bucket_sql(seconds):
    """reporting/latency.py:bucket_of in PostgreSQL, in the same double-precision steps, of a
    double (null stays null)."""
    smallest, growth = literal(SMALLEST_SECONDS, Float), literal(GROWTH, Float)
    steps = func.ln(seconds / smallest, type_=Float) / func.ln(growth, type_=Float)  # doubles throughout
    return case((seconds <= smallest, 0), else_=cast(func.trunc(steps, type_=Float), Integer) + 1)


def _latency_grain(filters: DashboardFilters, days: CountedDays) -> tuple[str, list] | None:
    """The histograms that answer these filters, with their conditions; None when none do, or no
    day is counted: the percentiles are then exact, over every time of the range. Histograms are
    kept per service, per state and per source; a state or source with anything else has none."""
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


def _sorted_times(session: Session, filters: DashboardFilters, runs: Runs) -> list[float]:
    rows = _deliveries(filters, runs, _time(session).label("seconds"))
    return [float(s) for s in session.scalars(select(rows.c.seconds).where(rows.c.seconds.is_not(None))
                                              .order_by(rows.c.seconds))]


def counted_deliveries(session: Session, filters: DashboardFilters, days: CountedDays) -> DeliveryCounts:
    """The range's counted days: statuses and the histogram from the daily counts; for exact
    percentiles, the days' times from the deliveries themselves, unless there are too many."""
    statuses: Counter[tuple[str, str]] = Counter()
    buckets: Counter[int] = Counter()
    if not days.deliveries:
        return DeliveryCounts(statuses=statuses, buckets=buckets, times=())
    for payload_kind, status, count in session.execute(
        select(DeliveryDaily.payload_kind, DeliveryDaily.status, func.sum(DeliveryDaily.deliveries))
        .where(on_days(DeliveryDaily.day, days.deliveries), *filters.dimension_conditions(DeliveryDaily))
        .group_by(DeliveryDaily.payload_kind, DeliveryDaily.status)
    ):
        statuses[Carried.of(payload_kind), status] += int(count)
    grain = _latency_grain(filters, days)
    if grain is None:
        if statuses[Carried.LEADS, DeliveryStatus.DELIVERED] > MAX_KEPT_TIMES:
            return DeliveryCounts(statuses=statuses, buckets=buckets, times=None)
        runs = [(day_start(first), day_start(last + timedelta(days=1))) for first, last in day_stretches(days.deliveries)]
        return DeliveryCounts(statuses=statuses, buckets=buckets,
                              times=(array("d", _sorted_times(session, filters, runs)),))
    name, conditions = grain
    for bucket, count in session.execute(
        select(DeliveryLatencyDaily.bucket, func.sum(DeliveryLatencyDaily.deliveries))
        .where(on_days(DeliveryLatencyDaily.day, days.deliveries), DeliveryLatencyDaily.grain == name, *conditions)
        .group_by(DeliveryLatencyDaily.bucket)
    ):
        buckets[bucket] += int(count)
    return DeliveryCounts(statuses=statuses, buckets=buckets, times=None)


def live_deliveries(session: Session, filters: DashboardFilters, days: CountedDays) -> DeliveryCounts:
    """The range's other days, in one statement: statuses, with the histogram or the times."""
    statuses: Counter[tuple[str, str]] = Counter()
    buckets: Counter[int] = Counter()
    times: list[float] = []
    runs = day_runs(filters.start, filters.end, days.deliveries)
    exact = _latency_grain(filters, days) is None
    if runs:
        # A delivered delivery's time where the percentiles are exact, else its bucket (from
        # PostgreSQL; SQLite gives the time).
        bucketed = not exact and session.bind.dialect.name == "postgresql"
        measure = (bucket_sql(_time(session)) if bucketed else _time(session)).label("measure")
        rows = _deliveries(filters, runs, Delivery.payload_kind, Delivery.status, measure, live=True)
        for payload_kind, status, value, count in session.execute(
                select(rows.c.payload_kind, rows.c.status, rows.c.measure, func.count())
                .group_by(rows.c.payload_kind, rows.c.status, rows.c.measure)):
            statuses[Carried.of(payload_kind), status] += count
            if value is None:
                continue
            if exact:
                times.extend([float(value)] * count)
            else:
                buckets[value if bucketed else bucket_of(float(value))] += count
    return DeliveryCounts(statuses=statuses, buckets=buckets, times=(sorted(times),) if exact else None)


class StatusCounts(Shape):
    """Deliveries by status; `total` includes the skipped ones (never sent, on purpose)."""

    total: int
    pending: int
    delivered: int
    rejected: int
    failed: int
    skipped: int


class CarriedCounts(Shape):
    """The lead's own deliveries (to buyers and providers), consent receipts, privacy notices and the
    other messages about it (offer, acceptance and review-request e-mails), apart."""

    leads: StatusCounts
    receipts: StatusCounts
    notices: StatusCounts
    messages: StatusCounts


class DeliverySummary(StatusCounts):
    """The leads' deliveries of a range, with receipts and privacy notices counted apart."""

    successRate: float | None
    p50Seconds: float | None
    p99Seconds: float | None
    receipts: StatusCounts
    notices: StatusCounts
    messages: StatusCounts


def by_carried(statuses: Counter) -> dict[str, dict[str, int]]:
    """Counts by (what was carried, status) as {leads|receipts|notices: {total, <each status>}}."""
    return {carried: {"total": sum(n for (of, _status), n in statuses.items() if of == carried),
                      **{status: statuses[carried, status] for status in DeliveryStatus.ALL}}
            for carried in Carried.ALL}


def delivery_health(session: Session, filters: DashboardFilters, days: CountedDays, part: DeliveryCounts) -> dict:
    """The leads' deliveries, with `receipts` and `notices` beside them, each counted on its own."""
    counted = by_carried(part.statuses)
    leads = counted[Carried.LEADS]
    delivered, failed, rejected = leads["delivered"], leads["failed"], leads["rejected"]
    finished = delivered + failed + rejected
    if _latency_grain(filters, days) is not None:  # within 5% (reporting/latency.py)
        p50, p99 = latency.percentile(part.buckets, 0.5), latency.percentile(part.buckets, 0.99)
    elif part.times is not None:
        p50, p99 = exact_percentile(part.times, 0.5), exact_percentile(part.times, 0.99)
    else:  # the counted days had too many times to keep
        p50, p99 = _exact_percentiles(session, filters)
    return {
        **leads, "successRate": round(delivered / finished, 4) if finished else None,
        "p50Seconds": _rounded(p50), "p99Seconds": _rounded(p99),
        "receipts": counted[Carried.RECEIPTS], "notices": counted[Carried.NOTICES],
        "messages": counted[Carried.MESSAGES],
    }


def _rounded(seconds: float | None) -> float | None:
    return round(float(seconds), 3) if seconds is not None else None


def _exact_percentiles(session: Session, filters: DashboardFilters) -> tuple[float | None, float | None]:
    """Over every day of the range, read live."""
    runs = day_runs(filters.start, filters.end, frozenset())
    if session.bind.dialect.name == "postgresql":
        rows = _deliveries(filters, runs, _time(session).label("seconds"))
        return tuple(session.execute(select(func.percentile_cont(0.5).within_group(rows.c.seconds),
                                            func.percentile_cont(0.99).within_group(rows.c.seconds))).one())
    # SQLite has no percentile function; it serves one machine's volume, so sorting here is fine.
    times = (_sorted_times(session, filters, runs),)
    return exact_percentile(times, 0.5), exact_percentile(times, 0.99)


def exact_percentile(runs: tuple[Sequence[float], ...], fraction: float) -> float | None:
    """Linear interpolation between closest ranks, as PostgreSQL's percentile_cont, over the
    values of sorted runs taken together; None when there is none."""
    total = sum(len(run) for run in runs)
    if not total:
        return None
    position = fraction * (total - 1)
    low = int(position)
    high = min(low + 1, total - 1)
    below, above = _nth(runs, low), _nth(runs, high)
    return below + (above - below) * (position - low)


def _nth(runs: tuple[Sequence[float], ...], rank: int) -> float:
    """The rank-th smallest (from 0) of the runs' values together, without merging two runs."""
    runs = sorted((run for run in runs if len(run)), key=len, reverse=True)
    if len(runs) == 1:
        return runs[0][rank]
    first, second = runs[0], sorted(chain.from_iterable(runs[1:])) if len(runs) > 2 else runs[1]
    # Take `low` values from first and the rest of the rank + 1 smallest from second.
    low, high = max(0, rank + 1 - len(second)), min(rank + 1, len(first))
    while low < high:
        taken = (low + high) // 2
        if first[taken] < second[rank - taken]:
            low = taken + 1
        else:
            high = taken
    return max(([first[low - 1]] if low else []) + ([second[rank - low]] if rank + 1 > low else []))
