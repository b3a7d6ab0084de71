"""The delivery fixtures (backend/tests/delivery_fixtures.py): routing is run on leads stored
through intake, with real buyer and provider receivers and a worker on a test clock."""

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
