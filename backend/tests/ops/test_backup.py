"""`servicematch backup PATH`: a consistent copy while the site runs (SQLite's online backup API, or
pg_dump -Fc), never over an existing file; restored into an empty database, the app serves the same
leads through the console API and the lead status API."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from cli_support import shell_cli
from console_api_support import PASSWORD, sign_in
from console_fixtures import cheapest_password_hashing  # noqa: F401 (an autouse fixture)
from encrypted_rows import new_key
from fastapi.testclient import TestClient
from lead_payloads import hvac_payload
from sqlalchemy import create_engine, func, make_url, select

from servicematch.app import create_app
from servicematch.console import accounts
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.intake.status_token import STATUS_TOKEN_HEADER
from servicematch.ops import backup as backups
from servicematch.ops.key_commands import backup_command
from servicematch.settings import Settings

KEY = new_key()
ADMIN = "admin@example.com"
RESTORE_TOOLS = shutil.which("pg_dump") and shutil.which("pg_restore")


@pytest.fixture
def settings(database_url: str, static_dir: Path) -> Settings:
    return Settings(environment="test", database_url=database_url, static_dir=static_dir, secret_key="test-secret-key",
                    data_key=KEY, worker_enabled=False, submit_rate_limit=10_000)


def run_backup(monkeypatch, settings: Settings, path: Path):
    with shell_cli(monkeypatch, settings, command=backup_command) as cli:
        return cli(str(path))


def leads_and_an_admin(app, client) -> dict[str, str]:
    """Three leads through the site and an operator: each lead's requestId and status token."""
    tokens = {}
    for number in range(3):
        body = hvac_payload(app.state.catalog, phone=f"51255502{number:02d}")
        answer = client.post("/api/submit-form", json=body)
        assert answer.status_code == 202, answer.text
        tokens[body["requestId"]] = answer.json()["statusToken"]
    with app.state.session_factory() as session:
        accounts.add_operator(session, email=ADMIN, role="admin", password=PASSWORD)
        session.commit()
    return tokens


def what_is_served(client: TestClient, tokens: dict[str, str]) -> dict:
    """The console's list and every lead in full (decrypted), and each lead's status for its browser."""
    sign_in(client, ADMIN)
    listed = client.get("/api/console/leads").json()
    return {"list": listed,
            "leads": [client.get(f"/api/console/leads/{item['id']}").json() for item in listed["items"]],
            "statuses": {request_id: client.get(f"/api/leads/{request_id}/status",
                                                headers={STATUS_TOKEN_HEADER: token}).json()
                         for request_id, token in tokens.items()}}


@contextmanager
def served_from(settings: Settings, database_url: str):
    restored = create_app(settings.model_copy(update={"database_url": database_url}))
    try:
        with TestClient(restored) as client:
            yield client
    finally:
        restored.state.lead_store.stop()
        restored.state.engine.dispose()


def restore(backup_file: Path, database_url: str) -> None:
    """Into the empty database: a copy of the file (SQLite), pg_restore (PostgreSQL)."""
    if database_url.startswith("sqlite"):
        shutil.copyfile(backup_file, make_url(database_url).database)
        return
    target = make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
    subprocess.run(["pg_restore", "--no-owner", f"--dbname={target}", str(backup_file)], check=True,
                   capture_output=True)


def test_a_restored_backup_serves_the_same_leads(app, client, settings, monkeypatch, tmp_path, earlier_database):
    if not settings.is_sqlite and not RESTORE_TOOLS:
        pytest.skip("pg_dump and pg_restore are not installed: PostgreSQL is backed up with them")
    tokens = leads_and_an_admin(app, client)
    served = what_is_served(client, tokens)
    assert len(served["leads"]) == 3 and {lead["email"] for lead in served["leads"]} == {"maria.garcia@example.com"}

    made = run_backup(monkeypatch, settings, tmp_path / "servicematch.backup")
    assert made.exit_code == 0, made.output
    assert made.output.startswith(f"backup: {tmp_path / 'servicematch.backup'} (")
    assert (tmp_path / "servicematch.backup").stat().st_mode & 0o777 == 0o600
    assert [path.name for path in tmp_path.iterdir()] == ["servicematch.backup"]  # no draft left behind

    restore(tmp_path / "servicematch.backup", earlier_database)
    with served_from(settings, earlier_database) as restored:
        assert what_is_served(restored, tokens) == served


def test_a_backup_never_overwrites_a_file(app, settings, monkeypatch, tmp_path):
    existing = tmp_path / "kept.backup"
    existing.write_text("yesterday's backup")
    refused = run_backup(monkeypatch, settings, existing)
    assert refused.exit_code == 1
    assert f"{existing} exists already: a backup never overwrites a file" in refused.output
    assert existing.read_text() == "yesterday's backup"
    assert [path.name for path in tmp_path.iterdir()] == ["kept.backup"]


def test_a_backup_taken_during_intake_is_whole(app, client, settings, monkeypatch, tmp_path, earlier_database):
    if not settings.is_sqlite and not RESTORE_TOOLS:
        pytest.skip("pg_dump and pg_restore are not installed: PostgreSQL is backed up with them")
    stop = threading.Event()
    accepted = []

    def submit() -> None:
        while not stop.is_set():
            body = hvac_payload(app.state.catalog, phone=f"5125550{len(accepted) % 1000:03d}")
            accepted.append(client.post("/api/submit-form", json=body).status_code)

    writer = threading.Thread(target=submit)
    writer.start()
    try:
        while len(accepted) < 5:
            time.sleep(0.01)
        made = run_backup(monkeypatch, settings, tmp_path / "during.backup")
    finally:
        stop.set()
        writer.join(60)
    assert made.exit_code == 0, made.output
    assert set(accepted) == {202}
    restore(tmp_path / "during.backup", earlier_database)
    engine = create_engine(earlier_database)
    try:
        with engine.connect() as connection:
            leads, consents = (connection.scalar(select(func.count()).select_from(table))
                               for table in (Lead.__table__, ConsentRecord.__table__))
    finally:
        engine.dispose()
    # Each lead with the consent record of its own transaction: one moment's database.
    assert leads == consents >= 5
    assert leads <= len(accepted)


def test_the_pg_dump_command_carries_no_password(tmp_path):
    command, secret = backups.pg_dump_command("postgresql+psycopg://shop:s3cret@db.internal:6432/servicematch"
                                              "?sslmode=require", tmp_path / "x.dump")
    assert command == ["pg_dump", "--format=custom", f"--file={tmp_path / 'x.dump'}",
                       "--dbname=postgresql://shop@db.internal:6432/servicematch?sslmode=require"]
    assert secret == {"PGPASSWORD": "s3cret"}


def test_without_pg_dump_the_command_to_run_is_given(monkeypatch, tmp_path):
    monkeypatch.setattr(backups.shutil, "which", lambda _name: None)
    with pytest.raises(backups.BackupRefused) as refused:
        backups.backup("postgresql+psycopg://shop:s3cret@db.internal:5432/servicematch", tmp_path / "x.dump")
    assert "pg_dump, which is not installed here" in str(refused.value)
    assert (f"pg_dump --format=custom --file={tmp_path / 'x.dump'} "
            "--dbname=postgresql://shop@db.internal:5432/servicematch") in str(refused.value)
    assert "s3cret" not in str(refused.value)
    assert not (tmp_path / "x.dump").exists()
