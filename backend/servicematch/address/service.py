"""Address suggestions from the bundled ZIP directory: no network, no third party."""

from __future__ import annotations

from .directory import ZipDirectory, ZipEntry
from .parsing import parse_query
from .schemas import AddressSuggestion


def _suggestion(street: str, entry: ZipEntry) -> AddressSuggestion:
    locality = f"{entry.city}, {entry.state} {entry.zip}"
    return AddressSuggestion(
        label=f"{street}, {locality}" if street else locality,
        address1=street, city=entry.city, state=entry.state, zip=entry.zip,
    )


def suggest(*, directory: ZipDirectory, query: str, limit: int) -> list[AddressSuggestion]:
    """Complete a partly typed address with the ZIPs that fit its city, state or ZIP."""
    parsed = parse_query(query)
    street = parsed.street.title() if parsed.street.islower() else parsed.street
    if parsed.zip:
        entry = directory.get(parsed.zip)
        entries = [entry] if entry else []
    elif parsed.zip_prefix:
        entries = directory.by_zip_prefix(parsed.zip_prefix, limit=limit)
    elif parsed.city:
        entries = directory.by_city_prefix(parsed.city, state=parsed.state, limit=limit)
    else:
        # A street alone or a state alone names no place small enough to suggest.
        entries = []
    return [_suggestion(street, entry) for entry in entries]
