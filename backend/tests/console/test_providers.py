"""Providers from the console: the directory's rules, today's counts, pause and resume, test send, audit."""

from __future__ import annotations

from datetime import timedelta

from console_api_support import hvac_payload

from servicematch.delivery.models import DeliveryEndpoint
from servicematch.kernel.clock import utcnow
from servicematch.routing.stage import route_pending

NEW = {"name": "Cool Air", "email": "dispatch@coolair.example", "services": ["hvac"], "states": ["TX"],
       "dailyCap": 20}


def test_add_change_pause_resume_and_every_change_is_audited(admin, app):
    created = admin.post("/api/console/providers", json=NEW)
    assert created.status_code == 201, created.text
    provider = created.json()
    assert provider["email"] == NEW["email"] and provider["active"] is True and provider["leadsToday"] == 0
    changed = admin.patch(f"/api/console/providers/{provider['id']}", json={"dailyCap": 5, "zips": ["78701"]})
    assert changed.status_code == 200 and changed.json()["dailyCap"] == 5 and changed.json()["zips"] == ["78701"]
    assert admin.post(f"/api/console/providers/{provider['id']}/disable").json()["active"] is False
    assert admin.post(f"/api/console/providers/{provider['id']}/enable").json()["active"] is True
    actions = [e["action"] for e in admin.get("/api/console/audit").json()["items"]]
    assert actions[:4] == ["provider.enable", "provider.disable", "provider.change", "provider.add"]


def test_leads_today_counts_the_leads_matched_to_each_provider(admin, app):
    provider = admin.post("/api/console/providers", json=NEW).json()
    admin.post("/api/submit-form", json=hvac_payload(app.state.catalog))
    route_pending(session_factory=app.state.session_factory, settings=app.state.settings)  # as the worker does
    (listed,) = admin.get("/api/console/providers").json()["items"]
    assert listed["id"] == provider["id"] and listed["leadsToday"] == 1


def test_invalid_providers_are_refused_with_field_messages_and_nothing_stored(admin):
    answer = admin.post("/api/console/providers", json={**NEW, "states": ["XX"], "email": "not-an-email"})
    assert answer.status_code == 422
    assert set(answer.json()["fields"]) == {"states", "email"}
    unknown = admin.post("/api/console/providers", json={**NEW, "services": ["time-travel"]})
    assert unknown.status_code == 422
    assert admin.get("/api/console/providers").json()["items"] == []


def test_test_send_posts_a_sample_marked_as_a_test(admin, receiver):
    provider = admin.post("/api/console/providers", json={**NEW, "webhookUrl": receiver.url,
                                                          "webhookSecret": "s3cret-s3cret-s3cret"}).json()
    answer = admin.post(f"/api/console/providers/{provider['id']}/test-send")
    assert answer.status_code == 200, answer.text
    assert answer.json()["results"][0]["outcome"] == "delivered"
    (received,) = receiver.received
    assert received["body"]["type"] == "lead.test" and received["body"]["data"]["istest"] == "Y"
    assert set(received["body"]) == {"type", "timestamp", "data"}


def test_a_webhook_the_worker_paused_shows_as_paused(admin, app):
    provider = admin.post("/api/console/providers", json=NEW).json()
    with app.state.session_factory() as session:
        session.add(DeliveryEndpoint(key=f"webhook:{provider['id']}", consecutive_failures=5,
                                     paused_until=utcnow() + timedelta(minutes=5), updated_at=utcnow()))
        session.commit()
    (listed,) = admin.get("/api/console/providers").json()["items"]
    assert listed["paused"] is True
