"""Time-to-delivery histograms: buckets 10% wide on a log scale, so a percentile read from
merged days is within 5% of the exact one at any magnitude (10 ms to a day)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

SMALLEST_SECONDS = 0.01
GROWTH = 1.1


def bucket_of(seconds: float) -> int:
    """The bucket holding `seconds`; everything under 10 ms shares bucket 0."""
    if seconds <= SMALLEST_SECONDS:
        return 0
    return int(math.log(seconds / SMALLEST_SECONDS) / math.log(GROWTH)) + 1


def bucket_value(bucket: int) -> float:
    """The value that stands for a bucket: the geometric middle of its bounds."""
    if bucket <= 0:
        return SMALLEST_SECONDS
    return SMALLEST_SECONDS * GROWTH ** (bucket - 0.5)


def histogram(seconds: Iterable[float]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for value in seconds:
        bucket = bucket_of(value)
        counts[bucket] = counts.get(bucket, 0) + 1
    return counts


def _value_at(ordered: list[tuple[int, int]], rank: int) -> float:
    """The bucket value of the rank-th smallest (0-based) of the merged values."""
    seen = 0
    for bucket, count in ordered:
        seen += count
        if seen > rank:
            return bucket_value(bucket)
    return bucket_value(ordered[-1][0])


def percentile(counts: Mapping[int, int], fraction: float) -> float | None:
    """The percentile the way PostgreSQL's percentile_cont takes it (linear between the closest
    ranks), over the buckets' values; None when empty."""
    total = sum(counts.values())
    if total == 0:
        return None
    ordered = sorted((bucket, count) for bucket, count in counts.items() if count)
    position = fraction * (total - 1)
    low = int(position)
    below, above = _value_at(ordered, low), _value_at(ordered, min(low + 1, total - 1))
    return below + (above - below) * (position - low)
