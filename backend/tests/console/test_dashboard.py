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
    assert body["bySource"] == [{"key": "spring-sale", "count": 1}, {"key": "website", "count": 1}]
    delivery = body["delivery"]
    assert (delivery["total"], delivery["delivered"], delivery["successRate"]) == (2, 2, 1.0)
    assert delivery["p50Seconds"] is not None and delivery["p99Seconds"] >= delivery["p50Seconds"]
    only = admin.get("/api/console/dashboard", params={"source": "spring-sale"}).json()
    assert only["byService"] == [{"key": "hvac", "count": 1}]
    assert admin.get("/api/console/dashboard", params={"state": "CA"}).json()["byState"] == []


def test_a_scripted_walk_appears_in_the_funnel_exactly(admin, app):
    # Two visitors: one submits, one is disqualified at the form's second step (catalogue step 3);
    # a reload of a step is still one visitor.
    for kind, step in (("page_view", None), ("step_view", 2), ("step_complete", 2), ("step_view", 3),
                       ("step_view", 3), ("submitted", None)):
        post_event(admin, "tab-aaaaaaaa", kind, **({"step": step} if step else {}))
    service = app.state.catalog.find("auto-accident", "legal")
    field = next(f for f in service.fields if f.disqualifiers)
    for kind, extra in (("page_view", {}), ("step_view", {"step": 2}),
                        ("disqualified", {"step": field.step, "field": field.id, "answer": field.disqualifiers[0]})):
        post_event(admin, "tab-bbbbbbbb", kind, **extra)
    app.state.event_buffer.flush()
    (funnel,) = admin.get("/api/console/dashboard").json()["funnels"]
    assert funnel["service"] == "auto-accident" and funnel["submitted"] == 1
    page, first, second, third, *_, submitted = funnel["steps"]
    assert [(s["kind"], s["step"], s["number"], s["count"], s["dropOffPct"]) for s in (page, first, second, third)] == [
        ("page_view", 0, None, 2, 0.0), ("step", 2, 1, 2, 0.0), ("step", 3, 2, 1, 50.0), ("step", 4, 3, 0, 100.0)]
    assert (submitted["kind"], submitted["label"], submitted["count"]) == ("submitted", "Submitted", 1)
    assert funnel["disqualifications"] == [{"field": field.id, "label": field.label, "answer": field.disqualifiers[0],
                                            "step": 1, "count": 1}]


def _labels(admin, service: str) -> list[str]:
    (funnel,) = [f for f in admin.get("/api/console/dashboard").json()["funnels"] if f["service"] == service]
    return [s["label"] for s in funnel["steps"]]


def test_steps_are_numbered_and_named_as_the_visitor_sees_them(admin, app):
    """The form's first question is its step 1 (the catalogue numbers it 2), and the contact and
    phone steps (catalogue 98 and 99) are its last two, named by the questions they show."""
    for step in (2, 98, 99):
        post_event(admin, "tab-cccccccc", "step_view", service="hvac", vertical="services", step=step)
    app.state.event_buffer.flush()
    labels = _labels(admin, "hvac")
    assert labels == [
        "Page view",
        "Step 1 of 7: What do you need help with?",
        "Step 2 of 7: What type of system is it?",
        "Step 3 of 7: What type of property is this for?",
        "Step 4 of 7: When would you like the work done?",
        "Step 5 of 7: Anything else contractors should know? (optional)",
        "Step 6 of 7: First Name, Last Name, Email Address, Street Address, City, State, ZIP Code",
        "Step 7 of 7: Phone number",
        "Submitted",
    ]


def test_a_call_flows_steps_are_its_own_questions_from_step_1(admin, app):
    service = app.state.catalog.find("final-expense-ib", "insurance")
    post_event(admin, "tab-dddddddd", "step_view", service=service.id, vertical=service.vertical, routeType="call",
               step=1)
    app.state.event_buffer.flush()
    first = next(f for f in service.fields if f.step == 1)
    total = len({f.step for f in service.fields})
    assert _labels(admin, service.id)[1] == f"Step 1 of {total}: {first.label}"


def test_a_step_the_form_does_not_have_says_so(admin, app):
    post_event(admin, "tab-eeeeeeee", "step_view", service="hvac", vertical="services", step=50)
    app.state.event_buffer.flush()
    (funnel,) = admin.get("/api/console/dashboard").json()["funnels"]
    (odd,) = [s for s in funnel["steps"] if s["kind"] == "unknown"]
    assert (odd["step"], odd["count"], odd["dropOffPct"]) == (50, 1, None)
    assert odd["label"] == "Step not in the form now (event step 50)"
    assert funnel["steps"][-1]["kind"] == "submitted"


@pytest.mark.parametrize(("params", "field"), [({"from": "2026-13-01"}, "from"),
                                               ({"from": "2026-11-20", "to": "2026-11-01"}, "from"),
                                               ({"from": "2024-01-01", "to": "2026-01-01"}, "from")])
def test_bad_ranges_are_clear_422s(admin, params, field):
    answer = admin.get("/api/console/dashboard", params=params)
    assert answer.status_code == 422 and field in answer.json()["fields"]
