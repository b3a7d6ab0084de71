"""The console fixtures (backend/tests/console_fixtures.py): signing in is tested through the
console's sign-in API, with operators the fixtures add."""

from console_fixtures import (  # noqa: F401 (fixtures: pytest finds them here)
    add_operator,
    admin,
    analyst,
    cheapest_password_hashing,
    receiver,
    settings,
    worker,
)
