"""Console fixtures (backend/tests/console_fixtures.py): operators of each role, signed-in clients,
leads stored through the public API; buyers (backend/tests/buyer_fixtures.py's make_buyer)."""

from buyer_fixtures import make_buyer  # noqa: F401 (a fixture: pytest finds it here)
from console_fixtures import (  # noqa: F401 (fixtures: pytest finds them here)
    add_operator,
    admin,
    analyst,
    cheapest_password_hashing,
    receiver,
    settings,
    worker,
)
