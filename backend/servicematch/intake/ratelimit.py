"""Per-client-IP submission limits, kept in this process (a sliding window of timestamps)."""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable

from servicematch.errors import ServiceMatchError

TOO_MANY = "Too many requests from your network. Please wait a moment and try again."


class SlidingWindowLimiter:
    """At most `limit` hits per key in any `window_seconds`; old hits fall out as time passes."""

    def __init__(self, *, limit: int, window_seconds: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window_seconds = window_seconds
        self._clock = clock
        self._hits: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def hit(self, key: str) -> float:
        """Record one hit; 0 when allowed, else the seconds until the next hit would be."""
        now = self._clock()
        with self._lock:
            hits = self._hits.setdefault(key, deque())
            while hits and hits[0] <= now - self.window_seconds:
                hits.popleft()
            if len(hits) >= self.limit:
                return hits[0] + self.window_seconds - now
            hits.append(now)
            self._forget_idle(now)
            return 0.0

    def _forget_idle(self, now: float) -> None:
        # Keep memory bounded by clients seen recently, not all clients ever seen.
        if len(self._hits) < 10_000:
            return
        for key in [k for k, hits in self._hits.items() if not hits or hits[-1] <= now - self.window_seconds]:
            del self._hits[key]


def enforce(*, limiter: SlidingWindowLimiter, client: str) -> None:
    """Refuse with 429 and Retry-After when this client has used up its window."""
    wait = limiter.hit(client)
    if wait > 0:
        retry_after = str(max(1, math.ceil(wait)))
        raise ServiceMatchError(TOO_MANY, status_code=429, headers={"Retry-After": retry_after})
