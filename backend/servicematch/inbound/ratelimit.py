"""Rate limits per client, on the `limits` library: a sliding-window counter, O(1) per request,
kept in this process's memory or, when SERVICEMATCH_REDIS_URL is set, in Redis, where every
web process shares it.

The window is approximated the way Cloudflare and nginx-style limiters do: the count of the
current fixed window plus the previous window's count weighted by how much of it still
overlaps the sliding window. Two counters per client, whatever the traffic; each expires on
its own (in memory and in Redis), so what is kept stays bounded by the clients of two windows.

A Redis that cannot be reached fails open: requests are let through uncounted, one error is
logged when the outage begins and one line when Redis answers again.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, TypeVar

from fastapi import Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from limits import RateLimitItem, RateLimitItemPerSecond
from limits.errors import StorageError
from limits.storage import MemoryStorage, RedisStorage
from limits.storage.base import SlidingWindowCounterSupport
from limits.strategies import SlidingWindowCounterRateLimiter

from servicematch.deps import app_part, install_part, part_of, request_part, settings_of
from servicematch.errors import ServiceMatchError
from servicematch.settings import Settings

from .client import client_ip

log = logging.getLogger("servicematch.ratelimit")

TOO_MANY = "Too many requests from your network. Please wait a moment and try again."
# Longest wait for Redis to connect or answer: past it the request goes through uncounted.
REDIS_TIMEOUT_SECONDS = 0.5
# After a failure, Redis is left alone this long (requests go through uncounted meanwhile), so
# during an outage one request in this long tries to connect, not every request.
REDIS_RETRY_SECONDS = 5.0

Result = TypeVar("Result")


class SweptMemoryStorage(MemoryStorage):
    """The library's memory storage, its expired counters swept once every SWEEP_SECONDS.

    The library sweeps 10 ms after any count, and each sweep walks every key: with a new client
    per request (thousands of visitors, a counter each for two windows) that walk took a growing
    share of the web process's time, more with every lead. Reading a counter checks its expiry
    anyway, so a slower sweep changes no answer; it only frees memory a little later.
    """

    SWEEP_SECONDS = 5.0

    def _MemoryStorage__schedule_expiry(self) -> None:  # the library's private hook, name-mangled
        if not self.timer.is_alive():
            self.timer = threading.Timer(self.SWEEP_SECONDS, self._MemoryStorage__expire_events)
            self.timer.daemon = True  # never holds up the process's exit
            self.timer.start()


class LimitStore:
    """Where the counters live, and what happens when they cannot be reached.

    `blocking` stores (Redis) are called off the event loop by `SlidingWindowLimiter.call`.
    """

    def __init__(self, storage: SlidingWindowCounterSupport, *, blocking: bool, description: str,
                 retry_seconds: float = REDIS_RETRY_SECONDS) -> None:
        self.storage = storage
        self.strategy = SlidingWindowCounterRateLimiter(storage)
        self.blocking = blocking
        self.description = description
        self.retry_seconds = retry_seconds
        self._unreachable_until: float | None = None  # monotonic time; None while reachable
        self._lock = threading.Lock()

    @classmethod
    def memory(cls) -> LimitStore:
        return cls(SweptMemoryStorage(), blocking=False, description="this process's memory")

    @classmethod
    def redis(cls, url: str, *, key_prefix: str) -> LimitStore:
        storage = RedisStorage(url, key_prefix=key_prefix, wrap_exceptions=True,
                               socket_connect_timeout=REDIS_TIMEOUT_SECONDS, socket_timeout=REDIS_TIMEOUT_SECONDS)
        return cls(storage, blocking=True, description="Redis")

    def close(self) -> None:
        """Let go of Redis's connections (a later call opens new ones)."""
        if isinstance(self.storage, RedisStorage):
            self.storage.get_connection().close()

    def run(self, operation: Callable[[], Result], fallback: Result) -> Result:
        """The operation's result, or `fallback` while the store cannot be reached (fail open)."""
        down_until = self._unreachable_until
        if down_until is not None and time.monotonic() < down_until:
            return fallback
        try:
            result = operation()
        except StorageError as error:
            with self._lock:
                first = self._unreachable_until is None
                self._unreachable_until = time.monotonic() + self.retry_seconds
            if first:
                log.error("Rate limits are off: %s cannot be reached (%s); requests are let through "
                          "uncounted until it answers again", self.description, error.storage_error)
            return fallback
        if down_until is not None:
            with self._lock:
                recovered, self._unreachable_until = self._unreachable_until is not None, None
            if recovered:
                log.warning("Rate limits are back on: %s answers again", self.description)
        return result


class SlidingWindowLimiter:
    """At most `limit` counted hits per key in any `window_seconds` (approximately, see above).

    `check` asks without counting, `record` counts: a caller that refuses a request for another
    reason does not spend the client's allowance. `hit` does both, for lookups that always count.
    """

    def __init__(self, *, limit: int, window_seconds: float, name: str = "submit",
                 store: LimitStore | None = None) -> None:
        self.name = name
        self.window_seconds = window_seconds
        self.store = store or LimitStore.memory()
        self.limit = limit

    @property
    def limit(self) -> int:
        return self._item.amount

    @limit.setter
    def limit(self, value: int) -> None:
        # Keys read "<name>/<client>/<limit>/<seconds>/second": each limiter counts apart.
        self._item: RateLimitItem = RateLimitItemPerSecond(
            value, max(1, math.ceil(self.window_seconds)), namespace=self.name)

    def retry_after(self, key: str) -> float:
        """0 when one more hit is allowed, else the seconds until it would be."""
        return self.store.run(lambda: self._wait(key), 0.0)

    check = retry_after

    def record(self, key: str) -> None:
        """Count one hit (a client already at its limit has nothing more to spend)."""
        self._count(key)

    def hit(self, key: str) -> float:
        """Count one hit if it is allowed; else, like `retry_after`, the seconds to wait."""
        if self._count(key):
            return 0.0
        # Refused: the window may have moved on since, but the client is told to come back later.
        return self.retry_after(key) or 1.0

    def _count(self, key: str) -> bool:
        """Whether the hit was counted (or the store is unreachable); False past the limit."""
        return self.store.run(lambda: self.store.strategy.hit(self._item, key), True)

    def _wait(self, key: str) -> float:
        previous, previous_ttl, current, current_ttl = self.store.storage.get_sliding_window(
            self._item.key_for(key), self._item.get_expiry())
        window = self._item.get_expiry()
        # `previous_ttl` is what is left of the current window: the weight of the previous one.
        if previous * previous_ttl / window + current < self.limit:
            return 0.0
        if current >= self.limit:
            # Until the current window ends, and then until its count, fading, weighs under the limit.
            wait = max(current_ttl - window, 0.0) + window * (1 - self.limit / current)
        else:
            # The previous window's weight falls as time passes: wait until the estimate drops below.
            wait = max(previous_ttl - window * (self.limit - current) / previous, 0.0)
        return wait or 1.0  # at the very edge of a window the estimate is still at the limit

    async def call(self, method: Callable[[str], Result], key: str) -> Result:
        """Run check/record/hit without blocking the event loop on a shared store."""
        return await run_in_threadpool(method, key) if self.store.blocking else method(key)


def too_many(wait: float) -> ServiceMatchError:
    return ServiceMatchError(TOO_MANY, status_code=429, headers={"Retry-After": str(max(1, math.ceil(wait)))})


def enforce(*, limiter: SlidingWindowLimiter, client: str) -> None:
    """Count one hit; 429 with Retry-After when this client has used up its window."""
    wait = limiter.hit(client)
    if wait > 0:
        raise too_many(wait)


def _client(request: Request) -> str:
    return client_ip(request, trusted_proxies=settings_of(request).trusted_proxies)


class Allowance:
    """A client's allowance, checked and not yet spent: the route spends it once it accepts the
    request, so a refused one (a 4xx, or a failure) never costs the visitor a try."""

    def __init__(self, limiter: SlidingWindowLimiter, client: str) -> None:
        self.limiter, self.client = limiter, client

    async def spend(self) -> None:
        await self.limiter.call(self.limiter.record, self.client)


def counted_when_accepted(limiter_name: str) -> Callable[[Request], Awaitable[Allowance]]:
    """A dependency: 429 once the client's allowance is spent, else the Allowance the route spends
    when it accepts the request.

    A plain dependency, not one that yields: FastAPI runs the end of a yielding dependency in an
    exit stack and a shielded cancel scope, which cost a submission more than the count itself.
    """

    async def dependency(request: Request) -> Allowance:
        limiter: SlidingWindowLimiter = request_part(request, limiter_name)
        client = _client(request)
        wait = await limiter.call(limiter.retry_after, client)
        if wait > 0:
            raise too_many(wait)
        return Allowance(limiter, client)

    return dependency


def counted_always(limiter_name: str) -> Callable[[Request], Awaitable[None]]:
    """A dependency for lookups: every request counts; 429 once the allowance is spent."""

    async def dependency(request: Request) -> None:
        limiter: SlidingWindowLimiter = request_part(request, limiter_name)
        wait = await limiter.call(limiter.hit, _client(request))
        if wait > 0:
            raise too_many(wait)

    return dependency


def make_store(settings: Settings) -> LimitStore:
    """Redis when SERVICEMATCH_REDIS_URL is set (every web process shares it), else this process."""
    if settings.redis_url:
        return LimitStore.redis(settings.redis_url, key_prefix=settings.redis_key_prefix)
    return LimitStore.memory()


def install_rate_limits(app: FastAPI, settings: Settings) -> None:
    """The app's limiters, sharing one store (the part `rate_limit_store`), which routers that
    build their own limiters use as well."""
    store = make_store(settings)
    install_part(app, "rate_limit_store", store)
    if settings.environment == "production" and not settings.is_sqlite and not settings.redis_url:
        log.warning("Rate limits are kept in this process's memory (SERVICEMATCH_REDIS_URL is empty): "
                    "each web process on this database gives a client the whole allowance again")
    minute = 60
    install_part(app, "submit_limiter", SlidingWindowLimiter(
        name="submit", limit=settings.submit_rate_limit, window_seconds=settings.submit_rate_window_seconds,
        store=store))
    install_part(app, "validate_limiter", SlidingWindowLimiter(
        name="validate", limit=settings.validate_rate_limit, window_seconds=minute, store=store))
    install_part(app, "address_limiter", SlidingWindowLimiter(
        name="address", limit=settings.address_rate_limit, window_seconds=minute, store=store))
    install_part(app, "admin_auth_limiter", SlidingWindowLimiter(
        name="admin-auth", limit=settings.admin_auth_failure_limit,
        window_seconds=settings.admin_auth_window_seconds, store=store))


def limit_store_of(app: FastAPI) -> LimitStore:
    """The store install_rate_limits made, for a room that builds limiters of its own."""
    return part_of(app, "rate_limit_store")


# What a route asks for to count wrong admin tokens (delivery/router.py).
AdminAuthLimiterDep = Annotated[SlidingWindowLimiter, Depends(app_part("admin_auth_limiter"))]
