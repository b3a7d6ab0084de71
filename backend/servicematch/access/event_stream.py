"""The loop of a portal's server-sent event stream, the same for the provider portal's offers
(portal/router_events.py) and the buyer portal's sales (buyer/live.py).

Each turn looks at the table through the caller's watch (a session opened and closed for the look,
so no database connection is held between looks), sends an event for each change, a keep-alive
comment after `keepalive_seconds` without one, and ends when the browser goes away or, checked
every `session_check_seconds` without counting as the person's use, the session is no longer live.
The timings are arguments, read by each stream from its own module when it opens.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime, timedelta
from typing import Protocol

from fastapi import Request
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from servicematch.access.sessions import SessionKind, session_is_live
from servicematch.kernel.clock import utcnow

KEEPALIVE = b": keep-alive\n\n"


class Watch(Protocol):
    def look(self, db: Session, now: datetime) -> list[dict[str, str]]: ...


def _look(factory: sessionmaker[Session], watch: Watch) -> list[dict[str, str]]:
    with factory() as db:
        return watch.look(db, utcnow())


def _still_signed_in(factory: sessionmaker[Session], kind: SessionKind, session_id: str, idle: timedelta) -> bool:
    with factory() as db:
        return session_is_live(db, kind, session_id, idle=idle)


async def watched_events(request: Request, factory: sessionmaker[Session], *, watch: Watch,
                         event: Callable[[dict[str, str]], bytes], kind: SessionKind, session_id: str,
                         idle: timedelta, poll_seconds: float, keepalive_seconds: float,
                         session_check_seconds: float, retry_ms: int,
                         wait: Callable[[float], Awaitable[None]] = asyncio.sleep) -> AsyncIterator[bytes]:
    """The stream's bytes; `wait` sleeps between looks (the offers' stream also wakes when told of a change)."""
    last_sent = last_check = time.monotonic()
    yield f"retry: {retry_ms}\n\n".encode()
    while True:
        changes = await run_in_threadpool(_look, factory, watch)
        for change in changes:
            yield event(change)
        now = time.monotonic()
        if changes:
            last_sent = now
        if now - last_check >= session_check_seconds:
            if not await run_in_threadpool(_still_signed_in, factory, kind, session_id, idle):
                return
            last_check = now
        if now - last_sent >= keepalive_seconds:
            yield KEEPALIVE
            last_sent = now
        if await request.is_disconnected():
            return
        await wait(poll_seconds)
