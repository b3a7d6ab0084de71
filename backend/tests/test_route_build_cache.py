"""The tests' cache of what FastAPI builds for routes: shared among apps, and nothing of one app's
dependency overrides reaches another's."""

from __future__ import annotations

import route_build_cache
from fastapi.testclient import TestClient

from servicematch.app import create_app
from servicematch.deps import app_part


def test_a_second_app_builds_no_route_again_and_keeps_its_own_overrides(app, client, settings):
    client.get("/api/catalog")
    renamed = settings.model_copy(update={"brand_name": "Another App's Brand"})

    async def other_settings() -> object:
        return renamed

    second = create_app(settings)
    second.dependency_overrides[app_part("settings")] = other_settings
    try:
        with TestClient(second) as other:
            assert other.get("/api/catalog").json()["config"]["brandName"] == "Another App's Brand"
        # The catalogue's endpoint was built for the first app only.
        assert route_build_cache.cached_paths().count("/api/catalog") == 1
        # The first app, its routes built from the same cache, still answers with its own settings.
        assert client.get("/api/catalog").json()["config"]["brandName"] == settings.brand_name
    finally:
        second.state.lead_store.stop()
        second.state.engine.dispose()
