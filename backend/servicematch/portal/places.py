"""Where a lead's job is and what it is, for lists that name a lead without naming its consumer:
the service's name, and the city (from the ZIP) and state. Nothing is decrypted."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.address.directory import load_directory
from servicematch.catalog.loader import CatalogIndex
from servicematch.intake.models import Lead


@dataclass(frozen=True)
class LeadPlace:
    """All None once the lead is erased or deleted."""

    service_name: str | None = None
    city: str | None = None
    state: str | None = None
    reference: str | None = None


def place_of(catalog: CatalogIndex, lead: Lead) -> LeadPlace:
    service = catalog.find(lead.service, lead.vertical)
    entry = load_directory().get(lead.zip) if lead.zip else None
    return LeadPlace(service_name=service.name if service else lead.service, city=entry.city if entry else None,
                     state=lead.state, reference=lead.reference)


def places_of(db: Session, catalog: CatalogIndex, lead_ids: list[str | None]) -> dict[str, LeadPlace]:
    """Each lead's place, by lead id, in one read."""
    ids = sorted({lead_id for lead_id in lead_ids if lead_id})
    if not ids:
        return {}
    return {lead.id: place_of(catalog, lead) for lead in db.scalars(select(Lead).where(Lead.id.in_(ids)))}
