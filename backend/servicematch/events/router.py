"""POST /api/events: first-party funnel events from the site's own pages (navigator.sendBeacon).

Always 204: a beacon cannot act on an answer, and telling a sender why its event was dropped
would only help it craft junk. Valid events are queued; the rest are dropped before storage.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Request, Response

from servicematch.catalog.loader import CatalogDep
from servicematch.deps import SettingsDep, app_part, install_part, part_of
from servicematch.events.buffer import EventBuffer
from servicematch.events.intake import MAX_BODY_BYTES, read_event
from servicematch.inbound.client import client_ip
from servicematch.inbound.ratelimit import SlidingWindowLimiter, limit_store_of
from servicematch.settings import Settings

router = APIRouter(tags=["events"])

# The queue the route adds events to and the per-address limit, as install_events made them.
EventBufferDep = Annotated[EventBuffer, Depends(app_part("event_buffer"))]
EventLimiterDep = Annotated[SlidingWindowLimiter, Depends(app_part("event_limiter"))]


async def _bounded_body(request: Request) -> bytes | None:
    """The body, or None as soon as it passes the limit (the rest is never read into memory)."""
    declared = request.headers.get("content-length", "")
    if declared and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        return None
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


@router.post("/api/events", status_code=204, summary="Record a funnel event (always 204; invalid ones are dropped)")
async def record_event(request: Request, settings: SettingsDep, limiter: EventLimiterDep,
                       buffer: EventBufferDep, catalog: CatalogDep) -> Response:
    if await limiter.call(limiter.hit, client_ip(request, trusted_proxies=settings.trusted_proxies)) > 0:
        return Response(status_code=204)
    body = await _bounded_body(request)
    event = read_event(body, catalog) if body else None
    if event is not None:
        buffer.add(event)
    return Response(status_code=204)


def install_events(app: FastAPI, settings: Settings) -> None:
    install_part(app, "event_buffer", EventBuffer(part_of(app, "session_factory"),
                                                  retention_days=settings.events_retention_days))
    install_part(app, "event_limiter", SlidingWindowLimiter(name="events", limit=settings.events_rate_limit,
                                                            window_seconds=60, store=limit_store_of(app)))
    app.include_router(router)
