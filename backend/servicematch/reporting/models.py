"""Daily counts of leads, deliveries and sales: what the dashboard reads for days that are over.

A lead's day is over at midnight UTC; a delivery's once no delivery created that day is still
pending (its retry window closes a day later). Each closed day is counted once (ReportedDay),
so a year of dashboard reads a few hundred rows a day instead of every lead.

Revenue is counted by the day its lead came in, so that a day's earnings per lead are that day's
sales over that day's leads; a lead sold after its day was counted reopens the day
(reopen_revenue_day), and the next roll-up counts it again.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from sqlalchemy import BigInteger, Connection, Date, DateTime, Index, Integer, String, delete
from sqlalchemy.orm import Mapped, Session, mapped_column

from servicematch.kernel.clock import utcnow
from servicematch.kernel.orm import Base
from servicematch.privacy.notices import LEAD, NOTICE_KINDS, RECEIPT

BigId = BigInteger().with_variant(Integer(), "sqlite")


class ReportKind:
    LEADS = "leads"
    DELIVERIES = "deliveries"
    REVENUE = "revenue"


class DailyDimensions:
    """The columns a daily count is kept by: one day, and the lead's vertical, service, state
    ("" when the lead had none) and source (reporting/rollup.py:lead_source)."""

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    day: Mapped[date] = mapped_column(Date)
    vertical: Mapped[str] = mapped_column(String(32))
    service: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(2))
    source: Mapped[str] = mapped_column(String(120))


class LeadDaily(DailyDimensions, Base):
    """Leads of one day with the same vertical, service, state and source."""

    __tablename__ = "lead_daily"
    __table_args__ = (Index("ix_lead_daily_day", "day"),)

    leads: Mapped[int] = mapped_column(Integer)


class DeliveryDaily(DailyDimensions, Base):
    """Deliveries created on one day, by their lead, what they carried and their final status."""

    __tablename__ = "delivery_daily"
    __table_args__ = (Index("ix_delivery_daily_day", "day"),)

    # The delivery's payload_kind: the lead itself (to a buyer or a provider), the consumer's
    # consent receipt, or a privacy notice (lead.revoked, lead.deleted, lead.corrected).
    payload_kind: Mapped[str] = mapped_column(String(24))
    status: Mapped[str] = mapped_column(String(16))
    deliveries: Mapped[int] = mapped_column(Integer)


class Carried:
    """What the console counts apart: deliveries of the lead itself, consent receipts, privacy
    notices (servicematch.privacy.notices NOTICE_KINDS), and the other messages about a lead (a
    provider's offer e-mail, the consumer's acceptance and review-request e-mails), by a
    delivery's payload_kind."""

    LEADS = "leads"
    RECEIPTS = "receipts"
    NOTICES = "notices"
    MESSAGES = "messages"
    ALL = (LEADS, RECEIPTS, NOTICES, MESSAGES)

    @staticmethod
    def of(payload_kind: str) -> str:
        if payload_kind in NOTICE_KINDS:
            return Carried.NOTICES
        return {LEAD: Carried.LEADS, RECEIPT: Carried.RECEIPTS}.get(payload_kind, Carried.MESSAGES)


# RevenueDaily's buyer_id of providers' money (a buyer id is a 36-character UUID, never this).
PROVIDERS = "providers"


class RevenueDaily(DailyDimensions, Base):
    """Sales of the leads of one day with the same vertical, service, state and source, to one
    buyer ("" once the buyer is deleted): how many, and what they earned in cents. Providers'
    money is one more "buyer", PROVIDERS: its accepted leads' charges as sales, less credits."""

    __tablename__ = "revenue_daily"
    __table_args__ = (Index("ix_revenue_daily_day", "day"),)

    buyer_id: Mapped[str] = mapped_column(String(36))
    sales: Mapped[int] = mapped_column(Integer)
    cents: Mapped[int] = mapped_column(BigInteger)


class LatencyGrain:
    """What a delivery-time histogram row is kept per: a service (vertical and service set), a
    state, or a source (the other columns empty). Per state and source together it would be
    nearly a row per delivery."""

    SERVICE = "service"
    STATE = "state"
    SOURCE = "source"


class DeliveryLatencyDaily(DailyDimensions, Base):
    """Delivered deliveries of leads (not receipts or notices) of one day and one service (or
    state, or source) whose time to delivery fell in one bucket (reporting/latency.py):
    percentiles over any range merge these."""

    __tablename__ = "delivery_latency_daily"
    __table_args__ = (Index("ix_delivery_latency_daily_day_grain", "day", "grain"),)

    grain: Mapped[str] = mapped_column(String(8))
    bucket: Mapped[int] = mapped_column(Integer)
    deliveries: Mapped[int] = mapped_column(Integer)


class ReportedDay(Base):
    """A day whose leads (or deliveries) are counted: claimed in the counting transaction, so two
    processes never count the same day twice."""

    __tablename__ = "reported_days"

    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    counted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


def reopen_delivery_day(session: Session, day: date) -> None:
    """Forget a day's delivery counts (a delivery of that day is being sent again); the next
    roll-up counts the day afresh once it is settled, and until then the dashboard reads it live."""
    session.execute(delete(ReportedDay).where(ReportedDay.kind == ReportKind.DELIVERIES, ReportedDay.day == day))
    session.execute(delete(DeliveryDaily).where(DeliveryDaily.day == day))
    session.execute(delete(DeliveryLatencyDaily).where(DeliveryLatencyDaily.day == day))


def lead_day(created_at: datetime) -> date:
    """The UTC day of a lead's time (SQLite gives it back without a zone, in UTC)."""
    return (created_at.replace(tzinfo=UTC) if created_at.tzinfo is None else created_at.astimezone(UTC)).date()


OPEN_DAY_MARGIN = timedelta(minutes=5)


def reopen_revenue_day(session: Session | Connection, lead_created_at: datetime) -> None:
    """Forget the revenue counts of a lead's day (the lead is being sold, charged or credited after
    its day was counted); the next roll-up counts the day again, and until then the dashboard reads
    it live."""
    day = lead_day(lead_created_at)
    if day >= (utcnow() + OPEN_DAY_MARGIN).date():
        # Only closed days are counted (rollup.roll_up): a lead of a day still open, as nearly every
        # lead sold is, has nothing to reopen. The margin covers a counting process whose clock runs
        # a little ahead of this one's.
        return
    session.execute(delete(ReportedDay).where(ReportedDay.kind == ReportKind.REVENUE, ReportedDay.day == day))
    session.execute(delete(RevenueDaily).where(RevenueDaily.day == day))
