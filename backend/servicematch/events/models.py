"""Funnel events: raw rows kept for a month, and daily counts kept indefinitely."""

from __future__ import annotations

from datetime import date, datetime

from sqlalchemy import BigInteger, Date, DateTime, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.kernel.clock import utcnow
from servicematch.kernel.orm import Base

BigId = BigInteger().with_variant(Integer(), "sqlite")


class EventType:
    PAGE_VIEW = "page_view"
    STEP_VIEW = "step_view"
    STEP_COMPLETE = "step_complete"
    DISQUALIFIED = "disqualified"
    SUBMITTED = "submitted"
    CALL_CLICK = "call_click"
    ALL = (PAGE_VIEW, STEP_VIEW, STEP_COMPLETE, DISQUALIFIED, SUBMITTED, CALL_CLICK)


class FunnelEvent(Base):
    """One thing a visitor's tab did. Nothing personal: no address, no contact, no free text."""

    __tablename__ = "funnel_events"
    # The second: the quality gate's first sight of a tab (quality/history.py), one probe a lead.
    __table_args__ = (Index("ix_funnel_events_at_service", "at", "service"),
                      Index("ix_funnel_events_tab_id_at", "tab_id", "at"))

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    type: Mapped[str] = mapped_column(String(16))
    route_type: Mapped[str] = mapped_column(String(24))
    vertical: Mapped[str] = mapped_column(String(32), default="")
    service: Mapped[str] = mapped_column(String(64), default="")
    step: Mapped[int] = mapped_column(Integer, default=0)
    # Only for "disqualified": the field id and the catalogue's text of the disqualifying option.
    field: Mapped[str] = mapped_column(String(64), default="")
    answer: Mapped[str] = mapped_column(String(200), default="")
    # A random id per browser tab: counts visitors, not clicks, and names nobody.
    tab_id: Mapped[str] = mapped_column(String(64))
    # subid1 value, "subid2:<value>", "fbclid" or "direct".
    source: Mapped[str] = mapped_column(String(120), default="direct")


class FunnelDaily(Base):
    """Tabs that did one thing on one day: the funnel once its raw events are gone."""

    __tablename__ = "funnel_daily"
    __table_args__ = (Index("ix_funnel_daily_day_service", "day", "service"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    day: Mapped[date] = mapped_column(Date)
    type: Mapped[str] = mapped_column(String(16))
    vertical: Mapped[str] = mapped_column(String(32))
    service: Mapped[str] = mapped_column(String(64))
    step: Mapped[int] = mapped_column(Integer)
    field: Mapped[str] = mapped_column(String(64))
    answer: Mapped[str] = mapped_column(String(200))
    tabs: Mapped[int] = mapped_column(Integer)


class RolledUpDay(Base):
    """A day whose events are in funnel_daily. Inserting the row first claims the day's roll-up,
    so two processes never count one day twice."""

    __tablename__ = "funnel_rolled_up_days"

    day: Mapped[date] = mapped_column(Date, primary_key=True)
    rolled_up_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
