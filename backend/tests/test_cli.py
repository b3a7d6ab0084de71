"""`servicematch serve`: outside production, links in mail point to the host and port being served
unless SERVICEMATCH_SITE_ORIGIN names the origin."""

from __future__ import annotations

import pytest
import uvicorn
from click.testing import CliRunner

from servicematch.cli import main
from servicematch.settings import get_settings, served_origin


@pytest.fixture
def served(monkeypatch, tmp_path):
    """Run `serve` without serving: the settings the served app would read, and uvicorn's arguments."""
    calls: list[dict] = []
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("SERVICEMATCH_SITE_ORIGIN", "SERVICEMATCH_WORKER_ENABLED"):
        # `serve` writes these for the processes it starts: put back as they were afterwards.
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    monkeypatch.setenv("SERVICEMATCH_DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: calls.append(kwargs))
    get_settings.cache_clear()

    def run(*args: str, **env: str) -> tuple[str, dict]:
        for name, value in env.items():
            monkeypatch.setenv(name, value)
        result = CliRunner().invoke(main, ["serve", "--no-migrate", "--no-worker", *args])
        assert result.exit_code == 0, result.output
        return get_settings().site_origin, calls[-1]

    yield run
    get_settings.cache_clear()


def test_without_a_site_origin_links_use_the_port_being_served(served):
    origin, served_on = served(PORT="9000")
    assert served_on["port"] == 9000
    assert origin == "http://127.0.0.1:9000"


def test_a_host_given_on_the_command_line_is_used_and_any_address_means_this_machine(served):
    assert served("--host", "localhost", "--port", "9100")[0] == "http://localhost:9100"
    assert served_origin("0.0.0.0", 8080) == "http://127.0.0.1:8080"
    assert served_origin("::", 8080) == "http://[::1]:8080"


def test_a_site_origin_set_explicitly_is_kept(served):
    origin, _ = served(PORT="9000", SERVICEMATCH_SITE_ORIGIN="https://leads.example.com")
    assert origin == "https://leads.example.com"


def test_serve_refuses_a_lease_no_longer_than_the_delivery_timeout_before_serving(monkeypatch, tmp_path):
    """Before, the site started and took leads while its worker died at every restart."""
    calls: list[dict] = []
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.setenv("SERVICEMATCH_DATABASE_URL", f"sqlite:///{tmp_path / 'db.sqlite'}")
    monkeypatch.setenv("SERVICEMATCH_DELIVERY_LEASE_SECONDS", "5")
    monkeypatch.setenv("SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS", "10")
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: calls.append(kwargs))
    get_settings.cache_clear()
    try:
        result = CliRunner().invoke(main, ["serve", "--no-migrate"])
    finally:
        get_settings.cache_clear()
    assert result.exit_code == 1 and calls == []
    assert result.exception is None or isinstance(result.exception, SystemExit)
    listed = result.output.split("the configuration is not valid:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listed] == ["SERVICEMATCH_DELIVERY_LEASE_SECONDS"]
    assert "must exceed SERVICEMATCH_DELIVERY_TIMEOUT_SECONDS (10)" in listed[0]
