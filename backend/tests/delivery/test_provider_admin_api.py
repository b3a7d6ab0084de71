"""The provider admin API: bearer token, validation as clear JSON errors, add/list/change/disable."""

from __future__ import annotations

import pytest
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
    assert (disabled.json()["active"], disabled.json()["paused_by"]) == (False, "operator")
    [listed] = client.get("/api/admin/providers", headers=AUTH).json()
    assert (listed["name"], listed["active"], listed["services"]) == ("Cool Air", False,
                                                                      ["hvac", "legal/debt-relief"])
    assert (listed["mode"], listed["verified_at"]) == ("direct", None)
    resumed = client.patch(f"/api/admin/providers/{provider['id']}", json={"active": True}, headers=AUTH)
    assert (resumed.json()["active"], resumed.json()["paused_by"]) == (True, None)


def test_bad_input_is_a_clear_json_error(client):
    unknown_service = client.post("/api/admin/providers", json=PROVIDER, headers=AUTH)
    assert unknown_service.status_code == 422
    assert unknown_service.json()["fields"] == {"services": "home-cooling"}

    no_area = client.post("/api/admin/providers", json={**PROVIDER, "states": [], "zips": []}, headers=AUTH)
    assert no_area.status_code == 422 and "service area" in str(no_area.json()["fields"])
    bad_state = client.post("/api/admin/providers", json={**PROVIDER, "states": ["XX"]}, headers=AUTH)
    assert "XX" in bad_state.json()["fields"]["states"]
    bad_secret = client.post("/api/admin/providers", headers=AUTH,
                             json={**PROVIDER, "services": ["hvac"], "webhook_secret": "whsec_c2hvcnQ="})
    assert bad_secret.status_code == 422 and "24 bytes" in bad_secret.json()["fields"]["webhook_secret"]
    missing = client.get("/api/admin/providers/nope", headers=AUTH)
    assert missing.status_code == 404 and missing.json()["error"] == "No provider with id nope."


def _added(client) -> dict:
    created = client.post("/api/admin/providers", json={**PROVIDER, "services": ["hvac"]}, headers=AUTH)
    assert created.status_code == 201, created.text
    return created.json()


def test_null_for_a_list_or_required_field_is_refused_and_changes_nothing(client):
    provider = _added(client)
    for field in ("zips", "services", "states", "name", "contact_email", "active"):
        refused = client.patch(f"/api/admin/providers/{provider['id']}", json={field: None, "daily_cap": 7},
                               headers=AUTH)
        assert refused.status_code == 422, (field, refused.text)
        assert field in refused.json()["fields"], refused.json()
    after = client.get(f"/api/admin/providers/{provider['id']}", headers=AUTH)
    assert after.status_code == 200 and after.json() == provider
    assert client.get("/api/admin/providers", headers=AUTH).json() == [provider]


def test_a_change_that_leaves_no_service_area_writes_nothing(client):
    provider = _added(client)
    refused = client.patch(f"/api/admin/providers/{provider['id']}",
                           json={"states": [], "zips": [], "daily_cap": 1}, headers=AUTH)
    assert refused.status_code == 422 and "service area" in str(refused.json()["fields"])
    radius_alone = client.patch(f"/api/admin/providers/{provider['id']}", json={"zips": []}, headers=AUTH)
    assert radius_alone.status_code == 422 and "radius" in str(radius_alone.json()["fields"])
    assert client.get(f"/api/admin/providers/{provider['id']}", headers=AUTH).json() == provider


def test_null_clears_the_optional_fields(client):
    provider = _added(client)
    cleared = client.patch(f"/api/admin/providers/{provider['id']}",
                           json={"daily_cap": None, "radius_miles": None, "webhook_url": None}, headers=AUTH)
    assert cleared.status_code == 200, cleared.text
    body = cleared.json()
    assert (body["daily_cap"], body["radius_miles"], body["webhook_url"]) == (None, None, None)


def test_a_line_break_in_a_name_is_refused(client):
    provider = _added(client)
    refused = client.patch(f"/api/admin/providers/{provider['id']}", json={"name": "Cool\r\nBcc: x@y.io"},
                           headers=AUTH)
    assert refused.status_code == 422 and "name" in refused.json()["fields"]
    added = client.post("/api/admin/providers", json={**PROVIDER, "name": "A\x1b[2J"}, headers=AUTH)
    assert added.status_code == 422 and "name" in added.json()["fields"]


def test_repeated_wrong_tokens_answer_429_even_to_the_right_one(app, settings):
    limited = create_app(settings.model_copy(update={"admin_auth_failure_limit": 3}))
    with TestClient(limited) as client:
        wrong = [client.get("/api/admin/providers", headers={"Authorization": f"Bearer guess-{n}"}).status_code
                 for n in range(3)]
        assert wrong == [401, 401, 401]
        locked = client.get("/api/admin/providers", headers=AUTH)
        assert locked.status_code == 429 and int(locked.headers["Retry-After"]) >= 1
    limited.state.engine.dispose()


def test_the_right_token_is_not_counted(client):
    for _ in range(15):
        assert client.get("/api/admin/providers", headers=AUTH).status_code == 200


# Past SQLite's 64-bit integers, and past PostgreSQL's 32-bit INTEGER column: both were 500s that
# could leave the database connection broken.
@pytest.mark.parametrize("value", [2**64, 2**31])
def test_a_daily_cap_past_its_column_is_a_422_naming_it_and_the_api_goes_on(client, value):
    added = client.post("/api/admin/providers", json={**PROVIDER, "services": ["hvac"], "daily_cap": value},
                        headers=AUTH)
    assert added.status_code == 422, added.text
    assert list(added.json()["fields"]) == ["daily_cap"]
    assert client.get("/api/admin/providers", headers=AUTH).json() == []
    provider = _added(client)
    changed = client.patch(f"/api/admin/providers/{provider['id']}", json={"daily_cap": value}, headers=AUTH)
    assert changed.status_code == 422, changed.text
    assert list(changed.json()["fields"]) == ["daily_cap"]
    assert client.get(f"/api/admin/providers/{provider['id']}", headers=AUTH).json() == provider


def test_a_daily_cap_sent_as_a_string_is_refused(client):
    added = client.post("/api/admin/providers", json={**PROVIDER, "services": ["hvac"], "daily_cap": "10"},
                        headers=AUTH)
    assert added.status_code == 422, added.text
    assert list(added.json()["fields"]) == ["daily_cap"]
