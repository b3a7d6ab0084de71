"""Who hears that a provider is not receiving leads: the e-mail it signs in to the portal with, or,
without a portal account, its contact e-mail (where its leads go).

The ledger's holds chore (ledger/hold_notices.py) writes and sends the notice; this says to whom.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.delivery.models import Provider
from servicematch.portal.models import ProviderAccount


def provider_people(session: Session, provider_ids: list[str]) -> dict[str, list[str]]:
    """Each provider's addresses, in two queries for all of them."""
    people: dict[str, list[str]] = {}
    for provider_id, email in session.execute(
            select(ProviderAccount.provider_id, ProviderAccount.email)
            .where(ProviderAccount.provider_id.in_(provider_ids), ProviderAccount.active.is_(True))):
        people.setdefault(provider_id, []).append(email)
    if missing := [provider_id for provider_id in provider_ids if provider_id not in people]:
        for provider_id, email in session.execute(select(Provider.id, Provider.contact_email)
                                                  .where(Provider.id.in_(missing))):
            if email:
                people[provider_id] = [email]
    return people
