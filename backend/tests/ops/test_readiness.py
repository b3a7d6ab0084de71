"""GET /api/ready: 200 while the database answers and is migrated to this code's head, 503 otherwise;
either way with the workers' last heartbeats."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from log_capture import captured_lines
from sqlalchemy import create_engine, text

from servicematch.deps import get_engine
from servicematch.kernel.clock import utcnow
from servicematch.ops.heartbeat import beat
from servicematch.ops.readiness import expected_revision
from servicematch.schema.migrate import MIGRATIONS_DIR


def test_a_migrated_reachable_database_is_ready(client):
    answer = client.get("/api/ready")
    assert answer.status_code == 200
    body = answer.json()
    head = expected_revision(MIGRATIONS_DIR)
    assert body == {"status": "ready", "database": "ok", "migration": head, "expectedMigration": head,
                    "problems": [], "workers": []}


def test_the_workers_last_beats_are_reported_latest_first(client, app):
    now = utcnow()
    factory = app.state.session_factory
    beat(factory, worker_id="older", host="web-1", pid=7, started_at=now, now=now - timedelta(seconds=30))
    beat(factory, worker_id="newer", host="web-2", pid=8, started_at=now, now=now - timedelta(seconds=2))
    workers = client.get("/api/ready").json()["workers"]
    assert [worker["workerId"] for worker in workers] == ["newer", "older"]
    assert 2 <= workers[0]["secondsSinceBeat"] < 30 <= workers[1]["secondsSinceBeat"] < 60
    # Who and how long ago, nothing else (no host, no process id).
    assert all(set(worker) == {"workerId", "secondsSinceBeat"} for worker in workers)


@pytest.fixture
def database_at(app):
    """Set the revision the database says it is at; put back afterwards."""
    head = expected_revision(MIGRATIONS_DIR)

    def set_revision(revision: str) -> None:
        with app.state.engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :revision"), {"revision": revision})

    yield set_revision
    set_revision(head)


def test_migrations_behind_the_code_make_it_unavailable(client, database_at):
    database_at("20261129_0025")
    answer = client.get("/api/ready")
    assert answer.status_code == 503
    body = answer.json()
    assert (body["status"], body["database"], body["migration"]) == ("unavailable", "ok", "20261129_0025")
    assert "servicematch migrate" in body["problems"][0]
    assert client.get("/api/health").status_code == 200  # liveness is another question


def test_a_database_migrated_by_newer_code_leaves_this_code_serving(client, database_at):
    # During a deployment the new code migrates first; processes of the old code keep serving.
    database_at("20991231_9999")
    answer = client.get("/api/ready")
    assert answer.status_code == 200
    assert (answer.json()["status"], answer.json()["migration"]) == ("ready", "20991231_9999")


def test_a_database_never_migrated_is_behind(client, app, earlier_database):
    empty = create_engine(earlier_database)
    app.dependency_overrides[get_engine] = lambda: empty
    try:
        answer = client.get("/api/ready")
    finally:
        app.dependency_overrides.clear()
        empty.dispose()
    assert answer.status_code == 503
    assert (answer.json()["database"], answer.json()["migration"]) == ("ok", None)
    assert answer.json()["problems"][0].startswith("The database is at migration (none)")


def test_a_probe_writes_no_log_line(client):
    client.get("/api/ready")  # the migrations read once
    with captured_lines("text", level=logging.INFO) as buffer:
        assert client.get("/api/ready").status_code == 200
    assert buffer.getvalue() == ""


def test_an_unreachable_database_makes_it_unavailable(client, app):
    unreachable = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")
    app.dependency_overrides[get_engine] = lambda: unreachable
    try:
        answer = client.get("/api/ready")
    finally:
        app.dependency_overrides.clear()
        unreachable.dispose()
    assert answer.status_code == 503
    assert answer.json() == {"status": "unavailable", "database": "unreachable", "migration": None,
                             "expectedMigration": expected_revision(MIGRATIONS_DIR),
                             "problems": ["The database cannot be reached."], "workers": []}


def test_readiness_is_in_the_api_schema_with_its_answer_shapes(app):
    operation = app.openapi()["paths"]["/api/ready"]["get"]
    for status in ("200", "503"):
        assert operation["responses"][status]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Readiness"}
    assert operation["tags"] == ["ops"]
