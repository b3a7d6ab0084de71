"""An open buyer portal's live updates: GET /api/buyer/events, a server-sent event stream.

Sales are recorded by the worker, another process, so the stream watches the table, as the
provider portal's does (portal/router_events.py): one query along the sales' (buyer_id,
created_at) index reads the buyer's sales of the last few minutes, and each one not seen at the
last look is sent as

    event: lead.bought
    data: {"id": "<lead id>", "reference": "7K3M-Q9TX"}

The stream looks every POLL_SECONDS, so a sale reaches an open page within about a second of its
commit, whichever process made it. The first look only sets the baseline, taken before the
stream opens: the page reads its list again each time the stream (re)opens, so a sale committed
after the baseline is in that list, or sent, or both. The event names no person; the page reads
the lead through the API, under the same rules as any read.

A comment line goes out after 15 s without an event so proxies keep the connection. The stream
ends when the browser goes away and when the session ends, expires or goes idle (checked every
30 s without counting as the person's use). No database connection is held between looks.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

from fastapi import Request
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.access.event_stream import watched_events
from servicematch.buyer.sessions import BUYER_PORTAL
from servicematch.intake.models import Lead
from servicematch.kernel.references import shown_reference
from servicematch.routing.models import Sale

POLL_SECONDS = 1.0
KEEPALIVE_SECONDS = 15.0
SESSION_CHECK_SECONDS = 30.0
# Sales this recent are read at each look. The margin covers a worker's transaction that commits
# some time after its rows' created_at (a sale is stamped before its batch commits).
RECENT = timedelta(minutes=10)
# How long the browser waits before reconnecting after the stream ends (ms).
RETRY_MS = 3000
BOUGHT = "lead.bought"


class SaleWatch:
    """One buyer's recent sales as last seen, and which are new since."""

    def __init__(self, buyer_id: str) -> None:
        self.buyer_id = buyer_id
        self.known: set[str] | None = None

    def look(self, db: Session, now: datetime) -> list[dict[str, str]]:
        recent = dict(db.execute(select(Sale.id, Sale.lead_id).where(
            Sale.buyer_id == self.buyer_id, Sale.created_at >= now - RECENT)).all())
        if self.known is None:
            self.known = set(recent)
            return []
        new_leads = sorted({lead_id for sale_id, lead_id in recent.items() if sale_id not in self.known})
        self.known = set(recent)
        if not new_leads:
            return []
        references = dict(db.execute(select(Lead.id, Lead.reference).where(Lead.id.in_(new_leads))).all())
        return [{"id": lead_id, "reference": shown_reference(references[lead_id])}
                for lead_id in new_leads if lead_id in references]


def bought_event(lead: dict[str, str]) -> bytes:
    return f"event: {BOUGHT}\ndata: {json.dumps(lead)}\n\n".encode()


def sale_events(request: Request, factory: sessionmaker[Session], *, watch: SaleWatch, session_id: str,
                idle: timedelta) -> AsyncIterator[bytes]:
    return watched_events(request, factory, watch=watch, event=bought_event, kind=BUYER_PORTAL,
                          session_id=session_id, idle=idle, poll_seconds=POLL_SECONDS,
                          keepalive_seconds=KEEPALIVE_SECONDS, session_check_seconds=SESSION_CHECK_SECONDS,
                          retry_ms=RETRY_MS)
