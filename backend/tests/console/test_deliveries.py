"""A delivery the buyer refused is listed, retried from the console, and arrives once."""

from __future__ import annotations

import pytest
from console_api_support import hvac_payload

from servicematch.routing.stage import route_pending
from servicematch.workers import make_worker


@pytest.fixture
def worker(app, settings):
    delivery_worker = make_worker(session_factory=app.state.session_factory, settings=settings)
    yield delivery_worker
    delivery_worker.close()


def _rejected_delivery(admin, app, receiver, worker) -> dict:
    receiver.status = 400  # a permanent refusal: no automatic retry
    admin.post("/api/submit-form", json=hvac_payload(app.state.catalog))
    worker.run_until_idle()
    (item,) = admin.get("/api/console/deliveries").json()["items"]
    return item


def test_a_rejected_delivery_retried_from_the_console_arrives_once(admin, app, receiver, worker):
    item = _rejected_delivery(admin, app, receiver, worker)
    assert item["status"] == "rejected" and item["recipient"] == "Buyer" and item["attempts"] == 1
    assert item["lastError"]
    receiver.status = 200
    answer = admin.post(f"/api/console/deliveries/{item['id']}/retry")
    assert answer.status_code == 202 and answer.json() == {"id": item["id"], "status": "pending"}
    worker.run_until_idle()
    worker.run_until_idle()
    assert len(receiver.accepted()) == 1
    assert admin.get("/api/console/deliveries").json()["items"] == []
    # Delivered now: a second retry is refused, so the lead cannot be sent twice from here.
    again = admin.post(f"/api/console/deliveries/{item['id']}/retry")
    assert again.status_code == 409
    worker.run_until_idle()
    assert len(receiver.accepted()) == 1
    lead = admin.get(f"/api/console/leads/{item['leadId']}").json()
    (delivery,) = [d for d in lead["deliveries"] if d["recipient"] == "Buyer"]
    assert [a["outcome"] for a in delivery["attempts"]] == ["rejected", "delivered"]
    assert delivery["attempts"][0]["httpStatus"] == 400
    actions = [(e["action"], e["target"]) for e in admin.get("/api/console/audit").json()["items"]]
    assert ("delivery.retry", item["id"]) in actions


def test_bulk_retry_queues_only_failed_or_rejected_ones(admin, app, receiver, worker):
    item = _rejected_delivery(admin, app, receiver, worker)
    answer = admin.post("/api/console/deliveries/retry", json={"ids": [item["id"], "no-such-delivery"]})
    assert answer.status_code == 202 and answer.json() == {"retried": 1}
    pending = admin.get("/api/console/deliveries", params={"status": "pending"}).json()["items"]
    assert [p["id"] for p in pending] == [item["id"]]


def test_unknown_status_and_bad_cursor_are_clear_422s(admin):
    assert admin.get("/api/console/deliveries", params={"status": "lost"}).status_code == 422
    answer = admin.get("/api/console/deliveries", params={"cursor": "%%%"})
    assert answer.status_code == 422 and "cursor" in answer.json()["fields"]


def test_the_counts_say_which_lists_have_deliveries(admin, app, receiver, worker):
    """What the Deliveries page opens on: the first of failed, rejected and pending that has any."""
    assert admin.get("/api/console/deliveries/counts").json() == {"failed": 0, "rejected": 0, "pending": 0}
    _rejected_delivery(admin, app, receiver, worker)  # and its receipt, delivered
    admin.post("/api/submit-form", json=hvac_payload(app.state.catalog, phone="5125550177"))
    route_pending(session_factory=app.state.session_factory, settings=app.state.settings)  # queued, not sent
    assert admin.get("/api/console/deliveries/counts").json() == {"failed": 0, "rejected": 1, "pending": 2}
