"""The offer fixtures (backend/tests/offer_fixtures.py) and the portal's (portal_fixtures.py):
providers in review mode signed in to the portal, direct providers, leads stored through intake
and routed, a real SMTP server for the notices, and a worker that sends. They replace the
delivery fixtures of routing/conftest.py that share their names (settings, make_lead, worker)."""

from offer_fixtures import (  # noqa: F401 (fixtures: pytest finds them here)
    add_direct,
    make_lead,
    reviewer,
    session_factory,
    settings,
    smtp,
    worker,
)
from portal_fixtures import (  # noqa: F401 (fixtures: pytest finds them here)
    cheapest_password_hashing,
    invited,
    mailbox,
    operator,
    provider,
)
