"""Daily counts of funnel events, and the 30-day limit on raw events.

Each closed day (before today, UTC) is counted once: claiming it inserts its row in
funnel_rolled_up_days in the same transaction as its counts, so a second process trying the
same day fails on the primary key and rolls back. Counts are distinct tabs, so a visitor who
opens step 2 twice is one visitor at step 2.
"""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import delete, func, insert, literal, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from servicematch.events.models import FunnelDaily, FunnelEvent, RolledUpDay
from servicematch.kernel.clock import utcnow

log = logging.getLogger("servicematch.events")
GROUP_COLUMNS = (FunnelEvent.type, FunnelEvent.vertical, FunnelEvent.service, FunnelEvent.step,
                 FunnelEvent.field, FunnelEvent.answer)


def day_start(day: date) -> datetime:
    """Midnight UTC at the start of a day."""
    return datetime.combine(day, time.min, tzinfo=UTC)


def _day_bounds(day: date) -> tuple[datetime, datetime]:
    return day_start(day), day_start(day + timedelta(days=1))


def days_with_events(session: Session, *, before: date) -> list[date]:
    """Closed days that have raw events and no counts yet."""
    first = session.scalar(select(func.min(FunnelEvent.at)))
    if first is None:
        return []
    rolled = set(session.scalars(select(RolledUpDay.day).where(RolledUpDay.day >= first.date())).all())
    days, day = [], first.date()
    while day < before:
        if day not in rolled:
            days.append(day)
        day += timedelta(days=1)
    return days


def roll_up_day(session_factory: sessionmaker[Session], day: date) -> bool:
    """Count one day's events into funnel_daily; False when another process did it first."""
    start, end = _day_bounds(day)
    counts = (
        select(literal(day).label("day"), *GROUP_COLUMNS, func.count(func.distinct(FunnelEvent.tab_id)))
        .where(FunnelEvent.at >= start, FunnelEvent.at < end)
        .group_by(*GROUP_COLUMNS)
    )
    with session_factory() as session:
        try:
            session.add(RolledUpDay(day=day, rolled_up_at=utcnow()))
            session.flush()
        except IntegrityError:
            session.rollback()
            return False
        session.execute(insert(FunnelDaily).from_select(
            ["day", "type", "vertical", "service", "step", "field", "answer", "tabs"], counts))
        session.commit()
    return True


def roll_up_and_prune(session_factory: sessionmaker[Session], *, retention_days: int,
                      today: date | None = None) -> int:
    """Count every closed day not yet counted, then delete raw events past retention. Returns days counted."""
    today = today or utcnow().date()
    with session_factory() as session:
        pending = days_with_events(session, before=today)
    counted = sum(1 for day in pending if roll_up_day(session_factory, day))
    cutoff, _ = _day_bounds(today - timedelta(days=retention_days))
    with session_factory() as session:
        # Only days already counted lose their raw events.
        counted_days = select(RolledUpDay.day)
        removed = session.execute(
            delete(FunnelEvent).where(FunnelEvent.at < cutoff,
                                      func.date(FunnelEvent.at).in_(counted_days)
                                      if session.bind.dialect.name == "sqlite" else
                                      func.date(func.timezone("UTC", FunnelEvent.at)).in_(counted_days))
        ).rowcount
        session.commit()
    if counted or removed:
        log.info("funnel events: %d day(s) counted, %d raw event(s) past retention removed", counted, removed)
    return counted
