"""A process configured with a named SERVICEMATCH_BUYER_URL buyer: its settings, and the
marketing-partners list its start-up publishes (catalog/partners.py), so leads name it."""

from __future__ import annotations

from servicematch.catalog.partners import publish_at_start_up
from servicematch.settings import Settings

FIXED_BUYER_NAME = "Fixed Lead Buyer LLC"


def with_fixed_buyer(app, settings: Settings, url: str, name: str = FIXED_BUYER_NAME) -> Settings:
    configured = settings.model_copy(update={"buyer_url": url, "buyer_name": name})
    publish_at_start_up(app.state.session_factory, marketing_partners=app.state.catalog.catalog.marketingPartners,
                        settings=configured)
    return configured
