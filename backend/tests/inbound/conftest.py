"""The intake fixtures (backend/tests/intake_fixtures.py): the limits are tested on the submit
endpoints, with settings that have a throwaway data key and no delivery worker."""

from intake_fixtures import index, settings  # noqa: F401 (fixtures: pytest finds them here)
