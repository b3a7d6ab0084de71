from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import func, select

from servicematch.app import create_app
from servicematch.ops.models import BenchmarkRow


def test_bare_insert_is_absent_by_default(client):
    assert client.post("/api/bench/insert", json={"requestId": "r1"}).status_code == 404


def test_bare_insert_stores_one_row(settings):
    app = create_app(settings.model_copy(update={"benchmark_routes": True}))
    try:
        with TestClient(app) as client:
            response = client.post("/api/bench/insert", json={"requestId": "r1", "consumer": {}})
            assert response.status_code == 202
            with app.state.session_factory() as session:
                assert session.scalar(select(func.count()).select_from(BenchmarkRow)) == 1
                session.query(BenchmarkRow).delete()
                session.commit()
    finally:
        app.state.engine.dispose()
