"""What a provider pays for one accepted lead: the vertical's list price or its own price, and more
for an exclusive lead (nobody else gets it)."""

from __future__ import annotations

from servicematch.delivery.models import Provider

# Shared-lead list prices in cents, per vertical: near what US marketplaces charge a pro for a lead
# shared with up to two others (home services $25, legal $60, insurance $20, financial $35).
LIST_PRICE_CENTS = {
    "services": 2500,
    "legal": 6000,
    "insurance": 2000,
    "financial": 3500,
}
VERTICAL_NAMES = {"services": "Home services", "legal": "Legal", "insurance": "Insurance",
                  "financial": "Financial"}
# A vertical not listed above (one added to the catalogue later) costs this until priced.
DEFAULT_PRICE_CENTS = 2500
# An exclusive lead goes to one company instead of up to three.
EXCLUSIVE_FACTOR = 2.5


def lead_price_cents(provider: Provider, vertical: str, service: str, exclusive: bool) -> int:
    """The provider's own price (set by an operator) or the vertical's list price; exclusive costs
    EXCLUSIVE_FACTOR times as much. `service` is taken for prices per service later."""
    del service  # one price per vertical for now
    base = provider.lead_price_cents if provider.lead_price_cents is not None else (
        LIST_PRICE_CENTS.get(vertical, DEFAULT_PRICE_CENTS))
    return round(base * EXCLUSIVE_FACTOR) if exclusive else base
