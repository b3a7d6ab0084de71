from __future__ import annotations

import pytest

from servicematch.catalog.loader import load_catalog
from servicematch.settings import Settings


@pytest.fixture(scope="session")
def catalog_index():
    return load_catalog(Settings().catalog_dir)
