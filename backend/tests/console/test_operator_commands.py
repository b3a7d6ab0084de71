"""`servicematch operators ...`: create the first operator from a script, list, reset, disable, TOTP."""

from __future__ import annotations

import base64
import os

import pytest
from click.testing import CliRunner
from console_api_support import PASSWORD

from servicematch.cli import main
from servicematch.settings import get_settings


@pytest.fixture
def cli(app, database_url, monkeypatch):
    monkeypatch.setenv("SERVICEMATCH_DATABASE_URL", database_url)
    monkeypatch.setenv("SERVICEMATCH_DATA_KEY", base64.b64encode(os.urandom(32)).decode())
    get_settings.cache_clear()
    runner = CliRunner()
    yield lambda *args, stdin=None: runner.invoke(main, ["operators", *args], input=stdin)
    get_settings.cache_clear()


def test_the_first_operator_from_a_script_then_sign_in(cli, client):
    added = cli("add", "--email", "Owner@Example.com", "--role", "admin", "--password-stdin", stdin=PASSWORD + "\n")
    assert added.exit_code == 0, added.output
    assert "added admin owner@example.com" in added.output
    listed = cli("list")
    assert "owner@example.com  admin  active" in listed.output
    answer = client.post("/api/console/session", json={"email": "owner@example.com", "password": PASSWORD})
    assert answer.status_code == 200


def test_refusals_are_clear_and_exit_non_zero(cli):
    short = cli("add", "--email", "a@example.com", "--role", "admin", "--password-stdin", stdin="short\n")
    assert short.exit_code != 0 and "at least 12 characters" in short.output
    cli("add", "--email", "a@example.com", "--role", "analyst", "--password-stdin", stdin=PASSWORD + "\n")
    twice = cli("add", "--email", "a@example.com", "--role", "analyst", "--password-stdin", stdin=PASSWORD + "\n")
    assert twice.exit_code != 0 and "exists already" in twice.output
    assert "No operator" in cli("disable", "nobody@example.com").output
    assert "for admins" in cli("totp-enable", "a@example.com").output


def test_reset_password_and_disable_end_sessions(cli, client):
    cli("add", "--email", "a@example.com", "--role", "admin", "--password-stdin", stdin=PASSWORD + "\n")
    client.post("/api/console/session", json={"email": "a@example.com", "password": PASSWORD})
    new_password = "another long passphrase"
    reset = cli("reset-password", "a@example.com", "--password-stdin", stdin=new_password + "\n")
    assert reset.exit_code == 0 and client.get("/api/console/session").status_code == 401
    assert client.post("/api/console/session", json={"email": "a@example.com", "password": new_password}).status_code == 200
    assert cli("disable", "a@example.com").exit_code == 0
    assert client.get("/api/console/session").status_code == 401
    assert "DISABLED" in cli("list").output


def test_totp_enable_prints_a_provisioning_uri(cli):
    cli("add", "--email", "a@example.com", "--role", "admin", "--password-stdin", stdin=PASSWORD + "\n")
    enabled = cli("totp-enable", "a@example.com")
    assert enabled.exit_code == 0 and "otpauth://totp/ServiceMatch%20console:a%40example.com" in enabled.output
    assert "totp" in cli("list").output
