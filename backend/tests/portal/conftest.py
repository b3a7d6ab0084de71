"""Portal fixtures (backend/tests/portal_fixtures.py): a real local mailbox, invited providers
signed in through their link, an operator."""

from portal_fixtures import (  # noqa: F401 (fixtures: pytest finds them here)
    cheapest_password_hashing,
    invited,
    mailbox,
    operator,
    provider,
    settings,
)
