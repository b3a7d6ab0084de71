"""The counted days' part of dashboard answers, kept in memory while those days' counts stand.

A closed day's counts (reporting/, events/) change only when the day is counted, or when a
retried delivery forgets its day's delivery counts, or a late sale its lead's day's revenue
counts, until the day is counted again. Each call reads
which days of its range are counted, and when each was, in one small query: that list is part of
the cache key, so a change made by any process is a new key, and a day counted again (same date,
new time) is never answered from its old counts. The cache is per process and bounded; entries
also expire, a backstop for counts changed by hand.
"""

from __future__ import annotations

import hashlib
import threading
import time
import weakref
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, false, literal, or_, select, union_all
from sqlalchemy.orm import Session

from servicematch.events.models import RolledUpDay
from servicematch.reporting.models import ReportedDay, ReportKind

# A few filter sets per operator, each about one range; an entry holds a few thousand counts.
CACHE_SIZE = 256
CACHE_SECONDS = 600.0
FUNNEL = "funnel"  # funnel_rolled_up_days, beside reported_days' kinds


@dataclass(frozen=True)
class CountedDays:
    """The days of a range already in the daily counts, by what is counted."""

    leads: frozenset[date]
    deliveries: frozenset[date]
    revenue: frozenset[date]
    events: frozenset[date]
    marker: bytes  # differs whenever a day of the range is counted, forgotten or counted again


def counted_days(session: Session, first: date, last: date) -> CountedDays:
    rows = session.execute(union_all(
        select(ReportedDay.kind, ReportedDay.day, ReportedDay.counted_at)
        .where(ReportedDay.day >= first, ReportedDay.day <= last),
        select(literal(FUNNEL), RolledUpDay.day, RolledUpDay.rolled_up_at)
        .where(RolledUpDay.day >= first, RolledUpDay.day <= last),
    )).all()
    days: defaultdict[str, set[date]] = defaultdict(set)
    for kind, day, _at in rows:
        days[kind].add(day)
    # (kind, day) is unique, so the order is total; a digest keeps a year's list out of every key.
    listed = "\n".join(f"{kind} {day} {at.isoformat()}" for kind, day, at in sorted(rows, key=lambda r: r[:2]))
    return CountedDays(leads=frozenset(days[ReportKind.LEADS]), deliveries=frozenset(days[ReportKind.DELIVERIES]),
                       revenue=frozenset(days[ReportKind.REVENUE]),                       events=frozenset(days[FUNNEL]), marker=hashlib.sha256(listed.encode()).digest())


def day_stretches(days: frozenset[date]) -> list[tuple[date, date]]:
    """(first, last) of each stretch of consecutive days, in order."""
    runs: list[tuple[date, date]] = []
    for day in sorted(days):
        if runs and runs[-1][1] + timedelta(days=1) == day:
            runs[-1] = (runs[-1][0], day)
        else:
            runs.append((day, day))
    return runs


def on_days(column, days: frozenset[date]) -> ColumnElement[bool]:
    """`column` (a date) is one of `days`; a range per stretch of consecutive days, so an index serves it."""
    return or_(false(), *(and_(column >= first, column <= last) for first, last in day_stretches(days)))


class LruCache:
    """At most `size` entries, the least recently used dropped first, each kept `seconds` at most."""

    def __init__(self, size: int = CACHE_SIZE, seconds: float = CACHE_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.size, self.seconds, self._clock = size, seconds, clock
        self._entries: OrderedDict[Hashable, tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()  # dashboard calls run on several threads

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if self._clock() - entry[0] > self.seconds:
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._entries[key] = (self._clock(), value)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)


# One cache per database: a process may talk to several (the tests do), whose markers may match.
_caches: weakref.WeakKeyDictionary[Any, LruCache] = weakref.WeakKeyDictionary()
_caches_lock = threading.Lock()


def cache_of(session: Session) -> LruCache:
    with _caches_lock:
        engine = session.get_bind().engine
        cache = _caches.get(engine)
        if cache is None:
            cache = _caches[engine] = LruCache()
        return cache


def cached(session: Session, key: Hashable, compute: Callable[[], Any]) -> Any:
    """The value kept under `key` for this session's database, computed and kept when there is
    none. Every later call with the key shares it, so nobody may change it."""
    cache = cache_of(session)
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.put(key, value)
    return value
