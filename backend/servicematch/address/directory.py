"""An in-memory US ZIP directory built from the `zipcodes` package's bundled data (no network)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache

import us
import zipcodes

# Visitors type the short forms; the ZIP data spells them out ("Saint Louis", "Fort Worth").
_ABBREVIATIONS = {"ST": "SAINT", "STE": "SAINTE", "FT": "FORT", "MT": "MOUNT", "PT": "POINT"}
_WORD = re.compile(r"[A-Z0-9']+")


def city_key(city: str) -> str:
    """A comparable form of a city name: upper case, punctuation dropped, short forms spelled out."""
    words = _WORD.findall(city.upper().replace(".", ""))
    return " ".join(_ABBREVIATIONS.get(word, word) for word in words)


@dataclass(frozen=True)
class ZipEntry:
    zip: str
    city: str
    state: str
    county: str
    # STANDARD ZIPs hold street addresses; PO BOX and UNIQUE (one building or firm) do not.
    standard: bool


class ZipDirectory:
    """Look-ups by exact ZIP, ZIP prefix, and city-name prefix within an optional state."""

    def __init__(self, entries: list[ZipEntry]) -> None:
        self._by_zip = {entry.zip: entry for entry in entries}
        self._zips = sorted(self._by_zip)
        street_entries = [entry for entry in entries if entry.standard]
        self._by_city = sorted(((city_key(e.city), e.state, e.zip), e) for e in street_entries)
        self._city_keys = [key for key, _ in self._by_city]

    def __len__(self) -> int:
        return len(self._by_zip)

    def get(self, zip_code: str) -> ZipEntry | None:
        return self._by_zip.get(zip_code)

    def by_zip_prefix(self, prefix: str, *, limit: int) -> list[ZipEntry]:
        start = bisect.bisect_left(self._zips, prefix)
        found: list[ZipEntry] = []
        for zip_code in self._zips[start:]:
            if not zip_code.startswith(prefix) or len(found) >= limit:
                break
            found.append(self._by_zip[zip_code])
        return found

    def places_by_prefix(self, city: str, *, state: str | None, limit: int) -> list[list[ZipEntry]]:
        """Places (one city in one state) whose name starts with `city`, the likeliest first, each
        with its street-address ZIPs.

        Exact names come before longer ones; among places of the same name, the one with more
        ZIPs (a proxy for its size: Austin TX before Austin MN) comes first."""
        prefix = city_key(city)
        if not prefix:
            return []
        start = bisect.bisect_left(self._city_keys, (prefix,))
        places: dict[tuple[str, str], list[ZipEntry]] = {}
        for (key, entry_state, _zip), entry in self._by_city[start:]:
            if not key.startswith(prefix):
                break
            if state and entry_state != state:
                continue
            places.setdefault((key, entry_state), []).append(entry)
        ranked = sorted(places.items(), key=lambda item: (item[0][0] != prefix, -len(item[1]), item[0]))
        return [entries for _place, entries in ranked[:limit]]


@lru_cache(maxsize=1)
def load_directory() -> ZipDirectory:
    """The directory of the 50 states' and DC's active ZIPs, built once per process (about 0.3 s)."""
    states = {state.abbr for state in [*us.states.STATES, us.states.DC]}
    entries = [
        ZipEntry(
            zip=row["zip_code"], city=row["city"], state=row["state"], county=row.get("county") or "",
            standard=row["zip_code_type"] == "STANDARD",
        )
        for row in zipcodes.list_all()
        if row["active"] and row["state"] in states
    ]
    return ZipDirectory(entries)
