"""Which services need a licence to offer, and what it is called (docs/portal.md says why).

A provider offering any of them gives its licence number and issuing state when it applies (or
is invited), and keeps one on file in its profile; an operator checks it in the console before
the provider shows the verified badge. Keys are a vertical (every service in it) or a catalogue
id, "vertical/slug"; EXEMPT names the services of a licensed vertical that need none.
"""

from __future__ import annotations

from collections.abc import Iterable

LICENCES = {
    # Practising law: admission to a state bar.
    "legal": "State bar licence",
    # Selling or advising on insurance: a state producer (agent) licence.
    "insurance": "State insurance producer licence",
    # Originating home loans: a state mortgage loan originator licence (NMLS).
    "financial/mortgage": "Mortgage loan originator licence (NMLS)",
    "financial/refinancing": "Mortgage loan originator licence (NMLS)",
    # Installing heating and cooling: a state or local mechanical licence and EPA 608 certification.
    "services/hvac": "HVAC contractor licence",
}
# Help with a Social Security disability claim: representatives are not licensed by states.
EXEMPT = frozenset({"insurance/ssdi"})


def licence_for(service_id: str) -> str | None:
    """The licence a service ("vertical/slug") needs, or None."""
    if service_id in EXEMPT:
        return None
    return LICENCES.get(service_id) or LICENCES.get(service_id.partition("/")[0])


def licences_needed(service_ids: Iterable[str]) -> list[str]:
    """The licences a list of services needs, each once, in the order first needed."""
    return list(dict.fromkeys(filter(None, map(licence_for, service_ids))))
