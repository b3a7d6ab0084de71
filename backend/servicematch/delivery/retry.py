"""When to try a failed delivery again, and when to stop trying."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from servicematch.settings import Settings

# Each wait is this many times the one before, until the cap.
BACKOFF_FACTOR = 3


def next_delay(*, attempt: int, settings: Settings, rng: random.Random | None = None) -> timedelta:
    """The wait after the `attempt`-th failure: capped exponential, with jitter so retries spread."""
    base = settings.retry_base_seconds * BACKOFF_FACTOR ** max(attempt - 1, 0)
    capped = min(base, settings.retry_max_delay_seconds)
    # Keep between 75% and 100% of the delay: enough spread to avoid retry storms after an outage.
    jitter = (rng or random).uniform(0.75, 1.0)
    return timedelta(seconds=capped * jitter)


def window_is_over(*, created_at: datetime, now: datetime, settings: Settings) -> bool:
    """True once a delivery has been retried for the whole retry window."""
    return now - created_at >= timedelta(hours=settings.retry_window_hours)
