"""Address suggestions from the bundled ZIP directory: no network, no third party."""

from __future__ import annotations

from .directory import ZipDirectory, ZipEntry
from .parsing import parse_query
from .schemas import AddressSuggestion


def _suggestion(street: str, entry: ZipEntry, *, zip_code: str) -> AddressSuggestion:
    locality = " ".join(part for part in (f"{entry.city}, {entry.state}", zip_code) if part)
    return AddressSuggestion(
        label=f"{street}, {locality}" if street else locality,
        address1=street, city=entry.city, state=entry.state, zip=zip_code, typed=street, found=locality,
    )


def suggest(*, directory: ZipDirectory, query: str, limit: int) -> list[AddressSuggestion]:
    """Complete a partly typed address with what the ZIP data knows for sure.

    A typed ZIP (or ZIP prefix) names its places. A typed city names places, one suggestion each,
    with the ZIP only when the place has a single one: the data cannot tell which of a city's
    ZIPs a street is in, so the visitor types it."""
    parsed = parse_query(query)
    street = parsed.street.title() if parsed.street.islower() else parsed.street
    if parsed.zip:
        entry = directory.get(parsed.zip)
        return [_suggestion(street, entry, zip_code=entry.zip)] if entry else []
    if parsed.zip_prefix:
        return [_suggestion(street, entry, zip_code=entry.zip)
                for entry in directory.by_zip_prefix(parsed.zip_prefix, limit=limit)]
    if parsed.city:
        places = directory.places_by_prefix(parsed.city, state=parsed.state, limit=limit)
        return [_suggestion(street, zips[0], zip_code=zips[0].zip if len(zips) == 1 else "") for zips in places]
    # A street alone or a state alone names no place small enough to suggest.
    return []
