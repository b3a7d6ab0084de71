"""Providers' money reaches the counted days as sales do: a ledger entry (a charge or a credit) for
a lead of a day already counted reopens that day's revenue, in the entry's own transaction.

Charges are posted where an offer is accepted (the portal, or routing's auto-accept) and credits
where a request is approved (the portal, the console): rather than each writer remembering to
reopen the day, as routing's on_sale hook does for sales, every inserted LedgerEntry of providers'
revenue (rollup.PROVIDER_MONEY) does it. Other entries (buyers' sales, returns, payments) leave the
counted days alone: sales reopen theirs through on_sale, and the rest are not in the counts. The
composition roots (app.py, workers.py) install the listener; the cost is one small read per entry.
"""

from __future__ import annotations

from sqlalchemy import event, select

from servicematch.intake.models import Lead
from servicematch.ledger.models import LedgerEntry
from servicematch.reporting.models import ReportedDay, ReportKind, lead_day, reopen_revenue_day
from servicematch.reporting.rollup import PROVIDER_MONEY


def _reopen_the_leads_day(_mapper, connection, entry: LedgerEntry) -> None:
    if entry.lead_id is None or entry.cause not in PROVIDER_MONEY:
        return
    created_at = connection.scalar(select(Lead.created_at).where(Lead.id == entry.lead_id))
    if created_at is None:
        return
    counted = connection.scalar(select(ReportedDay.day).where(ReportedDay.kind == ReportKind.REVENUE,
                                                             ReportedDay.day == lead_day(created_at)))
    if counted is not None:
        reopen_revenue_day(connection, created_at)


def watch_ledger() -> None:
    """Reopen a counted day for each new ledger entry of its leads (once per process)."""
    if not event.contains(LedgerEntry, "after_insert", _reopen_the_leads_day):
        event.listen(LedgerEntry, "after_insert", _reopen_the_leads_day)
