"""Intake fixtures: settings with a throwaway data key and no delivery worker.

Imported by the conftest.py of intake/ and inbound/ (rate limits on the submit endpoints)."""

from __future__ import annotations

from pathlib import Path

import pytest

from servicematch.catalog.loader import CatalogIndex
from servicematch.settings import Settings


@pytest.fixture
def settings(database_url: str, static_dir: Path, tmp_path: Path) -> Settings:
    # No delivery worker: these tests look at what intake stores, not at what is sent.
    return Settings(
        environment="test", database_url=database_url, static_dir=static_dir, secret_key="test-secret-key",
        data_key_file=tmp_path / "data.key", worker_enabled=False, submit_rate_limit=10_000,
    )


@pytest.fixture
def index(app) -> CatalogIndex:
    return app.state.catalog

