"""The gate's one database read: what earlier leads and the visitor's own funnel events say about a lead.

One statement of scalar subqueries, each on an index: leads by phone_hash, email_hash and
address_hash, consent records by (ip_address, consented_at), funnel events by (at, service). A
round of leads is asked about in one statement: its keys arrive as a row a lead (PostgreSQL unnests
one array parameter a key; SQLite reads one JSON array), and each row's counts are subqueries
correlated to it. The statement is the same whatever the round's size, so it is compiled once: one
built for each size cost 15 s of CPU and 200 MB of memory to compile for sizes 1 to 64. A key the
lead lacks is NULL, which matches nothing.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import DateTime, Integer, String, bindparam, func, select, type_coerce
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import Session

from servicematch.db.arrays import as_arrays, unnested
from servicematch.events.models import FunnelEvent
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.kernel.clock import as_utc
from servicematch.settings import Settings

# How far before the lead the tab's first funnel event is looked for: a form takes minutes, and a
# visitor who took longer gets no verdict on timing (form_unconfirmed at most), not a wrong one.
FIRST_SEEN_LOOKBACK = timedelta(hours=1)
# What each lead of a round is asked about: its keys, and the window its counts cover.
_MOMENT = DateTime(timezone=True)
_KEYS = (("n", Integer), ("lead_id", String), ("phone", String), ("email", String), ("address", String),
         ("ip", String), ("tab_id", String), ("service", String), ("since", _MOMENT), ("until", _MOMENT),
         ("seen_since", _MOMENT))


@dataclass(frozen=True)
class History:
    """Earlier leads within the velocity window sharing each key with this lead (itself not
    counted), and when the server first saw the tab the form named, for this service."""

    phone_leads: int = 0
    email_leads: int = 0
    address_leads: int = 0
    ip_leads: int = 0
    first_seen_at: datetime | None = None


def _asked_postgresql():
    """A row a lead from one array parameter a key, zipped by unnest()."""
    return unnested("asked", _KEYS)


def _asked_sqlite():
    """A row a lead from one JSON array of objects, SQLite having no array parameters."""
    rows = func.json_each(bindparam("rows", type_=String)).table_valued("value")
    return select(*(type_coerce(func.json_extract(rows.c.value, f"$.{name}"), kind).label(name)
                    for name, kind in _KEYS)).subquery("asked")


@functools.cache
def histories_statement(dialect_name: str):
    """The one statement for a round of any size, on this dialect."""
    asked = _asked_postgresql() if dialect_name == "postgresql" else _asked_sqlite()

    def earlier_leads(key_column, key: str):
        return (select(func.count()).select_from(Lead)
                .where(key_column == asked.c[key], Lead.created_at >= asked.c.since,
                       Lead.created_at <= asked.c.until, Lead.id != asked.c.lead_id)
                .scalar_subquery())

    return select(
        asked.c.n,
        earlier_leads(Lead.phone_hash, "phone").label("phone_leads"),
        earlier_leads(Lead.email_hash, "email").label("email_leads"),
        earlier_leads(Lead.address_hash, "address").label("address_leads"),
        select(func.count()).select_from(ConsentRecord)
        .where(ConsentRecord.ip_address == asked.c.ip, ConsentRecord.consented_at >= asked.c.since,
               ConsentRecord.consented_at <= asked.c.until, ConsentRecord.lead_id != asked.c.lead_id)
        .scalar_subquery().label("ip_leads"),
        select(func.min(FunnelEvent.at))
        .where(FunnelEvent.at >= asked.c.seen_since, FunnelEvent.at <= asked.c.until,
               FunnelEvent.service == asked.c.service, FunnelEvent.tab_id == asked.c.tab_id)
        .scalar_subquery().label("first_seen_at"),
    )


def read_history(session: Session, lead: Lead, settings: Settings) -> History:
    """What the velocity and form-timing checks need about `lead`, in one round trip."""
    return read_histories(session, [lead], settings)[lead.id]


def read_histories(session: Session, leads: list[Lead], settings: Settings) -> dict[str, History]:
    """{lead id: History} for a round of leads (each with its consent loaded), in one round trip
    however many."""
    if not leads:
        return {}
    dialect = session.get_bind().dialect
    rows = session.execute(histories_statement(dialect.name), history_parameters(leads, settings, dialect))
    return {leads[row.n].id: History(phone_leads=row.phone_leads, email_leads=row.email_leads,
                                     address_leads=row.address_leads, ip_leads=row.ip_leads,
                                     first_seen_at=_moment(row.first_seen_at))
            for row in rows}


def history_parameters(leads: list[Lead], settings: Settings, dialect: Dialect) -> dict:
    """The values of `histories_statement(dialect.name)` for these leads."""
    asked = [_keys_of(n, lead, settings) for n, lead in enumerate(leads)]
    if dialect.name == "postgresql":
        return as_arrays(asked, _KEYS)
    # JSON carries no dates: each moment goes as the text SQLite stores for that column.
    stored = _MOMENT.bind_processor(dialect) or str
    return {"rows": json.dumps([{name: stored(keys[name]) if kind is _MOMENT else keys[name] for name, kind in _KEYS}
                                for keys in asked])}


def _keys_of(n: int, lead: Lead, settings: Settings) -> dict:
    created = as_utc(lead.created_at)
    return {
        "n": n, "lead_id": lead.id, "phone": lead.phone_hash, "email": lead.email_hash,
        "address": lead.address_hash, "ip": lead.consent.ip_address if lead.consent is not None else None,
        "tab_id": (lead.quality_signals or {}).get("tab_id"), "service": lead.service,
        "since": created - timedelta(minutes=settings.quality_velocity_window_minutes),
        "until": created, "seen_since": created - FIRST_SEEN_LOOKBACK,
    }


def _moment(value: datetime | str | None) -> datetime | None:
    # SQLite answers an aggregate of a DateTime column as text on some versions.
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return as_utc(value)
