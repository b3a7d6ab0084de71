"""Two real `servicematch serve --no-worker` processes on one metrics directory: either one's
/metrics adds up both, and one that stops keeps its counts but no longer counts as running."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from servicematch.devserver import start_server, stop_server
from servicematch.kernel.metrics import DIRECTORY_VARIABLE
from servicematch.schema.migrate import upgrade

SERVE = (sys.executable, "-m", "servicematch.cli", "serve", "--no-worker", "--no-migrate")


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serving(env: dict[str, str]) -> Iterator[tuple[str, object]]:
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    process = start_server(env={**env, "PORT": str(port), "HOST": "127.0.0.1",
                                "SERVICEMATCH_SITE_ORIGIN": base_url}, base_url=base_url, command=SERVE)
    try:
        yield base_url, process
    finally:
        stop_server(process)


def sample(base_url: str, name: str, **labels: str) -> float:
    text = httpx.get(f"{base_url}/metrics", timeout=30).text
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and found.labels == labels:
                return found.value
    return 0.0


@pytest.fixture
def deployment_env(tmp_path: Path, static_dir: Path) -> dict[str, str]:
    """One deployment's settings: its own SQLite database, migrated once, and one metrics directory."""
    database_url = f"sqlite:///{tmp_path / 'servicematch.db'}"
    upgrade(database_url)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith("SERVICEMATCH_") and key != DIRECTORY_VARIABLE}
    return {**env, "SERVICEMATCH_DATABASE_URL": database_url, "SERVICEMATCH_ENVIRONMENT": "test",
            "SERVICEMATCH_STATIC_DIR": str(static_dir), "SERVICEMATCH_METRICS_DIR": str(tmp_path / "metrics"),
            "SERVICEMATCH_DATA_KEY_FILE": str(tmp_path / "data.key"), "SERVICEMATCH_MAIL_DIR": str(tmp_path / "mail"),
            "SERVICEMATCH_METRICS_ALLOW": "127.0.0.1"}


def test_two_web_processes_report_together(deployment_env):
    with ExitStack() as stack:
        first, _ = stack.enter_context(serving(deployment_env))
        second, second_process = stack.enter_context(serving(deployment_env))
        for base_url, refused in ((first, 1), (second, 2)):
            for _ in range(refused):
                assert httpx.post(f"{base_url}/api/submit-form", json={}, timeout=30).status_code == 422
        for base_url in (first, second):
            assert sample(base_url, "servicematch_leads_total", outcome="invalid") == 3
            assert sample(base_url, "servicematch_processes", kind="web") == 2
        stop_server(second_process)
        # The stopped process's counts stay in the sum; it no longer counts as running.
        assert sample(first, "servicematch_leads_total", outcome="invalid") == 3
        assert sample(first, "servicematch_processes", kind="web") == 1
