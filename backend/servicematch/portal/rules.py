"""What a provider offers, checked the same way wherever it is given: the application form, an
operator's invitation, and the profile in the portal.

Each check adds its problems to one dict named by the API's field names, so a refusal names
every field at once (a 422), as intake's does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from servicematch.catalog.loader import CatalogIndex
from servicematch.delivery.schemas import STATE_CODES
from servicematch.errors import ServiceMatchError
from servicematch.inbound.validation import check_email, normalise_email, phone_digits
from servicematch.portal.licences import licences_needed
from servicematch.routing.matching import zip_location

MAX_SERVICES = 30
MAX_ZIPS = 200
MAX_RADIUS_MILES = 500
LICENCE_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 .\-/]{1,39}$")
NOT_VALID = "Some answers need another look."


class Problems(dict[str, str]):
    def add(self, field: str, message: str) -> None:
        self.setdefault(field, message)

    def raise_any(self, message: str = NOT_VALID) -> None:
        if self:
            raise ServiceMatchError(message, fields=dict(self), status_code=422)


@dataclass(frozen=True)
class Area:
    zips: list[str]
    radius_miles: float | None
    states: list[str]


def clean_text(value: str, field: str, problems: Problems, *, label: str) -> str:
    value = " ".join(value.split())
    if not value:
        problems.add(field, f"Enter the {label}.")
    return value


def clean_email(value: str, problems: Problems, field: str = "email") -> str:
    if check_email(value):
        problems.add(field, "Enter a valid e-mail address, like name@example.com.")
    return normalise_email(value)


def clean_phone(value: str, problems: Problems, field: str = "phone") -> str:
    digits, error = phone_digits(value)
    if error:
        problems.add(field, "Enter a valid US phone number, 10 digits.")
    return digits or ""


def clean_services(entries: list[str], catalog: CatalogIndex, problems: Problems) -> list[str]:
    """Catalogue ids ("vertical/slug"); a slug alone is accepted where one vertical has it."""
    found, unknown = [], []
    for entry in entries:
        vertical, _, slug = entry.strip().rpartition("/")
        service = catalog.find(slug, vertical or None)
        if service is None:
            unknown.append(entry)
        else:
            found.append(f"{service.vertical}/{service.id}")
    found = list(dict.fromkeys(found))
    if unknown:
        problems.add("services", f"Not services we offer: {', '.join(unknown)[:200]}.")
    elif not found:
        problems.add("services", "Choose at least one service.")
    elif len(found) > MAX_SERVICES:
        problems.add("services", f"Choose at most {MAX_SERVICES} services.")
    return found


def clean_area(*, zips: list[str], radius_miles: float | None, states: list[str], problems: Problems) -> Area:
    """ZIP codes (with a radius around them, or not), or whole states: one of the two."""
    zips = list(dict.fromkeys(z.strip() for z in zips if z.strip()))
    states = sorted({s.strip().upper() for s in states if s.strip()})
    if zips and states:
        problems.add("states", "Give ZIP codes or states, not both.")
    elif not zips and not states:
        problems.add("zips", "Give the ZIP codes you serve, or the states.")
    bad_zips = [z for z in zips if not (len(z) == 5 and z.isdigit() and zip_location(z))]
    if bad_zips:
        problems.add("zips", f"Not US ZIP codes: {', '.join(bad_zips)[:200]} (5 digits each).")
    elif len(zips) > MAX_ZIPS:
        problems.add("zips", f"Give at most {MAX_ZIPS} ZIP codes; a radius covers the ones around them.")
    bad_states = [s for s in states if s not in STATE_CODES]
    if bad_states:
        problems.add("states", f"Not US state codes: {', '.join(bad_states)[:200]} (two letters, DC included).")
    if radius_miles is not None:
        if not zips:
            problems.add("radiusMiles", "A radius needs ZIP codes to measure from.")
        elif not 1 <= radius_miles <= MAX_RADIUS_MILES:
            problems.add("radiusMiles", f"The radius is 1 to {MAX_RADIUS_MILES} miles.")
    return Area(zips=zips, radius_miles=radius_miles if zips else None, states=states)


def clean_licence(*, services: list[str], number: str | None, state: str | None,
                  problems: Problems) -> tuple[str | None, str | None]:
    """The licence number and issuing state: required where a service needs one, checked when given."""
    number = " ".join((number or "").split()) or None
    state = (state or "").strip().upper() or None
    needed = licences_needed(services)
    if number is not None and not LICENCE_PATTERN.match(number):
        problems.add("licenceNumber", "A licence number is 2 to 40 letters, digits, spaces, dots, dashes or slashes.")
    if state is not None and state not in STATE_CODES:
        problems.add("licenceState", "Choose the state that issued the licence.")
    if needed and number is None:
        problems.add("licenceNumber", f"These services need a licence: {'; '.join(needed)}. Enter its number.")
    if (needed or number) and state is None:
        problems.add("licenceState", "Choose the state that issued the licence.")
    return number, state
