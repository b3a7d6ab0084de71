"""Rate limits per client: a sliding-window counter, O(1) per request and bounded in memory,
kept in this process or, on PostgreSQL, in a table every process shares.

The window is approximated the way Cloudflare and nginx-style limiters do: the count of the
current fixed window plus the previous window's count weighted by how much of it still
overlaps the sliding window. Two counters per client, whatever the traffic.
"""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from typing import Protocol

from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from sqlalchemy import Engine

from servicematch.errors import ServiceMatchError

from .client import client_ip

TOO_MANY = "Too many requests from your network. Please wait a moment and try again."
# Clients remembered in-process at most; the least recently counted are forgotten first.
MAX_TRACKED_KEYS = 100_000


class Counters(Protocol):
    """Hit counts per (key, window number); `blocking` stores are called off the event loop."""

    blocking: bool

    def read(self, key: str, window: int) -> tuple[int, int]:
        """(count in window, count in window - 1)."""

    def add(self, key: str, window: int, expires_at: float) -> None: ...


class MemoryCounters:
    """This process only: an LRU of counters, so memory stays bounded however many clients come."""

    blocking = False

    def __init__(self, max_keys: int = MAX_TRACKED_KEYS) -> None:
        self._counts: OrderedDict[tuple[str, int], int] = OrderedDict()
        self._max_keys = max_keys
        self._lock = threading.Lock()

    def read(self, key: str, window: int) -> tuple[int, int]:
        with self._lock:
            return self._counts.get((key, window), 0), self._counts.get((key, window - 1), 0)

    def add(self, key: str, window: int, expires_at: float) -> None:
        with self._lock:
            slot = (key, window)
            self._counts[slot] = self._counts.get(slot, 0) + 1
            self._counts.move_to_end(slot)
            while len(self._counts) > self._max_keys:
                self._counts.popitem(last=False)


class SlidingWindowLimiter:
    """At most `limit` counted hits per key in any `window_seconds` (approximately, see above).

    `check` asks without counting, `record` counts: a caller that refuses a request for another
    reason does not spend the client's allowance. `hit` does both, for lookups that always count.
    """

    def __init__(self, *, limit: int, window_seconds: float, name: str = "submit",
                 counters: Counters | None = None, clock: Callable[[], float] = time.time) -> None:
        self.limit = limit
        self.window_seconds = window_seconds
        self.name = name
        self.counters = counters or MemoryCounters()
        self._clock = clock

    def _position(self) -> tuple[int, float]:
        now = self._clock() / self.window_seconds
        return math.floor(now), now - math.floor(now)

    def retry_after(self, key: str) -> float:
        """0 when one more hit is allowed, else the seconds until it would be."""
        window, elapsed = self._position()
        current, previous = self.counters.read(f"{self.name}:{key}", window)
        if previous * (1 - elapsed) + current < self.limit:
            return 0.0
        if current >= self.limit or previous == 0:
            return (1 - elapsed) * self.window_seconds
        # The previous window's weight falls as time passes: wait until the estimate drops below.
        free_at = 1 - (self.limit - current) / previous
        return max(free_at - elapsed, 0.0) * self.window_seconds or 1.0

    def record(self, key: str) -> None:
        window, _ = self._position()
        expires_at = (window + 2) * self.window_seconds
        self.counters.add(f"{self.name}:{key}", window, expires_at)

    def hit(self, key: str) -> float:
        wait = self.retry_after(key)
        if wait == 0:
            self.record(key)
        return wait

    async def call(self, method: Callable, key: str):
        """Run check/record/hit without blocking the event loop on a shared store."""
        return await run_in_threadpool(method, key) if self.counters.blocking else method(key)


def too_many(wait: float) -> ServiceMatchError:
    return ServiceMatchError(TOO_MANY, status_code=429, headers={"Retry-After": str(max(1, math.ceil(wait)))})


def enforce(*, limiter: SlidingWindowLimiter, client: str) -> None:
    """Count one hit; 429 with Retry-After when this client has used up its window."""
    wait = limiter.hit(client)
    if wait > 0:
        raise too_many(wait)


def _client(request: Request) -> str:
    return client_ip(request, trusted_proxies=request.app.state.settings.trusted_proxies)


def counted_when_accepted(limiter_name: str) -> Callable[[Request], AsyncIterator[None]]:
    """A dependency: 429 once the client's allowance is spent, and the request counts only when
    its route returns normally (a refused, 4xx, request never costs the visitor a try)."""

    async def dependency(request: Request) -> AsyncIterator[None]:
        limiter: SlidingWindowLimiter = getattr(request.app.state, limiter_name)
        client = _client(request)
        wait = await limiter.call(limiter.retry_after, client)
        if wait > 0:
            raise too_many(wait)
        yield  # an exception raised by the route or its validation is re-raised here
        await limiter.call(limiter.record, client)

    return dependency


def counted_always(limiter_name: str) -> Callable[[Request], AsyncIterator[None]]:
    """A dependency for lookups: every request counts; 429 once the allowance is spent."""

    async def dependency(request: Request) -> None:
        limiter: SlidingWindowLimiter = getattr(request.app.state, limiter_name)
        wait = await limiter.call(limiter.hit, _client(request))
        if wait > 0:
            raise too_many(wait)

    return dependency


def install_rate_limits(app, settings, engine: Engine) -> None:
    """The app's limiters, sharing one store: the database on PostgreSQL, else this process."""
    counters: Counters = MemoryCounters()
    minute = 60
    app.state.submit_limiter = SlidingWindowLimiter(
        name="submit", limit=settings.submit_rate_limit, window_seconds=settings.submit_rate_window_seconds,
        counters=counters)
    app.state.validate_limiter = SlidingWindowLimiter(
        name="validate", limit=settings.validate_rate_limit, window_seconds=minute, counters=counters)
    app.state.address_limiter = SlidingWindowLimiter(
        name="address", limit=settings.address_rate_limit, window_seconds=minute, counters=counters)
    app.state.admin_auth_limiter = SlidingWindowLimiter(
        name="admin-auth", limit=settings.admin_auth_failure_limit,
        window_seconds=settings.admin_auth_window_seconds, counters=counters)
