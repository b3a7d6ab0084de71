"""The provider admin API: bearer token, validation as clear JSON errors, add/list/change/disable."""

from __future__ import annotations

from fastapi.testclient import TestClient

from servicematch.app import create_app

AUTH = {"Authorization": "Bearer admin-token"}
PROVIDER = {"name": "Cool Air", "contact_email": "dispatch@coolair.example", "services": ["hvac", "home-cooling"],
            "states": ["tx"], "zips": ["78701"], "radius_miles": 25, "daily_cap": 10,
            "webhook_url": "https://coolair.example/hooks/leads", "webhook_secret": "s3cret"}


def test_the_api_needs_the_token(client):
    assert client.get("/api/admin/providers").status_code == 401
    wrong = client.get("/api/admin/providers", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "A valid admin token is required."


def test_the_api_is_off_without_a_token(app, settings):
    off = create_app(settings.model_copy(update={"admin_token": ""}))
    with TestClient(off) as client:
        assert client.get("/api/admin/providers", headers=AUTH).status_code == 404
    off.state.engine.dispose()


def test_add_list_change_and_disable_a_provider(client):
    known = {**PROVIDER, "services": ["hvac", "legal/debt-relief"]}
    created = client.post("/api/admin/providers", json=known, headers=AUTH)
    assert created.status_code == 201, created.text
    provider = created.json()
    assert provider["states"] == ["TX"] and provider["has_webhook_secret"] is True
    assert "webhook_secret" not in provider

    changed = client.patch(f"/api/admin/providers/{provider['id']}", json={"daily_cap": 3}, headers=AUTH)
    assert changed.json()["daily_cap"] == 3
    disabled = client.post(f"/api/admin/providers/{provider['id']}/disable", headers=AUTH)
    assert disabled.json()["active"] is False
    [listed] = client.get("/api/admin/providers", headers=AUTH).json()
    assert (listed["name"], listed["active"], listed["services"]) == ("Cool Air", False,
                                                                      ["hvac", "legal/debt-relief"])


def test_bad_input_is_a_clear_json_error(client):
    unknown_service = client.post("/api/admin/providers", json=PROVIDER, headers=AUTH)
    assert unknown_service.status_code == 422
    assert unknown_service.json()["fields"] == {"services": "home-cooling"}

    no_area = client.post("/api/admin/providers", json={**PROVIDER, "states": [], "zips": []}, headers=AUTH)
    assert no_area.status_code == 422 and "service area" in str(no_area.json()["fields"])
    bad_state = client.post("/api/admin/providers", json={**PROVIDER, "states": ["XX"]}, headers=AUTH)
    assert "XX" in bad_state.json()["fields"]["states"]
    missing = client.get("/api/admin/providers/nope", headers=AUTH)
    assert missing.status_code == 404 and missing.json()["error"] == "No provider with id nope."
