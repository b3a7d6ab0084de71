"""Applying to join: the form's options, validation naming each field, the confirmation link, the limit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from portal_support import body
from sqlalchemy import select, update

from servicematch.kernel.clock import utcnow
from servicematch.portal.models import ApplicationStatus, PortalToken, ProviderApplication

APPLICATION = {"businessName": "Cool Air LLC", "contactName": "Ana Ruiz", "email": "Ana@CoolAir.example",
               "phone": "(512) 555-0142", "services": ["services/hvac", "services/roofing"], "zips": ["78701", "78702"],
               "radiusMiles": 25, "states": [], "licenceNumber": "TACLA12345C", "licenceState": "tx"}


def _stored(app) -> list[ProviderApplication]:
    with app.state.session_factory() as session:
        return list(session.scalars(select(ProviderApplication)))


def test_the_form_lists_every_service_with_its_licence_and_every_state(client):
    options = client.get("/api/partner/services").json()
    services = {s["id"]: s for s in options["services"]}
    assert services["services/hvac"]["licence"] == "HVAC contractor licence"
    assert services["services/roofing"]["licence"] is None
    assert services["legal/debt-relief"]["licence"] == "State bar licence"
    assert services["financial/debt-relief"]["licence"] is None
    assert services["insurance/ssdi"]["licence"] is None and services["insurance/auto"]["licence"]
    assert services["services/hvac"]["verticalName"] == "Home Services"
    assert len(options["states"]) == 51 and {"value": "DC", "label": "District of Columbia"} in options["states"]


def test_an_application_is_stored_unconfirmed_and_its_address_is_mailed_a_link(client, app, mailbox):
    answer = client.post("/api/partner/applications", json=APPLICATION)
    assert answer.status_code == 202, answer.text
    assert "ana@coolair.example" in answer.json()["message"]
    [stored] = _stored(app)
    assert (stored.status, stored.email, stored.phone, stored.services, stored.zips, stored.radius_miles,
            stored.licence_state) == (ApplicationStatus.UNCONFIRMED, "ana@coolair.example", "5125550142",
                                      ["services/hvac", "services/roofing"], ["78701", "78702"], 25.0, "TX")
    text = body(mailbox.wait_for("ana@coolair.example")[-1])
    # The token is in the link's fragment, which browsers never send to a server.
    assert "https://servicematch.example/pro/confirm-email#" in text
    token = mailbox.token("ana@coolair.example", "confirm-email")
    with app.state.session_factory() as session:
        assert token not in {row.token_hash for row in session.scalars(select(PortalToken))}


def test_confirming_sends_the_application_for_review_once(client, app, mailbox):
    client.post("/api/partner/applications", json=APPLICATION)
    token = mailbox.token("ana@coolair.example", "confirm-email")
    confirmed = client.post("/api/partner/applications/confirm", json={"token": token})
    assert confirmed.status_code == 200 and "confirmed" in confirmed.json()["message"]
    assert _stored(app)[0].status == ApplicationStatus.PENDING
    again = client.post("/api/partner/applications/confirm", json={"token": token})
    assert again.status_code == 410 and again.json()["fields"] == {"token": "This link has expired or was used already."}
    assert client.post("/api/partner/applications/confirm", json={"token": "made-up"}).status_code == 410


def test_an_expired_confirmation_link_is_refused(client, app, mailbox):
    client.post("/api/partner/applications", json=APPLICATION)
    token = mailbox.token("ana@coolair.example", "confirm-email")
    with app.state.session_factory() as session:
        session.execute(update(PortalToken).values(expires_at=utcnow() - timedelta(seconds=1)))
        session.commit()
    assert client.post("/api/partner/applications/confirm", json={"token": token}).status_code == 410
    assert _stored(app)[0].status == ApplicationStatus.UNCONFIRMED


def test_an_empty_application_names_every_missing_field(client, app):
    answer = client.post("/api/partner/applications", json={})
    assert answer.status_code == 422
    assert set(answer.json()["fields"]) == {"businessName", "contactName", "email", "phone", "services", "zips"}
    assert _stored(app) == []


@pytest.mark.parametrize(("change", "field"), [
    ({"email": "ana@"}, "email"),
    ({"phone": "555-0142"}, "phone"),
    ({"phone": "(123) 555-0142"}, "phone"),
    ({"services": ["services/hvac", "plumbing"]}, "services"),
    ({"services": []}, "services"),
    ({"zips": ["7870"]}, "zips"),
    ({"zips": ["00000"]}, "zips"),
    ({"states": ["TX"]}, "states"),
    ({"zips": [], "radiusMiles": None, "states": ["TX", "XX"]}, "states"),
    ({"zips": [], "states": ["TX"]}, "radiusMiles"),
    ({"radiusMiles": 0}, "radiusMiles"),
    ({"licenceNumber": ""}, "licenceNumber"),
    ({"licenceNumber": "<script>"}, "licenceNumber"),
    ({"licenceState": "ZZ"}, "licenceState"),
    ({"services": ["legal/bankruptcy"], "licenceNumber": None, "licenceState": None}, "licenceNumber"),
    ({"businessName": "Cool\nAir"}, "businessName"),
    ({"contactName": "   "}, "contactName"),
], ids=["email", "short-phone", "bad-area-code", "unknown-service", "no-service", "zip-digits", "unknown-zip",
        "zips-and-states", "unknown-state", "radius-without-zips", "zero-radius", "licence-missing",
        "licence-characters", "licence-state", "bar-licence-missing", "line-break", "blank-name"])
def test_each_bad_answer_is_a_422_naming_its_field(client, app, change, field):
    answer = client.post("/api/partner/applications", json={**APPLICATION, **change})
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"], answer.json()
    assert _stored(app) == []


def test_states_alone_dc_included_and_services_without_a_licence_need_none(client, app):
    answer = client.post("/api/partner/applications", json={
        **APPLICATION, "services": ["roofing", "services/gutters"], "zips": [], "radiusMiles": None,
        "states": ["dc", "md"], "licenceNumber": None, "licenceState": None})
    assert answer.status_code == 202, answer.text
    [stored] = _stored(app)
    assert (stored.services, stored.states, stored.zips, stored.licence_number) == (
        ["services/roofing", "services/gutters"], ["DC", "MD"], [], None)


@pytest.mark.parametrize("payload", [[], "text", {"services": "hvac"}, {"zips": [1, 2]}, {"radiusMiles": "far"},
                                     {"unexpected": 1}, {"email": "a" * 300}],
                         ids=["list", "string", "services-not-a-list", "zips-not-strings", "radius-not-a-number",
                              "unknown-field", "long-email"])
def test_malformed_bodies_are_a_clear_4xx_never_a_5xx(client, payload):
    answer = client.post("/api/partner/applications", json=payload)
    assert answer.status_code == 422 and answer.json()["error"]


def test_applications_are_limited_per_address(app, client):
    app.state.partner_apply_limiter.limit = 2
    statuses = [client.post("/api/partner/applications", json=APPLICATION).status_code for _ in range(3)]
    assert statuses == [202, 202, 429]
