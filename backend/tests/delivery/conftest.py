"""Delivery fixtures (backend/tests/delivery_fixtures.py): real receivers, an app wired to them,
leads stored through intake, a test clock."""

from delivery_fixtures import (  # noqa: F401 (fixtures: pytest finds them here)
    add_provider,
    clock,
    make_lead,
    make_leads_together,
    receiver,
    session_factory,
    settings,
    smtp,
    worker,
)
