"""An open portal's live updates: GET /api/pro/providers/{id}/events, a server-sent event stream.

Offers are written by the worker, another process, so the stream watches the table: one indexed
query (provider_offers by provider: the open ones, and those created in the last few minutes
whatever their status) is compared with the last look, and each offer that is new or whose status
changed is sent as

    event: offer
    data: {"id": "...", "status": "open"}

A look follows every commit this process hears of that changed offers (its own worker tells it
through their pipe, worker_process.py; a tap in the portal commits here), and at least once a second
for what it cannot hear of (a worker beside another web process, an operator's command).

The first look only sets the baseline, and is taken before the stream opens: the page reads its list
again each time it sees the stream (re)open, so an offer committed after the baseline is in that
list, or sent, or both, and nothing from before is sent. The event names no person and nothing of
the job; the page fetches the offer through the API, under the same rules as any read.

A comment line goes out after 15 s without an event so proxies keep the connection. The stream ends
when the browser goes away, and when the session has ended, expired or gone idle (checked every
30 s without counting as the provider's use: an unattended phone is not kept signed in by it). No
database connection is held between looks: each look opens a session and closes it before sleeping.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import aclosing
from datetime import datetime, timedelta
from typing import Self

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from sqlalchemy import or_, select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.access.event_stream import watched_events
from servicematch.deps import SessionDep, SessionFactoryDep, SettingsDep
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES
from servicematch.kernel import wakeup
from servicematch.kernel.clock import utcnow
from servicematch.portal.auth import OwnProvider
from servicematch.portal.sessions import API_PREFIX, PORTAL
from servicematch.routing.models import OfferStatus, ProviderOffer

POLL_SECONDS = 1.0
KEEPALIVE_SECONDS = 15.0
SESSION_CHECK_SECONDS = 30.0
# Offers created this recently are read whatever their status: one accepted at once (auto-accept)
# or decided between two looks is never seen open. The margin also covers a worker's transaction
# that commits some time after its rows' created_at.
RECENT = timedelta(minutes=10)
# The status sent for an offer that is no longer there at all (its lead was erased).
REMOVED = "removed"
# How long the browser waits before reconnecting after the stream ends (ms).
RETRY_MS = 3000

router = APIRouter(prefix=API_PREFIX, tags=["portal"], responses=SIGNED_IN_ERROR_RESPONSES)


class OfferSignal:
    """Set, on the stream's event loop, when this process hears that offers changed."""

    def __init__(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._changed = asyncio.Event()

    def __enter__(self) -> Self:
        wakeup.offers.subscribe(self._set)
        return self

    def __exit__(self, *_) -> None:
        wakeup.offers.unsubscribe(self._set)

    def _set(self) -> None:  # on the committing thread
        try:
            self._loop.call_soon_threadsafe(self._changed.set)
        except RuntimeError:  # the stream's loop has closed: it no longer listens
            wakeup.offers.unsubscribe(self._set)

    async def wait(self, seconds: float) -> None:
        """Until offers change or `seconds` pass, whichever comes first."""
        with anyio.move_on_after(seconds):
            await self._changed.wait()
        self._changed.clear()


class OfferWatch:
    """One provider's offers as last seen (id -> status), and what changed since."""

    def __init__(self, provider_id: str) -> None:
        self.provider_id = provider_id
        self.known: dict[str, str] | None = None

    def look(self, db: Session, now: datetime) -> list[dict[str, str]]:
        offer = ProviderOffer
        seen = dict(db.execute(
            select(offer.id, offer.status).where(
                offer.provider_id == self.provider_id,
                or_(offer.status == OfferStatus.OPEN, offer.created_at >= now - RECENT))
        ).all())
        if self.known is None:
            self.known = seen
            return []
        changed = {offer_id: status for offer_id, status in seen.items() if self.known.get(offer_id) != status}
        # An open offer older than RECENT leaves the rows above once it is decided, expired or withdrawn:
        # its new status is read by key (rare: one small query, and only then).
        left = [offer_id for offer_id, status in self.known.items()
                if status == OfferStatus.OPEN and offer_id not in seen]
        if left:
            found = dict(db.execute(select(offer.id, offer.status).where(offer.id.in_(left))).all())
            changed.update({offer_id: found.get(offer_id, REMOVED) for offer_id in left})
        self.known = seen
        return [{"id": offer_id, "status": status} for offer_id, status in sorted(changed.items())]


def offer_event(change: dict[str, str]) -> bytes:
    return f"event: offer\ndata: {json.dumps(change)}\n\n".encode()


async def offer_events(request: Request, factory: sessionmaker[Session], *, watch: OfferWatch, session_id: str,
                       idle: timedelta) -> AsyncIterator[bytes]:
    with OfferSignal() as signal:
        async with aclosing(watched_events(
                request, factory, watch=watch, event=offer_event, kind=PORTAL, session_id=session_id, idle=idle,
                poll_seconds=POLL_SECONDS, keepalive_seconds=KEEPALIVE_SECONDS,
                session_check_seconds=SESSION_CHECK_SECONDS, retry_ms=RETRY_MS, wait=signal.wait)) as stream:
            async for chunk in stream:
                yield chunk


@router.get("/providers/{provider_id}/events", response_class=StreamingResponse,
            responses={200: {"content": {"text/event-stream": {}},
                             "description": "`event: offer` with {id, status} for each new or changed offer"},
                       404: {"description": "Not this account's provider, or none: no body at all"}},
            summary="Live updates of the provider's offers (server-sent events)")
def offer_event_stream(caller: OwnProvider, request: Request, db: SessionDep, factory: SessionFactoryDep,
                       settings: SettingsDep) -> StreamingResponse:
    # The baseline is taken before the stream opens: the page reads its list again once it sees the
    # stream open, so whatever is committed after this look is in that list, or sent, or both.
    watch = OfferWatch(caller.provider.id)
    watch.look(db, utcnow())
    # The sign-in check's connection goes back to the pool now, not when the stream ends.
    db.close()
    stream = offer_events(request, factory, watch=watch, session_id=caller.session_id,
                          idle=timedelta(minutes=settings.portal_session_idle_minutes))
    # no-transform: no proxy compresses or buffers it; X-Accel-Buffering: the same for nginx.
    return StreamingResponse(stream, media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"})
