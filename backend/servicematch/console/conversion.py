"""GET /api/console/conversion: what buyers' leads became, by buyer, service or source.

Counted over the sales made in a range of days (UTC, by the sale's time): each sale once, under its
buyer, its lead's service or its lead's source (as the dashboard names sources). A sale's feedback
status is its newest feedback (buyer/feedback.py), so a lead told "contacted" then "sold" counts as
sold only; `withFeedback` counts the sales with any. `returned` counts the sales whose return was
approved (their price is off the revenue). Nothing personal is read.
"""

from __future__ import annotations

from typing import Literal

from sqlalchemy import case, func, literal, select
from sqlalchemy.orm import Session

from servicematch.buyer.models import FeedbackStatus, LeadFeedback, LeadReturn, ReturnStatus
from servicematch.catalog.loader import CatalogIndex
from servicematch.console.dashboard_filters import DashboardFilters
from servicematch.console.shapes import Shape
from servicematch.intake.models import Lead
from servicematch.reporting.rollup import lead_source
from servicematch.routing.models import Buyer, Sale

GROUPS = ("buyer", "service", "source")
Group = Literal["buyer", "service", "source"]


class ConversionRow(Shape):
    # The buyer's id ("" once deleted), "vertical/service", or the source.
    key: str
    label: str
    sold: int
    withFeedback: int
    contacted: int
    appointment: int
    quoted: int
    # Feedback "sold": the buyer sold its own product or service to the consumer.
    soldOn: int
    bad: int
    returned: int


class Conversion(Shape):
    items: list[ConversionRow]


def _newest_feedback(filters: DashboardFilters):
    """Each sale's newest feedback status; feedback comes after its sale, so none older than the range counts."""
    rank = func.row_number().over(partition_by=LeadFeedback.sale_id,
                                  order_by=(LeadFeedback.created_at.desc(), LeadFeedback.id.desc()))
    ranked = (select(LeadFeedback.sale_id, LeadFeedback.status, rank.label("n"))
              .where(LeadFeedback.created_at >= filters.since).subquery())
    return select(ranked.c.sale_id, ranked.c.status).where(ranked.c.n == 1).subquery()


def _keys(group: str) -> tuple:
    if group == "buyer":
        return (func.coalesce(Sale.buyer_id, literal("")),)
    if group == "service":
        return (Lead.vertical, Lead.service)
    return (lead_source(),)


def conversion(session: Session, catalog: CatalogIndex, filters: DashboardFilters, group: str) -> dict:
    """One row per buyer, service or source with a sale in the range, most sales first."""
    newest = _newest_feedback(filters)
    approved = (select(LeadReturn.sale_id).where(LeadReturn.status == ReturnStatus.APPROVED,
                                                 LeadReturn.created_at >= filters.since).subquery())

    def having(status: str):
        return func.sum(case((newest.c.status == status, 1), else_=0))

    keys = _keys(group)
    query = (select(*keys, func.count(Sale.id), func.count(newest.c.sale_id),
                    *(having(status) for status in FeedbackStatus.ALL), func.count(approved.c.sale_id))
             .join(Lead, Lead.id == Sale.lead_id)
             .outerjoin(newest, newest.c.sale_id == Sale.id)
             .outerjoin(approved, approved.c.sale_id == Sale.id)
             .where(Sale.created_at >= filters.since, Sale.created_at < filters.until)
             .group_by(*keys))
    rows = []
    for *key, sold, given, contacted, appointment, quoted, sold_on, bad, returned in session.execute(query):
        rows.append({"key": "/".join(key), "label": "", "sold": sold, "withFeedback": given,
                     "contacted": int(contacted or 0), "appointment": int(appointment or 0), "quoted": int(quoted or 0),
                     "soldOn": int(sold_on or 0), "bad": int(bad or 0), "returned": returned})
    _label(session, catalog, group, rows)
    return {"items": sorted(rows, key=lambda row: (-row["sold"], row["label"], row["key"]))}


def _label(session: Session, catalog: CatalogIndex, group: str, rows: list[dict]) -> None:
    """What a person reads for each key: the buyer's current name, the service's name, the source itself."""
    if group == "buyer":
        ids = [row["key"] for row in rows if row["key"]]
        names = dict(session.execute(select(Buyer.id, Buyer.name).where(Buyer.id.in_(ids))).all()) if ids else {}
        for row in rows:
            row["label"] = names.get(row["key"], "deleted buyer")
    elif group == "service":
        for row in rows:
            vertical, _, slug = row["key"].partition("/")
            service = catalog.find(slug, vertical)
            row["label"] = service.name if service else slug
    else:
        for row in rows:
            row["label"] = row["key"] or "unknown"
