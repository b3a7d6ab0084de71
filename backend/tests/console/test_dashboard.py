"""The dashboard's counts: leads by day, vertical, service, state and source; funnels; delivery health."""

from __future__ import annotations

import pytest
from console_api_support import hvac_payload, post_event


def test_leads_are_counted_by_day_vertical_service_state_and_source(admin, app, receiver, worker):
    catalog = app.state.catalog
    admin.post("/api/submit-form", json=hvac_payload(catalog, subid1="spring-sale"))
    admin.post("/api/submit-form", json=hvac_payload(catalog, phone="5125550177", subid1=""))
    worker.run_until_idle()
    body = admin.get("/api/console/dashboard").json()
    today = body["range"]["to"]
    assert body["leadsPerDay"][-1] == {"day": today, "total": 2, "byVertical": {"services": 2}}
    assert len(body["leadsPerDay"]) == 30 and body["leadsPerDay"][0]["total"] == 0
    assert body["byVertical"] == [{"key": "services", "count": 2}]
    assert body["byService"] == [{"key": "hvac", "count": 2}]
    assert body["byState"] == [{"key": "TX", "count": 2}]
    assert body["bySource"] == [{"key": "direct", "count": 1}, {"key": "spring-sale", "count": 1}]
    delivery = body["delivery"]
    assert (delivery["total"], delivery["delivered"], delivery["successRate"]) == (2, 2, 1.0)
    assert delivery["p50Seconds"] is not None and delivery["p99Seconds"] >= delivery["p50Seconds"]
    only = admin.get("/api/console/dashboard", params={"source": "spring-sale"}).json()
    assert only["byService"] == [{"key": "hvac", "count": 1}]
    assert admin.get("/api/console/dashboard", params={"state": "CA"}).json()["byState"] == []


def test_a_scripted_walk_appears_in_the_funnel_exactly(admin, app):
    # Two visitors: one submits, one is disqualified at step 2; a reload of step 2 is still one visitor.
    for kind, step in (("page_view", None), ("step_view", 1), ("step_complete", 1), ("step_view", 2),
                       ("step_view", 2), ("submitted", None)):
        post_event(admin, "tab-aaaaaaaa", kind, **({"step": step} if step else {}))
    service = app.state.catalog.find("auto-accident", "legal")
    field = next(f for f in service.fields if f.disqualifiers)
    for kind, extra in (("page_view", {}), ("step_view", {"step": 1}),
                        ("disqualified", {"field": field.id, "answer": field.disqualifiers[0]})):
        post_event(admin, "tab-bbbbbbbb", kind, **extra)
    app.state.event_buffer.flush()
    (funnel,) = admin.get("/api/console/dashboard").json()["funnels"]
    assert funnel["service"] == "auto-accident" and funnel["submitted"] == 1
    assert [(s["step"], s["count"], s["dropOffPct"]) for s in funnel["steps"]] == [
        (0, 2, 0.0), (1, 2, 0.0), (2, 1, 50.0), (3, 1, 0.0)]
    assert funnel["steps"][-1]["label"] == "Submitted"
    assert funnel["disqualifications"] == [{"field": field.id, "answer": field.disqualifiers[0], "count": 1}]


def test_the_contact_steps_are_named_by_the_site_wide_questions_they_show(admin, app):
    for step in (98, 99):
        post_event(admin, "tab-cccccccc", "step_view", step=step)
    app.state.event_buffer.flush()
    (funnel,) = admin.get("/api/console/dashboard").json()["funnels"]
    labels = {s["step"]: s["label"] for s in funnel["steps"]}
    assert labels[98] == "Step 98: First Name"
    assert labels[99].startswith("Step 99: Phone")


@pytest.mark.parametrize(("params", "field"), [({"from": "2026-13-01"}, "from"),
                                               ({"from": "2026-11-20", "to": "2026-11-01"}, "from"),
                                               ({"from": "2024-01-01", "to": "2026-01-01"}, "from")])
def test_bad_ranges_are_clear_422s(admin, params, field):
    answer = admin.get("/api/console/dashboard", params=params)
    assert answer.status_code == 422 and field in answer.json()["fields"]
