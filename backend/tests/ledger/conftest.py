"""The delivery fixtures (backend/tests/delivery_fixtures.py): an app on each test database, with
real receivers and a worker on a test clock, for the ledger's tests."""

from delivery_fixtures import (  # noqa: F401 (fixtures: pytest finds them here)
    add_provider,
    clock,
    make_lead,
    receiver,
    session_factory,
    settings,
    smtp,
    worker,
)
