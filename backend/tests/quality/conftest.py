"""Buyers for the quality room's tests (backend/tests/buyer_fixtures.py's make_buyer)."""

from buyer_fixtures import make_buyer  # noqa: F401 (a fixture: pytest finds it here)
