"""A buyer's buying hours: "Mon-Fri 08:00-18:00 America/New_York" (days, times, time zone).

Days are a range ("Mon-Fri") or a list ("Mon,Wed,Sat"), or "Daily"; times are 24-hour, the end
excluded; the zone is an IANA name. Empty hours mean always.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_PATTERN = re.compile(r"^\s*(?P<days>[A-Za-z,\-]+)\s+(?P<start>\d{1,2}:\d{2})-(?P<end>\d{1,2}:\d{2})\s+(?P<zone>\S+)\s*$")
EXAMPLE = "Mon-Fri 08:00-18:00 America/New_York"


class HoursError(ValueError):
    pass


@dataclass(frozen=True)
class Hours:
    days: frozenset[int]
    start: time
    end: time
    zone: ZoneInfo

    def open_at(self, moment: datetime) -> bool:
        local = moment.astimezone(self.zone)
        return local.weekday() in self.days and self.start <= local.time() < self.end


def _days(text: str) -> frozenset[int]:
    text = text.lower()
    if text in ("daily", "every-day", "mon-sun"):
        return frozenset(range(7))
    found: set[int] = set()
    for part in text.split(","):
        first, _, last = part.partition("-")
        if first[:3] not in DAYS or (last and last[:3] not in DAYS):
            raise HoursError(f"unknown day in {part!r}: use Mon, Tue, Wed, Thu, Fri, Sat, Sun")
        a, b = DAYS.index(first[:3]), DAYS.index((last or first)[:3])
        found.update(range(a, b + 1) if a <= b else [*range(a, 7), *range(b + 1)])
    return frozenset(found)


def _time(text: str) -> time:
    hour, minute = (int(part) for part in text.split(":"))
    if hour == 24 and minute == 0:
        return time.max
    if not (0 <= hour < 24 and 0 <= minute < 60):
        raise HoursError(f"{text} is not a time of day")
    return time(hour, minute)


def parse_hours(text: str | None) -> Hours | None:
    """The parsed hours, None for "always"; HoursError says what is wrong."""
    if not text or not text.strip():
        return None
    match = _PATTERN.match(text)
    if not match:
        raise HoursError(f"hours must look like {EXAMPLE!r}")
    try:
        zone = ZoneInfo(match["zone"])
    except (ZoneInfoNotFoundError, ValueError):
        raise HoursError(f"unknown time zone {match['zone']!r} (an IANA name such as America/Chicago)") from None
    start, end = _time(match["start"]), _time(match["end"])
    if end <= start:
        raise HoursError("the closing time must come after the opening time")
    return Hours(days=_days(match["days"]), start=start, end=end, zone=zone)


def open_now(text: str | None, moment: datetime) -> bool:
    """Whether buying hours `text` include `moment`; unreadable hours (never stored) count as closed."""
    try:
        hours = parse_hours(text)
    except HoursError:
        return False
    return hours is None or hours.open_at(moment)
