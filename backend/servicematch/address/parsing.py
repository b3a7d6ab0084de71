"""Split what a visitor typed into a street line and a locality (city, state, ZIP)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import us
import usaddress

# The street line is the house number plus the route (spec section 3, address parse result).
STREET_LABELS = (
    "AddressNumberPrefix", "AddressNumber", "AddressNumberSuffix", "StreetNamePreModifier",
    "StreetNamePreDirectional", "StreetNamePreType", "StreetName", "StreetNamePostType",
    "StreetNamePostDirectional",
)
LOCALITY_LABELS = ("PlaceName", "StateName")
_TRAILING_ZIP = re.compile(r"(?:^|[\s,])(\d{5})(?:-\d{4})?\s*$")
_ONLY_DIGITS = re.compile(r"^\d{3,5}$")
# The 50 states and the District of Columbia, whose addresses are as common as any state's.
_PLACES = [*us.states.STATES, us.states.DC]
_STATE_NAMES = {state.name.upper(): state.abbr for state in _PLACES}
_STATE_CODES = {state.abbr for state in _PLACES}


@dataclass(frozen=True)
class AddressQuery:
    street: str = ""
    city: str = ""
    state: str | None = None
    zip: str | None = None
    zip_prefix: str | None = None


def state_code(text: str) -> str | None:
    """The two-letter code for a state written as a code or a full name, any case."""
    cleaned = " ".join(text.replace(".", "").split()).upper()
    if cleaned in _STATE_CODES:
        return cleaned
    return _STATE_NAMES.get(cleaned)


def _tag(text: str) -> dict[str, str]:
    """usaddress's labels; on an ambiguous string keep the first run of each label."""
    try:
        tagged, _kind = usaddress.tag(text)
        return dict(tagged)
    except usaddress.RepeatedLabelError as error:
        labels: dict[str, str] = {}
        for token, label in error.parsed_string:
            if label in labels and not labels[label].endswith(","):
                labels[label] = f"{labels[label]} {token}"
            labels.setdefault(label, token)
        return labels


def _split_locality(text: str) -> tuple[str, str | None]:
    """'Austin TX' -> ('Austin', 'TX'); a state name alone stays a city prefix ('New York')."""
    words = text.replace(",", " ").split()
    for size in (2, 1):
        if len(words) > size:
            code = state_code(" ".join(words[-size:]))
            if code:
                return " ".join(words[:-size]), code
    return " ".join(words), None


def parse_query(text: str) -> AddressQuery:
    """Read a partly typed US address; every part is optional."""
    text = " ".join(text.split())
    if _ONLY_DIGITS.match(text):
        return AddressQuery(zip=text) if len(text) == 5 else AddressQuery(zip_prefix=text)
    zip_code = None
    match = _TRAILING_ZIP.search(text)
    if match and not re.match(r"^\d{5}\s+\S", text):
        zip_code = match.group(1)
        text = text[: match.start(1)].rstrip(" ,")
    labels = _tag(text) if text else {}
    street = " ".join(labels[label] for label in STREET_LABELS if label in labels)
    if labels.get("AddressNumber") and labels.get("StreetName"):
        locality = " ".join(labels[label] for label in LOCALITY_LABELS if label in labels)
    else:
        # Without a house number and street, usaddress guesses poorly ("San Fr" -> state "Fr"),
        # so the whole text is read as a locality.
        street, locality = "", text
    city, state = _split_locality(locality)
    return AddressQuery(street=street.strip(" ,"), city=city.strip(" ,"), state=state, zip=zip_code)
