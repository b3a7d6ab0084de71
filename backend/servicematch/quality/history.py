"""The gate's one database read: what earlier leads and the visitor's own funnel events say about a lead.

One statement of scalar subqueries, each on an index: leads by phone_hash, email_hash and
address_hash, consent records by (ip_address, consented_at), funnel events by (at, service). It is
built once, with parameters, so a lead costs its execution and not the building of a statement; a
key the lead lacks is passed as NULL, which matches nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import Session

from servicematch.events.models import FunnelEvent
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.kernel.clock import as_utc
from servicematch.settings import Settings

# How far before the lead the tab's first funnel event is looked for: a form takes minutes, and a
# visitor who took longer gets no verdict on timing (form_unconfirmed at most), not a wrong one.
FIRST_SEEN_LOOKBACK = timedelta(hours=1)


@dataclass(frozen=True)
class History:
    """Earlier leads within the velocity window sharing each key with this lead (itself not
    counted), and when the server first saw the tab the form named, for this service."""

    phone_leads: int = 0
    email_leads: int = 0
    address_leads: int = 0
    ip_leads: int = 0
    first_seen_at: datetime | None = None


def _earlier_leads(column, key: str):
    return (select(func.count()).select_from(Lead)
            .where(column == bindparam(key), Lead.created_at >= bindparam("since"),
                   Lead.created_at <= bindparam("until"), Lead.id != bindparam("lead_id"))
            .scalar_subquery())


HISTORY = select(
    _earlier_leads(Lead.phone_hash, "phone").label("phone_leads"),
    _earlier_leads(Lead.email_hash, "email").label("email_leads"),
    _earlier_leads(Lead.address_hash, "address").label("address_leads"),
    select(func.count()).select_from(ConsentRecord)
    .where(ConsentRecord.ip_address == bindparam("ip"), ConsentRecord.consented_at >= bindparam("since"),
           ConsentRecord.consented_at <= bindparam("until"), ConsentRecord.lead_id != bindparam("lead_id"))
    .scalar_subquery().label("ip_leads"),
    select(func.min(FunnelEvent.at))
    .where(FunnelEvent.at >= bindparam("seen_since"), FunnelEvent.at <= bindparam("until"),
           FunnelEvent.service == bindparam("service"), FunnelEvent.tab_id == bindparam("tab_id"))
    .scalar_subquery().label("first_seen_at"),
)


def read_history(session: Session, lead: Lead, settings: Settings) -> History:
    """What the velocity and form-timing checks need about `lead`, in one round trip."""
    created = as_utc(lead.created_at)
    row = session.execute(HISTORY, {
        "phone": lead.phone_hash, "email": lead.email_hash, "address": lead.address_hash,
        "ip": lead.consent.ip_address if lead.consent is not None else None,
        "tab_id": (lead.quality_signals or {}).get("tab_id"), "service": lead.service, "lead_id": lead.id,
        "since": created - timedelta(minutes=settings.quality_velocity_window_minutes), "until": created,
        "seen_since": created - FIRST_SEEN_LOOKBACK,
    }).one()
    return History(phone_leads=row.phone_leads, email_leads=row.email_leads, address_leads=row.address_leads,
                   ip_leads=row.ip_leads, first_seen_at=_moment(row.first_seen_at))


def _moment(value: datetime | str | None) -> datetime | None:
    # SQLite answers an aggregate of a DateTime column as text on some versions.
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return as_utc(value)
