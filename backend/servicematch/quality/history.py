"""The gate's one database read: what earlier leads and the visitor's own funnel events say about a lead.

One statement of scalar subqueries, each on an index: leads by phone_hash, email_hash and
address_hash, consent records by (ip_address, consented_at), funnel events by (at, service). A
round of leads is asked about in one statement, a row a lead joined by UNION ALL. It is built once
for each number of leads, with parameters, so a lead costs its execution and not the building of
a statement; a key the lead lacks is passed as NULL, which matches nothing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, func, literal, select, union_all
from sqlalchemy.orm import Session

from servicematch.events.models import FunnelEvent
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.kernel.clock import as_utc
from servicematch.settings import Settings

# How far before the lead the tab's first funnel event is looked for: a form takes minutes, and a
# visitor who took longer gets no verdict on timing (form_unconfirmed at most), not a wrong one.
FIRST_SEEN_LOOKBACK = timedelta(hours=1)
# The most leads one statement asks about (ten parameters each; SQLite allows 32,766 a statement).
MOST_AT_ONCE = 64


@dataclass(frozen=True)
class History:
    """Earlier leads within the velocity window sharing each key with this lead (itself not
    counted), and when the server first saw the tab the form named, for this service."""

    phone_leads: int = 0
    email_leads: int = 0
    address_leads: int = 0
    ip_leads: int = 0
    first_seen_at: datetime | None = None


def _earlier_leads(column, key: str, n: int):
    return (select(func.count()).select_from(Lead)
            .where(column == bindparam(f"{key}_{n}"), Lead.created_at >= bindparam(f"since_{n}"),
                   Lead.created_at <= bindparam(f"until_{n}"), Lead.id != bindparam(f"lead_id_{n}"))
            .scalar_subquery())


def _history_of(n: int):
    """The row of the n-th lead asked about, its parameters named with the suffix _n."""
    def named(key: str):
        return bindparam(f"{key}_{n}")

    return select(
        literal(n).label("n"),
        _earlier_leads(Lead.phone_hash, "phone", n).label("phone_leads"),
        _earlier_leads(Lead.email_hash, "email", n).label("email_leads"),
        _earlier_leads(Lead.address_hash, "address", n).label("address_leads"),
        select(func.count()).select_from(ConsentRecord)
        .where(ConsentRecord.ip_address == named("ip"), ConsentRecord.consented_at >= named("since"),
               ConsentRecord.consented_at <= named("until"), ConsentRecord.lead_id != named("lead_id"))
        .scalar_subquery().label("ip_leads"),
        select(func.min(FunnelEvent.at))
        .where(FunnelEvent.at >= named("seen_since"), FunnelEvent.at <= named("until"),
               FunnelEvent.service == named("service"), FunnelEvent.tab_id == named("tab_id"))
        .scalar_subquery().label("first_seen_at"),
    )


@functools.cache
def histories_statement(count: int):
    """The statement for `count` leads at once: their rows joined by UNION ALL, built once a count."""
    parts = [_history_of(n) for n in range(count)]
    return parts[0] if count == 1 else union_all(*parts)


def read_history(session: Session, lead: Lead, settings: Settings) -> History:
    """What the velocity and form-timing checks need about `lead`, in one round trip."""
    return read_histories(session, [lead], settings)[lead.id]


def read_histories(session: Session, leads: list[Lead], settings: Settings) -> dict[str, History]:
    """{lead id: History} for a round of leads (each with its consent loaded), in one round trip
    however many (up to MOST_AT_ONCE a statement)."""
    found: dict[str, History] = {}
    for start in range(0, len(leads), MOST_AT_ONCE):
        some = leads[start:start + MOST_AT_ONCE]
        for row in session.execute(histories_statement(len(some)), history_parameters(some, settings)):
            found[some[row.n].id] = History(phone_leads=row.phone_leads, email_leads=row.email_leads,
                                            address_leads=row.address_leads, ip_leads=row.ip_leads,
                                            first_seen_at=_moment(row.first_seen_at))
    return found


def history_parameters(leads: list[Lead], settings: Settings) -> dict:
    """The values of `histories_statement(len(leads))` for these leads."""
    values = {}
    for n, lead in enumerate(leads):
        created = as_utc(lead.created_at)
        values.update({
            f"phone_{n}": lead.phone_hash, f"email_{n}": lead.email_hash, f"address_{n}": lead.address_hash,
            f"ip_{n}": lead.consent.ip_address if lead.consent is not None else None,
            f"tab_id_{n}": (lead.quality_signals or {}).get("tab_id"), f"service_{n}": lead.service,
            f"lead_id_{n}": lead.id,
            f"since_{n}": created - timedelta(minutes=settings.quality_velocity_window_minutes),
            f"until_{n}": created, f"seen_since_{n}": created - FIRST_SEEN_LOOKBACK,
        })
    return values


def _moment(value: datetime | str | None) -> datetime | None:
    # SQLite answers an aggregate of a DateTime column as text on some versions.
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return as_utc(value)
