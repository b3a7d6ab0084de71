"""Pick up to three providers for a lead: its service, its area, its hours, under their cap, fairly."""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from functools import lru_cache

import zipcodes
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery, Provider, ProviderMode, as_utc
from servicematch.routing.hours import open_now

MAX_PROVIDERS_PER_LEAD = 3
EARTH_RADIUS_MILES = 3958.8
ACTIVE_PROVIDERS_KEY = "servicematch.active_providers"


@lru_cache(maxsize=50_000)
def zip_location(zip_code: str) -> tuple[float, float] | None:
    """Latitude and longitude of a US ZIP code from the bundled data, or None if unknown."""
    try:
        found = zipcodes.matching(zip_code)
    except (TypeError, ValueError):
        return None
    if not found:
        return None
    return float(found[0]["lat"]), float(found[0]["long"])


def distance_miles(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance between two (lat, long) points."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_MILES * math.asin(math.sqrt(h))


def offers_service(provider: Provider, *, vertical: str, service: str) -> bool:
    """A provider lists a service by slug, or by vertical/slug where a slug exists in two verticals."""
    offered = set(provider.services or [])
    return service in offered or f"{vertical}/{service}" in offered


def serves_location(provider: Provider, *, state: str | None, zip_code: str | None) -> bool:
    """In one of the provider's states, one of its ZIPs, or within its radius of one of them."""
    if state and state.upper() in {s.upper() for s in provider.states or []}:
        return True
    provider_zips = provider.zips or []
    if not zip_code:
        return False
    if zip_code in provider_zips:
        return True
    if not provider.radius_miles:
        return False
    here = zip_location(zip_code)
    if here is None:
        return False
    for centre_zip in provider_zips:
        centre = zip_location(centre_zip)
        if centre is not None and distance_miles(here, centre) <= provider.radius_miles:
            return True
    return False


def _sent_today(*, session: Session, provider_ids: list[str], now: datetime) -> dict[str, int]:
    """Leads matched to each provider since midnight UTC (all its channels count as one lead).

    Counts the rows already stored and those added to this session but not yet written (the
    other leads of a batch stored in one transaction).
    """
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    rows = session.execute(
        select(Delivery.provider_id, func.count(func.distinct(Delivery.lead_id)))
        .where(Delivery.provider_id.in_(provider_ids), Delivery.created_at >= midnight,
               Delivery.created_at < midnight + timedelta(days=1))
        .group_by(Delivery.provider_id)
    ).all()
    counts = {provider_id: count for provider_id, count in rows}
    wanted = set(provider_ids)
    unwritten = {(row.provider_id, row.lead_id) for row in session.new
                 if isinstance(row, Delivery) and row.provider_id in wanted}
    for provider_id, _lead_id in unwritten:
        counts[provider_id] = counts.get(provider_id, 0) + 1
    return counts


def _active_providers(session: Session) -> list[Provider]:
    """Active providers sent leads in full, read once per transaction: the leads of a batch share
    one read. Providers in review mode wait for offers, which are not built yet."""
    transaction = session.get_transaction()
    read_in, providers = session.info.get(ACTIVE_PROVIDERS_KEY, (None, None))
    if providers is None or transaction is None or read_in is not transaction:
        query = select(Provider).where(Provider.active.is_(True), Provider.mode == ProviderMode.DIRECT)
        if session.get_bind().dialect.name == "postgresql":
            # Held to the commit: two workers never both see a provider under its cap.
            query = query.with_for_update()
        providers = session.scalars(query).all()
        session.info[ACTIVE_PROVIDERS_KEY] = (session.get_transaction(), providers)
    return providers


def match_providers(
    *, session: Session, vertical: str, service: str, state: str | None, zip_code: str | None,
    now: datetime, limit: int = MAX_PROVIDERS_PER_LEAD,
) -> list[Provider]:
    """The active providers for this lead, within their hours, under their daily cap, least
    recently matched first."""
    active = _active_providers(session)
    candidates = [
        provider for provider in active
        if offers_service(provider, vertical=vertical, service=service)
        and serves_location(provider, state=state, zip_code=zip_code)
        and open_now(provider.hours, now)
    ]
    if not candidates:
        return []
    counts = _sent_today(session=session, provider_ids=[p.id for p in candidates], now=now)
    under_cap = [
        p for p in candidates if p.daily_cap is None or counts.get(p.id, 0) < p.daily_cap
    ]
    # Never-matched providers first, then the one waiting longest; creation order breaks ties.
    under_cap.sort(key=lambda p: (p.last_matched_at is not None, as_utc(p.last_matched_at) or now,
                                  as_utc(p.created_at) or now, p.id))
    return under_cap[:limit]
