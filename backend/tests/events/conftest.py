"""Event fixtures: an app whose event limit is small enough to reach in a test."""

from __future__ import annotations

from pathlib import Path

import pytest

from servicematch.settings import Settings


@pytest.fixture
def settings(database_url: str, static_dir: Path, tmp_path: Path) -> Settings:
    return Settings(environment="test", database_url=database_url, static_dir=static_dir,
                    secret_key="test-secret-key", data_key_file=tmp_path / "data.key", worker_enabled=False,
                    events_rate_limit=20)

