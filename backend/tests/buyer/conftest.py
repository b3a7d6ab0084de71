"""Buyer fixtures (backend/tests/buyer_fixtures.py): buyers, their people, a signed-in browser, an
API key and a client that sends it, the local mailbox."""

from buyer_fixtures import (  # noqa: F401 (fixtures: pytest finds them here)
    buyer_browser,
    buyer_invited,
    buyer_key,
    buyer_mailbox,
    buyer_person,
    cheapest_password_hashing,
    key_client,
    make_buyer,
    settings,
)
