"""Provider offers as the offers work stores them (docs/portal.md), written straight to the tables:
an accepted offer comes with its charge-free provider_portal delivery, the record that the
consumer's details were handed over in the portal; any other status with nothing else."""

from __future__ import annotations

from datetime import datetime, timedelta

from servicematch.delivery.models import (
    Delivery,
    DeliveryStatus,
    Provider,
    ProviderMode,
    TargetKind,
)
from servicematch.kernel.ids import new_id
from servicematch.routing.models import OfferStatus, ProviderOffer


def portal_provider(session, name: str, services=("roofing",)) -> Provider:
    """A provider in review mode, for a service routing will not match it to on its own."""
    provider = Provider(id=new_id(), name=name, contact_email=f"{new_id()[:8]}@pro.example", services=list(services),
                        states=["TX"], zips=[], active=True, mode=ProviderMode.REVIEW)
    session.add(provider)
    session.flush()
    return provider


def add_offer(session, *, lead_id: str, provider_id: str, status: str, at: datetime) -> ProviderOffer:
    """An offer made at `at`, decided then unless still open; accepted ones get their delivery row."""
    offer = ProviderOffer(id=new_id(), lead_id=lead_id, provider_id=provider_id, status=status, price_cents=2500,
                          created_at=at, expires_at=at + timedelta(hours=2),
                          decided_at=None if status == OfferStatus.OPEN else at)
    session.add(offer)
    if status == OfferStatus.ACCEPTED:
        session.add(Delivery(id=new_id(), lead_id=lead_id, provider_id=provider_id, kind=TargetKind.PROVIDER_PORTAL,
                             payload_kind="lead", target_key=f"portal:{provider_id}", status=DeliveryStatus.DELIVERED,
                             attempt_count=0, next_attempt_at=at, window_started_at=at, created_at=at,
                             completed_at=at))
    session.flush()
    return offer
