"""The delivery fixtures (backend/tests/delivery_fixtures.py): what the outbound client refuses is
seen in the attempts a worker records against real receivers."""

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
