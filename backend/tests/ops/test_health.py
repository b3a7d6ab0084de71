"""GET /api/health, and no benchmark parts in the production app."""

from __future__ import annotations


def test_health_reports_a_reachable_database(client):
    assert client.get("/api/health").json() == {"status": "ok"}


def test_the_production_app_has_no_benchmark_route(client):
    assert client.post("/api/bench/insert", json={"requestId": "r1"}).status_code == 404
