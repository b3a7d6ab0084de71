"""Intake fixtures (backend/tests/intake_fixtures.py): settings with a throwaway data key and no
delivery worker."""

from intake_fixtures import index, settings  # noqa: F401 (fixtures: pytest finds them here)
