"""POST /api/events: first-party funnel events from the site's own pages (navigator.sendBeacon).

Always 204: a beacon cannot act on an answer, and telling a sender why its event was dropped
would only help it craft junk. Valid events are queued; the rest are dropped before storage.
"""

from __future__ import annotations

from fastapi import APIRouter, FastAPI, Request, Response

from servicematch.events.buffer import EventBuffer
from servicematch.events.intake import MAX_BODY_BYTES, read_event
from servicematch.inbound.client import client_ip
from servicematch.inbound.ratelimit import SlidingWindowLimiter
from servicematch.settings import Settings

router = APIRouter(tags=["events"])


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
async def record_event(request: Request) -> Response:
    state = request.app.state
    settings: Settings = state.settings
    limiter: SlidingWindowLimiter = state.event_limiter
    if await limiter.call(limiter.hit, client_ip(request, trusted_proxies=settings.trusted_proxies)) > 0:
        return Response(status_code=204)
    body = await _bounded_body(request)
    event = read_event(body, state.catalog) if body else None
    if event is not None:
        state.event_buffer.add(event)
    return Response(status_code=204)


def install_events(app: FastAPI, settings: Settings) -> None:
    app.state.event_buffer = EventBuffer(app.state.session_factory, retention_days=settings.events_retention_days)
    app.state.event_limiter = SlidingWindowLimiter(name="events", limit=settings.events_rate_limit,
                                                     window_seconds=60, store=app.state.rate_limit_store)
    app.include_router(router)
