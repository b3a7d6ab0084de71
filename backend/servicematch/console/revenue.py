"""The dashboard's revenue: what the ledger's accounts were charged for the leads of a range, less
what they got back for them, by the day the lead came in, by service, state, source and buyer
(providers' money is one line, "Providers"), and earnings per lead (revenue over the range's leads).

The figures agree with the ledger to the cent: the revenue of a range is minus the sum of the
revenue entries (console/money_kinds.py: charges, credits, returns, adjustments and reversals of
them) of the range's leads, plus those of no lead (an operator's adjustment, or its reversal)
made in the range, on their own day.

Two parts make it. The daily counts (reporting/rollup.py: revenue_rows) hold each lead's sales to
buyers (one charge each) and providers' charges less credits: counted days are read from
revenue_daily, the others from the same rows live; console/dashboard.py adds the two. The
corrections made later, buyers' returns, reversals and adjustments (and any revenue entry of
another cause), are read from the ledger itself on every call for the whole range, never from the
daily counts: one is in the next answer whether its lead's day is counted or not, and no counted
day is reopened. A correction of a lead counts on its lead's day, under its lead's service, state
and source and its account's buyer (a sale returned or reversed still counts as a sale made); one
of no lead counts on its own day under no service, state or source, so a filter on any of them
leaves it out. A filter on the lead (vertical, service, state, source) applies to its money as to
the lead, and a lead deleted by retention takes its money off the dashboard, not off the ledger.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import date

from sqlalchemy import and_, case, func, literal, or_, select
from sqlalchemy.orm import Session

from servicematch.console.counted import CountedDays, on_days
from servicematch.console.dashboard_filters import DIMENSIONS, DashboardFilters
from servicematch.console.money_kinds import REVENUE_KINDS, of_kinds
from servicematch.console.paging import day_of
from servicematch.console.shapes import Shape
from servicematch.intake.models import Lead
from servicematch.ledger.models import AccountKind, Cause, LedgerAccount, LedgerEntry
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
    and the corrections of the whole range."""
    runs = day_runs(filters.start, filters.end, days.revenue)
    if not runs:
        return corrected_revenue(session, filters)
    rows = revenue_rows(*filters.lead_conditions(), in_runs(Lead.created_at, runs),
                        by=(day_of(session, Lead.created_at).label("day"),))
    return _grouped(session, select(rows.c.day, rows.c.service, rows.c.state, rows.c.source, rows.c.buyer_id,
                                    rows.c.sales, rows.c.cents)) + corrected_revenue(session, filters)


# The causes of the revenue entries the daily counts never hold: every cause but a sale's charge and
# providers' money (reporting/rollup.py: sale_rows, PROVIDER_MONEY), and payments, which are cash.
CORRECTIONS = (Cause.RETURN, Cause.ADJUSTMENT, Cause.ENTRY, Cause.INVOICE)


def corrected_revenue(session: Session, filters: DashboardFilters) -> RevenueCounts:
    """Returns, adjustments, reversals of revenue and any other revenue entry the daily counts do not
    hold, as cents off (or on), no sales: those of the range's leads by the lead's day and
    dimensions, those of no lead by their own day. A correction comes after its lead, so those
    made before the range are skipped."""
    _vertical, service, state, source = lead_dimensions()
    of_leads = and_(Lead.id.is_not(None), *filters.lead_conditions())
    # An entry of no lead has no service, state or source: any filter on the lead leaves it out.
    of_no_lead = and_(LedgerEntry.lead_id.is_(None), LedgerEntry.created_at < filters.until)
    in_range = of_leads if any(getattr(filters, name) for name in DIMENSIONS) else or_(of_leads, of_no_lead)
    buyer = case((LedgerAccount.kind == AccountKind.PROVIDER, literal(PROVIDERS)),
                 else_=func.coalesce(Buyer.id, literal("")))  # "": a deleted buyer, as its sales
    columns = (day_of(session, func.coalesce(Lead.created_at, LedgerEntry.created_at)),
               *(func.coalesce(column, literal("")) for column in (service, state, source)), buyer)
    return _grouped(session, select(*columns, literal(0), -func.sum(LedgerEntry.amount_cents))
                    .select_from(LedgerEntry)
                    .join(LedgerAccount, LedgerAccount.id == LedgerEntry.account_id)
                    .outerjoin(Lead, Lead.id == LedgerEntry.lead_id)
                    .outerjoin(Buyer, and_(LedgerAccount.kind == AccountKind.BUYER, Buyer.id == LedgerAccount.owner_id))
                    .where(LedgerEntry.cause.in_(CORRECTIONS), LedgerEntry.created_at >= filters.since,
                           of_kinds(REVENUE_KINDS), in_range)
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
