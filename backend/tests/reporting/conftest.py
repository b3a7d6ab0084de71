"""The console fixtures (backend/tests/console_fixtures.py): the daily counts are read back through
the console's dashboard, from leads stored through the public API."""

from console_fixtures import (  # noqa: F401 (fixtures: pytest finds them here)
    add_operator,
    admin,
    analyst,
    cheapest_password_hashing,
    receiver,
    settings,
    worker,
)
