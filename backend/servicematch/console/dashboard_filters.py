"""The dashboard's filters: a range of days, and a vertical, service, state and source."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from servicematch.console.paging import day_start, parse_day
from servicematch.errors import ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.reporting.rollup import lead_source

DEFAULT_DAYS = 30
MAX_DAYS = 366
DIMENSIONS = ("vertical", "service", "state", "source")


@dataclass(frozen=True)
class DashboardFilters:
    """Frozen and compared by value: part of the key of the dashboard's cache (console/counted.py)."""

    start: date
    end: date  # inclusive
    vertical: str = ""
    service: str = ""
    state: str = ""
    source: str = ""

    @classmethod
    def parse(cls, *, date_from: str | None, date_to: str | None, vertical: str = "", service: str = "",
              state: str = "", source: str = "") -> DashboardFilters:
        end = parse_day(date_to, "to") or utcnow().date()
        start = parse_day(date_from, "from") or end - timedelta(days=DEFAULT_DAYS - 1)
        if start > end:
            raise ServiceMatchError("from must not be after to.", fields={"from": "after to"}, status_code=422)
        if (end - start).days >= MAX_DAYS:
            raise ServiceMatchError(f"Choose a range of at most {MAX_DAYS} days.", fields={"from": "range too long"},
                                    status_code=422)
        return cls(start=start, end=end, vertical=vertical, service=service, state=state.upper(), source=source)

    @property
    def since(self):
        return day_start(self.start)

    @property
    def until(self):
        return day_start(self.end + timedelta(days=1))

    def lead_conditions(self) -> list:
        conditions = [Lead.created_at >= self.since, Lead.created_at < self.until]
        if self.vertical:
            conditions.append(Lead.vertical == self.vertical)
        if self.service:
            conditions.append(Lead.service == self.service)
        if self.state:
            conditions.append(Lead.state == self.state)
        if self.source:
            conditions.append(lead_source() == self.source)
        return conditions

    def dimension_conditions(self, table, names: tuple[str, ...] = DIMENSIONS) -> list:
        """The filters on a table's columns of these names (reporting/models.py: DailyDimensions)."""
        return [getattr(table, name) == getattr(self, name) for name in names if getattr(self, name)]
