"""An in-memory US ZIP directory built from the `zipcodes` package's bundled data (no network)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import us
import zipcodes
from zipcodes import _zipcodes

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


class ZipPlace(NamedTuple):
    """Where a ZIP is: its city and its centre."""

    city: str
    lat: float
    long: float


def _bundled_rows() -> list[dict]:
    """Every row of the `zipcodes` package's data, made afresh. Its public `list_all` keeps the
    42,000-odd dicts (about 100 MB) for the life of the process; the directory keeps only the little
    it needs, copied (_Copies), and the rows go when it is built."""
    return _zipcodes.list_all()


class _Copies(dict):
    """One copy of each distinct text read from the rows, for keeping. A kept string of the rows'
    own would keep the memory block it shares with the rows around it, and with enough of them,
    most of the rows' 100 MB; a copy is made after them, elsewhere. Equal texts share a copy."""

    def __missing__(self, text: str) -> str:
        copy = self[text] = text.encode().decode()
        return copy


# Every ZIP looked up so far (None: no such ZIP), for the life of the process: at most the 100,000
# five-digit keys, about 200 bytes each. Dict reads and writes are atomic, and two threads that
# look a new ZIP up at once only both ask the package.
_places: dict[str, ZipPlace | None] = {}


def find_zip_place(zip_code: str | None) -> ZipPlace | None:
    """A ZIP's city and centre (territories and retired ZIPs too), read as `zipcodes.matching` reads a
    ZIP ("78701", "78701-1234" and " 78701" are all 78701), or None when the data has no such ZIP.

    A sale's statement line names the lead's city, and a provider's radius is measured from ZIP
    centres, many times a second under load: each ZIP asks the package once (it reads all its
    rows, about 0.4 ms) and is kept as three values, where a cache of the package's rows kept about
    2.4 KB a ZIP (100 MB for all 42,789)."""
    key = zip_code.strip()[:5] if isinstance(zip_code, str) else ""
    if len(key) != 5 or not key.isdigit():
        return None
    try:
        return _places[key]
    except KeyError:
        pass
    found = zipcodes.matching(key)
    row = found[0] if found else None
    place = _places[key] = ZipPlace(row["city"], float(row["lat"]), float(row["long"])) if row else None
    return place


def load_zip_data() -> None:
    """Load the package's data now (about 0.4 s, once per process) rather than at the first look-up."""
    zipcodes.is_real("00000")


@lru_cache(maxsize=1)
def load_directory() -> ZipDirectory:
    """The directory of the 50 states' and DC's active ZIPs, built once per process (about 0.3 s)."""
    states = {state.abbr for state in [*us.states.STATES, us.states.DC]}
    kept = _Copies()
    entries = [
        ZipEntry(
            zip=kept[row["zip_code"]], city=kept[row["city"]], state=kept[row["state"]],
            county=kept[row.get("county") or ""], standard=row["zip_code_type"] == "STANDARD",
        )
        for row in _bundled_rows()
        if row["active"] and row["state"] in states
    ]
    return ZipDirectory(entries)
