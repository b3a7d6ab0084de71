"""Count each closed day's leads, deliveries and sales once (reporting/models.py).

Runs beside the funnel roll-up (events/buffer.py), hourly. A day is claimed by inserting its
ReportedDay row in the same transaction as its counts: a second process counting the same day
fails on the primary key and rolls back.
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import UTC, date, datetime, timedelta

from sqlalchemy import (
    ColumnElement,
    and_,
    case,
    false,
    func,
    insert,
    literal,
    or_,
    select,
    union_all,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from servicematch.delivery.models import Delivery, DeliveryStatus
from servicematch.delivery.outbox import retry_delivery
from servicematch.events.rollup import day_start
from servicematch.intake.models import Lead
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.ledger.models import Cause, EntryKind, LedgerEntry
from servicematch.privacy.holds import NotSentAgain, why_not_send_again
from servicematch.privacy.notices import LEAD
from servicematch.reporting.latency import bucket_of
from servicematch.reporting.models import (
    PROVIDERS,
    DeliveryDaily,
    DeliveryLatencyDaily,
    LatencyGrain,
    LeadDaily,
    ReportedDay,
    ReportKind,
    RevenueDaily,
    reopen_delivery_day,
)
from servicematch.routing.models import Sale

log = logging.getLogger("servicematch.reporting")


def lead_source():
    """subid1's value, else "subid2:<value>", else "fbclid" when present, else "website" (the lead's
    own source): a column the database derives from the lead's click (intake/models.py: SOURCE)."""
    return Lead.__table__.c.source


def lead_dimensions():
    """What the dashboard groups and filters by, as columns of a lead."""
    return (Lead.vertical, Lead.service, func.coalesce(Lead.state, literal("")), lead_source())


def seconds_to_deliver(session: Session):
    if session.bind.dialect.name == "postgresql":
        return func.extract("epoch", Delivery.completed_at - Delivery.created_at)
    return (func.julianday(Delivery.completed_at) - func.julianday(Delivery.created_at)) * 86400.0


def reported_days(session: Session, kind: str, first: date, last: date) -> set[date]:
    return set(session.scalars(select(ReportedDay.day).where(
        ReportedDay.kind == kind, ReportedDay.day >= first, ReportedDay.day <= last)).all())


def _days_to_count(session: Session, kind: str, column, before: date) -> list[date]:
    first = session.scalar(select(func.min(column)))
    if first is None or first.date() >= before:
        return []
    done = reported_days(session, kind, first.date(), before)
    days, day = [], first.date()
    while day < before:
        if day not in done:
            days.append(day)
        day += timedelta(days=1)
    return days


def _claim(session: Session, kind: str, day: date) -> bool:
    try:
        session.add(ReportedDay(kind=kind, day=day, counted_at=utcnow()))
        session.flush()
    except IntegrityError:
        session.rollback()
        return False
    return True


def _in_day(column, day: date) -> tuple:
    return column >= day_start(day), column < day_start(day + timedelta(days=1))


def _count_day(session_factory: sessionmaker[Session], kind: str, day: date, table, columns: list[str],
               counts) -> bool:
    with session_factory() as session:
        if not _claim(session, kind, day):
            return False
        session.execute(insert(table).from_select(["day", "vertical", "service", "state", "source", *columns],
                                                  counts))
        session.commit()
    return True


def count_lead_day(session_factory: sessionmaker[Session], day: date) -> bool:
    dimensions = lead_dimensions()
    counts = (select(literal(day), *dimensions, func.count())
              .where(*_in_day(Lead.created_at, day)).group_by(*dimensions))
    return _count_day(session_factory, ReportKind.LEADS, day, LeadDaily, ["leads"], counts)


def sale_buyer():
    """A sale's buyer id, "" once the buyer is deleted."""
    return func.coalesce(Sale.buyer_id, literal(""))


REVENUE_COLUMNS = ("vertical", "service", "state", "source", "buyer_id", "sales", "cents")


def _labelled(*columns) -> list:
    return [column.label(name) for column, name in zip(columns, REVENUE_COLUMNS, strict=True)]


def sale_rows(*conditions, by=()):
    """REVENUE_COLUMNS of buyers' sales of the leads that pass, grouped also by `by`."""
    dimensions = (*lead_dimensions(), sale_buyer())
    return (select(*_labelled(*dimensions, func.count(), func.sum(Sale.price_cents)), *by)
            .join(Lead, Lead.id == Sale.lead_id).where(*conditions).group_by(*dimensions, *by))


# The ledger's entries that are providers' revenue: accepted offers' charges and approved credits.
PROVIDER_MONEY = (Cause.OFFER, Cause.CREDIT_REQUEST)


def provider_money_rows(*conditions, by=()):
    """The same of providers' money, under the one buyer key PROVIDERS: each accepted lead's charge
    is a sale, and an approved credit takes its amount off (counted with the lead, like a sale).
    The ledger keeps a charge negative (it takes from the provider's funds): revenue is its opposite."""
    dimensions = lead_dimensions()
    charges = func.sum(case((LedgerEntry.kind == EntryKind.CHARGE, 1), else_=0))
    return (select(*_labelled(*dimensions, literal(PROVIDERS), charges, -func.sum(LedgerEntry.amount_cents)), *by)
            .join(Lead, Lead.id == LedgerEntry.lead_id).where(LedgerEntry.cause.in_(PROVIDER_MONEY), *conditions)
            .group_by(*dimensions, *by))


def revenue_rows(*conditions, by=()):
    """Sales and providers' money together: one subquery of REVENUE_COLUMNS (and `by`)."""
    return union_all(sale_rows(*conditions, by=by), provider_money_rows(*conditions, by=by)).subquery()


def count_revenue_day(session_factory: sessionmaker[Session], day: date) -> bool:
    """Count the sales of the leads that came in on `day`, by buyer, and providers' charges less credits."""
    rows = revenue_rows(*_in_day(Lead.created_at, day))
    counts = select(literal(day), *(rows.c[name] for name in REVENUE_COLUMNS))
    return _count_day(session_factory, ReportKind.REVENUE, day, RevenueDaily, ["buyer_id", "sales", "cents"], counts)


def count_delivery_day(session_factory: sessionmaker[Session], day: date) -> bool:
    """Count a day's deliveries (leads, receipts and notices, each apart) once none of them is
    pending; False when not (yet) counted. Times to delivery are the leads' only."""
    dimensions = lead_dimensions()
    of_day = _in_day(Delivery.created_at, day)
    with session_factory() as session:
        pending = session.scalar(select(func.count()).select_from(Delivery).where(
            *of_day, Delivery.status == DeliveryStatus.PENDING))
        if pending or not _claim(session, ReportKind.DELIVERIES, day):
            return False
        session.execute(insert(DeliveryDaily).from_select(
            ["day", "vertical", "service", "state", "source", "payload_kind", "status", "deliveries"],
            select(literal(day), *dimensions, Delivery.payload_kind, Delivery.status, func.count())
            .join(Lead, Lead.id == Delivery.lead_id).where(*of_day)
            .group_by(*dimensions, Delivery.payload_kind, Delivery.status)))
        buckets: Counter[tuple[str, str, str, str, str, int]] = Counter()
        for vertical, service, state, source, seconds in session.execute(
            select(*dimensions, seconds_to_deliver(session))
            .join(Lead, Lead.id == Delivery.lead_id)
            .where(*of_day, Delivery.payload_kind == LEAD, Delivery.status == DeliveryStatus.DELIVERED,
                   Delivery.completed_at.is_not(None))
        ):
            bucket = bucket_of(float(seconds))
            buckets[(LatencyGrain.SERVICE, vertical, service, "", "", bucket)] += 1
            buckets[(LatencyGrain.STATE, "", "", state, "", bucket)] += 1
            buckets[(LatencyGrain.SOURCE, "", "", "", source, bucket)] += 1
        if buckets:
            session.execute(insert(DeliveryLatencyDaily), [
                {"day": day, "grain": grain, "vertical": v, "service": s, "state": st, "source": src,
                 "bucket": b, "deliveries": n}
                for (grain, v, s, st, src, b), n in buckets.items()])
        session.commit()
    return True


def roll_up(session_factory: sessionmaker[Session], *, today: date | None = None) -> tuple[int, int]:
    """Count every closed day not counted yet; returns (lead days, delivery days) counted. Sales
    are counted with the leads' days (count_revenue_day), and logged."""
    today = today or utcnow().date()
    with session_factory() as session:
        lead_days = _days_to_count(session, ReportKind.LEADS, Lead.created_at, today)
        revenue_days = _days_to_count(session, ReportKind.REVENUE, Lead.created_at, today)
        # A delivery created late yesterday may be retried until late today.
        delivery_days = _days_to_count(session, ReportKind.DELIVERIES, Delivery.created_at,
                                       today - timedelta(days=1))
    leads = sum(1 for day in lead_days if count_lead_day(session_factory, day))
    deliveries = sum(1 for day in delivery_days if count_delivery_day(session_factory, day))
    revenue = sum(1 for day in revenue_days if count_revenue_day(session_factory, day))
    if leads or deliveries or revenue:
        log.info("daily counts: %d day(s) of leads, %d day(s) of deliveries, %d day(s) of sales",
                 leads, deliveries, revenue)
    return leads, deliveries


def day_runs(first: date, last: date, skip: set[date] | frozenset[date]) -> list[tuple[datetime, datetime]]:
    """The stretches of days from first to last not in `skip`, as [start, end) timestamps."""
    runs: list[tuple[datetime, datetime]] = []
    day = first
    while day <= last:
        if day not in skip:
            start, end = day_start(day), day_start(day + timedelta(days=1))
            if runs and runs[-1][1] == start:
                runs[-1] = (runs[-1][0], end)
            else:
                runs.append((start, end))
        day += timedelta(days=1)
    return runs


def in_runs(column, runs: list[tuple[datetime, datetime]]) -> ColumnElement[bool]:
    """`column` (a timestamp) falls in one of `runs` (day_runs)."""
    return or_(false(), *(and_(column >= start, column < end) for start, end in runs))


def retry_counted_delivery(*, session: Session, delivery_id: str) -> Delivery:
    """Queue a failed or rejected delivery again (delivery.outbox) and forget its day's counts:
    the dashboard counted that day with the old outcome, and counts it again once settled.
    A lead's details are not queued again once its consumer withdrew consent, was erased or opted
    out of sale (409, saying which); the worker would hold them anyway."""
    queued = session.get(Delivery, delivery_id)
    if queued is not None and (why := why_not_send_again(session, queued)):
        raise NotSentAgain(f"Not sent again: {why}.")
    delivery = retry_delivery(session=session, delivery_id=delivery_id)
    reopen_delivery_day(session, as_utc(delivery.created_at).astimezone(UTC).date())
    return delivery
