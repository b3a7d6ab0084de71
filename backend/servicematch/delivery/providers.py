"""The provider directory: add, list, change and disable providers."""

from __future__ import annotations

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.delivery.endpoints import webhook_health
from servicematch.delivery.models import PausedBy, Provider, new_id, utcnow
from servicematch.delivery.schemas import ProviderCreate, ProviderPublic, ProviderUpdate
from servicematch.errors import NotFound, ServiceMatchError, validation_fields
from servicematch.kernel.clock import as_utc

# The provider's columns an update may change, as ProviderCreate names them.
EDITABLE = tuple(ProviderCreate.model_fields)


def normalise_services(*, services: list[str], catalog: CatalogIndex | None) -> list[str]:
    """Resolve aliases to catalogue ids and refuse unknown services, so matching can compare ids."""
    if catalog is None:
        return sorted(set(services))
    resolved, unknown = set(), []
    for entry in services:
        vertical, _, slug = entry.rpartition("/")
        found = catalog.find(slug, vertical or None)
        if found is None:
            unknown.append(entry)
        else:
            resolved.add(f"{found.vertical}/{found.id}" if vertical else found.id)
    if unknown:
        raise ServiceMatchError("Unknown services.", fields={"services": ", ".join(unknown)},
                                status_code=422)
    return sorted(resolved)


def add_provider(*, session: Session, data: ProviderCreate, catalog: CatalogIndex | None) -> Provider:
    """Store a new provider (the caller commits)."""
    values = data.model_dump()
    values["services"] = normalise_services(services=data.services, catalog=catalog)
    provider = Provider(id=new_id(), created_at=utcnow(), **values)
    session.add(provider)
    session.flush()
    return provider


def get_provider(*, session: Session, provider_id: str) -> Provider:
    """One provider, or a 404."""
    provider = session.get(Provider, provider_id)
    if provider is None:
        raise NotFound(f"No provider with id {provider_id}.")
    return provider


def list_providers(*, session: Session, include_inactive: bool = True) -> list[Provider]:
    """Every provider, by name."""
    query = select(Provider).order_by(Provider.name, Provider.id)
    if not include_inactive:
        query = query.where(Provider.active.is_(True))
    return list(session.scalars(query).all())


def update_provider(
    *, session: Session, provider_id: str, changes: ProviderUpdate, catalog: CatalogIndex | None
) -> Provider:
    """Change the fields given, after checking the provider they leave as a whole: a refused
    change writes nothing (the caller commits)."""
    provider = get_provider(session=session, provider_id=provider_id)
    current = {name: getattr(provider, name) for name in EDITABLE}
    try:
        merged = ProviderCreate.model_validate({**current, **changes.model_dump(exclude_unset=True)})
    except ValidationError as exc:
        fields = validation_fields(exc.errors())
        raise ServiceMatchError("The change would leave the provider invalid.", fields=fields,
                                status_code=422) from exc
    values = merged.model_dump()
    values["services"] = normalise_services(services=merged.services, catalog=catalog)
    for name, value in values.items():
        setattr(provider, name, value)
    if "active" in changes.model_fields_set:
        provider.paused_by = None if provider.active else PausedBy.OPERATOR
    session.flush()
    return provider


def disable_provider(*, session: Session, provider_id: str) -> Provider:
    """Stop matching a provider; deliveries already queued for it still go out. Only an operator
    resumes it (the portal's resume refuses a provider an operator paused)."""
    provider = get_provider(session=session, provider_id=provider_id)
    provider.active = False
    provider.paused_by = PausedBy.OPERATOR
    session.flush()
    return provider


def provider_public(provider: Provider) -> ProviderPublic:
    """The admin view of a provider."""
    return ProviderPublic(
        id=provider.id, name=provider.name, contact_email=provider.contact_email,
        webhook_url=provider.webhook_url, has_webhook_secret=bool(provider.webhook_secret),
        services=provider.services, states=provider.states, zips=provider.zips,
        radius_miles=provider.radius_miles, daily_cap=provider.daily_cap, active=provider.active,
        last_matched_at=as_utc(provider.last_matched_at), created_at=as_utc(provider.created_at),
        mode=provider.mode, paused_by=provider.paused_by, verified_at=as_utc(provider.verified_at),
        lead_price_cents=provider.lead_price_cents, credit_cap_percent=provider.credit_cap_percent,
        **webhook_health(provider),
    )
