from __future__ import annotations


def test_catalog_lists_every_category_and_service(client):
    body = client.get("/api/catalog").json()
    assert [c["id"] for c in body["categories"]] == ["services", "legal", "insurance", "financial"]
    assert len(body["services"]) == 23
    assert len(body["site"]["states"]) == 51
    assert {"value": "DC", "label": "District of Columbia"} in body["site"]["states"]
    assert "ServiceMatch" in body["site"]["defaultTcpaText"]
    assert body["config"]["brandName"] == "ServiceMatch"


def test_service_detail_fills_in_the_brand(client):
    response = client.get("/api/services/legal/auto-accident")
    assert response.status_code == 200
    service = response.json()
    assert service["cid"] == 640
    assert "{sender name}" not in service["tcpaText"]
    assert "ServiceMatch" in service["tcpaText"]


def test_same_slug_in_two_verticals(client):
    legal = client.get("/api/services/legal/debt-relief").json()
    financial = client.get("/api/services/financial/debt-relief").json()
    assert (legal["name"], financial["name"]) == ("Collections and Debt", "Credit Card Debt")


def test_alias_and_unknown(client):
    assert client.get("/api/services/home-loan").json()["id"] == "mortgage"
    missing = client.get("/api/services/unicorn-grooming")
    assert missing.status_code == 404
    assert missing.json() == {"error": "Service Not Found", "fields": {}}
