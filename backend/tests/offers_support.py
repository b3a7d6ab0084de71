"""Reading what routing stored about a lead's offers, charges and deliveries."""

from __future__ import annotations

from sqlalchemy import select

from servicematch.delivery.models import Delivery
from servicematch.ledger.models import AccountKind, LedgerAccount, LedgerEntry
from servicematch.routing.models import ProviderOffer

# What must never appear before acceptance: the consumer's name, phone, street and e-mail.
PERSONAL = ("Maria", "Garcia", "512555", "500 Congress", "maria.garcia@example.com")


def offers_of(session_factory, lead_id: str) -> dict[str, ProviderOffer]:
    """The lead's offers by provider id."""
    with session_factory() as session:
        return {o.provider_id: o for o in session.scalars(select(ProviderOffer).where(ProviderOffer.lead_id == lead_id))}


def ledger_of(session_factory, provider_id: str) -> list[LedgerEntry]:
    """The entries of the provider's ledger account, oldest first (a charge is negative: it takes
    from the provider's funds); none before its account is made."""
    with session_factory() as session:
        return list(session.scalars(select(LedgerEntry).join(LedgerAccount).where(
            LedgerAccount.kind == AccountKind.PROVIDER, LedgerAccount.owner_id == provider_id)
            .order_by(LedgerEntry.created_at, LedgerEntry.id)))


def deliveries_to(session_factory, lead_id: str, provider_id: str) -> list[Delivery]:
    with session_factory() as session:
        return list(session.scalars(select(Delivery).where(Delivery.lead_id == lead_id,
                                                           Delivery.provider_id == provider_id)))
