"""The dashboard's revenue: sales, and providers' charges less their credits, by the day their lead
came in, by service, state, source and buyer (providers' money is one line, "Providers"), and
earnings per lead (revenue over the range's leads).

Counted days are read from revenue_daily (reporting/), the others from the sales themselves;
console/dashboard.py adds the two parts. A sale belongs to its lead's day, so the dashboard's
filters (the lead's vertical, service, state and source) apply to it as to the lead.

Buyers' approved returns (buyer/returns.py) take their amount off on the sale's own day, its lead's,
under the same buyer, service, state and source; the sale still counts as made. They are read from
the returns themselves on every call, for every day of the range (the live part): the daily counts
never hold them, so an approval needs no counted day reopened and is in the next answer.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from sqlalchemy import func, literal, select
from sqlalchemy.orm import Session

from servicematch.buyer.models import LeadReturn, ReturnStatus
from servicematch.console.counted import CountedDays, on_days
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.paging import day_of
from servicematch.console.shapes import Shape
from servicematch.intake.models import Lead
from servicematch.reporting.models import PROVIDERS, RevenueDaily
from servicematch.reporting.rollup import day_runs, in_runs, lead_dimensions, revenue_rows
from servicematch.routing.models import Buyer

GROUPS = ("day", "service", "state", "source", "buyer")


class RevenueDay(Shape):
    day: str
    cents: int
    sales: int
    earningsPerLeadCents: int | None


class KeyRevenue(Shape):
    """Money in cents; a sale counts on the day its lead came in."""

    key: str
    cents: int
    sales: int


class BuyerRevenue(KeyRevenue):
    # The buyer's current name, "Providers" for providers' money, "deleted buyer" (key "") once gone.
    name: str


class Revenue(Shape):
    cents: int
    sales: int
    leads: int
    earningsPerLeadCents: int | None
    perDay: list[RevenueDay]
    byService: list[KeyRevenue]
    byState: list[KeyRevenue]
    bySource: list[KeyRevenue]
    byBuyer: list[BuyerRevenue]


@dataclass(frozen=True)
class RevenueCounts:
    """Cents and sales of some days of a range, by (group, key); an answer adds two parts."""

    cents: Counter
    sales: Counter

    def __add__(self, other: RevenueCounts) -> RevenueCounts:
        cents, sales = Counter(self.cents), Counter(self.sales)  # the kept part stays as it is
        cents.update(other.cents)
        sales.update(other.sales)
        return RevenueCounts(cents=cents, sales=sales)


def _grouped(session: Session, query) -> RevenueCounts:
    """Rows of (day, service, state, source, buyer, sales, cents), added up by each group."""
    cents: Counter = Counter()
    sales: Counter = Counter()
    for day, service, state, source, buyer, count, total in session.execute(query):
        # revenue_daily gives a day as a date, SQLite's date() as text: one key for both.
        for key in (("day", str(day)[:10]), ("service", service), ("state", state), ("source", source),
                    ("buyer", buyer)):
            cents[key] += int(total)
            sales[key] += int(count)
    return RevenueCounts(cents=cents, sales=sales)


def counted_revenue(session: Session, filters: DashboardFilters, days: CountedDays) -> RevenueCounts:
    if not days.revenue:
        return RevenueCounts(cents=Counter(), sales=Counter())
    table = RevenueDaily
    columns = (table.day, table.service, table.state, table.source, table.buyer_id)
    return _grouped(session, select(*columns, func.sum(table.sales), func.sum(table.cents))
                    .where(on_days(table.day, days.revenue), *filters.dimension_conditions(table))
                    .group_by(*columns))


def live_revenue(session: Session, filters: DashboardFilters, days: CountedDays) -> RevenueCounts:
    """The sales, and providers' charges less credits, of the leads of the range's other days (today,
    normally): the rows the daily counts keep (reporting/rollup.py: revenue_rows), by the lead's day;
    less buyers' approved returns of the whole range."""
    runs = day_runs(filters.start, filters.end, days.revenue)
    if not runs:
        return returned_revenue(session, filters)
    rows = revenue_rows(*filters.lead_conditions(), in_runs(Lead.created_at, runs),
                        by=(day_of(session, Lead.created_at).label("day"),))
    return _grouped(session, select(rows.c.day, rows.c.service, rows.c.state, rows.c.source, rows.c.buyer_id,
                                    rows.c.sales, rows.c.cents)) + returned_revenue(session, filters)


def returned_revenue(session: Session, filters: DashboardFilters) -> RevenueCounts:
    """Buyers' approved returns of the range's leads as negative cents (no fewer sales), by the lead's
    day and dimensions and the buyer. A return comes after its lead, so the index on (status,
    created_at) skips those made before the range."""
    _vertical, service, state, source = lead_dimensions()
    columns = (day_of(session, Lead.created_at), service, state, source, LeadReturn.buyer_id)
    return _grouped(session, select(*columns, literal(0), -func.sum(LeadReturn.amount_cents))
                    .join(Lead, Lead.id == LeadReturn.lead_id)
                    .where(LeadReturn.status == ReturnStatus.APPROVED, LeadReturn.created_at >= filters.since,
                           *filters.lead_conditions())
                    .group_by(*columns))


def per_lead(cents: int, leads: int) -> int | None:
    """Earnings per lead in whole cents; None without a lead."""
    return round(cents / leads) if leads else None


def _ranked(part: RevenueCounts, group: str, empty: str = "unknown") -> list[dict]:
    rows = [{"key": key or empty, "cents": cents, "sales": part.sales[(name, key)]}
            for (name, key), cents in part.cents.items() if name == group]
    return sorted(rows, key=lambda row: (-row["cents"], row["key"]))


def revenue(session: Session, filters: DashboardFilters, part: RevenueCounts,
            leads_per_day: dict[str, int]) -> dict:
    """The answer's revenue; `leads_per_day` is the range's leads by day (ISO), for earnings per lead."""
    cents = sum(c for (name, _key), c in part.cents.items() if name == "day")
    leads = sum(leads_per_day.values())
    by_buyer = _ranked(part, "buyer", empty="")  # "": a deleted buyer, whose sales keep their revenue
    names = {buyer_id: name for buyer_id, name in session.execute(select(Buyer.id, Buyer.name).where(
        Buyer.id.in_([row["key"] for row in by_buyer])))} if by_buyer else {}
    names[PROVIDERS] = "Providers"  # every provider's charges less credits, as one line
    days = [date.fromordinal(n).isoformat() for n in range(filters.start.toordinal(), filters.end.toordinal() + 1)]
    return {
        "cents": cents,
        "sales": sum(s for (name, _key), s in part.sales.items() if name == "day"),
        "leads": leads,
        "earningsPerLeadCents": per_lead(cents, leads),
        "perDay": [{"day": day, "cents": part.cents[("day", day)], "sales": part.sales[("day", day)],
                    "earningsPerLeadCents": per_lead(part.cents[("day", day)], leads_per_day.get(day, 0))}
                   for day in days],
        "byService": _ranked(part, "service"),
        "byState": _ranked(part, "state"),
        "bySource": _ranked(part, "source"),
        "byBuyer": [{**row, "name": names.get(row["key"], "deleted buyer")} for row in by_buyer],
    }
