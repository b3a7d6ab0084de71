"""A one-column-wide table: the cheapest durable write the app can make, as a yardstick."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from servicematch.db.base import Base
from servicematch.intake.models import utcnow


class BenchmarkRow(Base):
    __tablename__ = "benchmark_rows"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    request_id: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
