"""POST /api/call-submit: the call flow's answers get the same checks and the same storage."""

from __future__ import annotations

import pytest

from servicematch.delivery.models import Provider
from servicematch.delivery.outbox import matched_provider_names
from servicematch.intake.models import Lead
from servicematch.intake.payload import decrypt_personal_data
from servicematch.routing.stage import route_pending

from .payloads import call_flow_payload, call_services, lead_form_payload, years_ago


@pytest.fixture
def final_expense(index):
    found = index.find("final-expense-ib", "insurance")
    assert found is not None and found.flow == "call"
    return found


def submit(client, payload: dict):
    return client.post("/api/call-submit", json=payload)


def test_every_call_service_accepts_complete_answers(client, index):
    services = call_services(index)
    assert services
    for each in services:
        response = submit(client, call_flow_payload(each))
        assert response.status_code == 202, (each.id, response.text)


def test_contact_details_are_stored_encrypted_and_choices_by_mapping(client, app, settings, final_expense):
    payload = call_flow_payload(final_expense, address="500 Congress Ave, Austin, TX 78701",
                                phone_number="(512) 555-0199")
    lead_id = submit(client, payload).json()["leadId"]
    with app.state.session_factory() as session:
        lead = session.get(Lead, lead_id)
        personal = decrypt_personal_data(lead=lead, settings=settings)
    assert lead.flow == "call" and lead.service == "final-expense-ib" and lead.state == "TX"
    assert personal["contact"] == {
        "first": "Ann", "last": "Lee", "email": "ann.lee@example.com", "phone": "5125550199",
        "address1": "500 Congress Ave", "address2": "", "city": "Austin", "state": "TX", "zip": "78701",
    }
    dob = next(d for d in final_expense.fields if d.mapping == "dob")
    assert personal["answers"] == {"dob": payload["answers"][dob.id]}
    age = next(d for d in final_expense.fields if d.mapping == "cq1")
    assert lead.answers["cq1"] == payload["answers"][age.id]


def test_unknown_service_or_a_form_service_is_not_found(client, index, final_expense):
    payload = call_flow_payload(final_expense)
    assert submit(client, {**payload, "service": "time-travel"}).status_code == 404
    response = submit(client, {**payload, "vertical": "services", "service": "hvac"})
    assert response.status_code == 404
    assert response.json()["error"] == "Service Not Found"


@pytest.mark.parametrize(("years", "days"), [(49, 0), (76, 0), (30, 0)])
def test_an_age_outside_the_fields_bounds_gets_the_age_sentence(client, final_expense, years, days):
    dob = next(d for d in final_expense.fields if d.dateValidation)
    response = submit(client, call_flow_payload(final_expense, **{dob.id: years_ago(years, days=days)}))
    assert response.status_code == 422
    bounds = dob.dateValidation
    sentence = f"Based on your age ({years}), you do not meet our requirements of {bounds.minAge}-{bounds.maxAge} years old."
    assert response.json() == {"error": sentence, "fields": {dob.id: sentence}}


def test_the_age_bounds_are_inclusive(client, final_expense):
    dob = next(d for d in final_expense.fields if d.dateValidation)
    for years in (dob.dateValidation.minAge, dob.dateValidation.maxAge):
        response = submit(client, call_flow_payload(final_expense, **{dob.id: years_ago(years)}))
        assert response.status_code == 202, response.text


def test_a_disqualifying_choice_is_refused(client, final_expense):
    question = next(d for d in final_expense.fields if d.disqualifiers)
    option = question.disqualifiers[0]
    response = submit(client, call_flow_payload(final_expense, **{question.id: option}))
    assert response.status_code == 422
    assert response.json()["error"].startswith(f'Based on your selection of "{option}"')


def test_answers_are_checked_like_the_form(client, final_expense):
    email = next(d for d in final_expense.fields if d.type == "email")
    phone = next(d for d in final_expense.fields if d.type == "tel")
    address = next(d for d in final_expense.fields if d.type == "address")
    required = next(d for d in final_expense.fields if d.required and d.type == "text")
    payload = call_flow_payload(final_expense, **{
        email.id: "ann@", phone.id: "555", address.id: "somewhere", required.id: " ", "favourite_colour": "blue",
    })
    response = submit(client, payload)
    assert response.status_code == 422
    assert response.json() == {"error": "Please correct the highlighted fields.", "fields": {
        email.id: "Invalid email format",
        phone.id: "Phone number must be at least 10 digits",
        address.id: "Please enter a full street address with city and state",
        required.id: "This field is required",
        "favourite_colour": "This is not a question of this service",
    }}


def test_an_address_whose_zip_is_in_another_state_is_refused(client, final_expense):
    address = next(d for d in final_expense.fields if d.type == "address")
    response = submit(client, call_flow_payload(final_expense, **{address.id: "500 Congress Ave, Austin, TX 90210"}))
    assert response.status_code == 422
    assert response.json()["fields"] == {address.id: "90210 is in California, not Texas"}


def test_a_washington_dc_address_is_accepted(client, final_expense):
    address = next(d for d in final_expense.fields if d.type == "address")
    payload = call_flow_payload(final_expense, **{address.id: "1600 Pennsylvania Ave NW, Washington, DC 20500"})
    assert submit(client, payload).status_code == 202


def test_an_optional_question_may_be_left_out(client, final_expense):
    optional = next(d for d in final_expense.fields if not d.required)
    payload = call_flow_payload(final_expense)
    del payload["answers"][optional.id]
    assert submit(client, payload).status_code == 202


@pytest.fixture
def providers(app):
    """Providers for the final-expense call flow and for HVAC, both serving all of Texas."""
    with app.state.session_factory() as session:
        for name, service in (("Lone Star Cover", "final-expense-ib"), ("Austin Assurance", "final-expense-ib"),
                              ("Cool Air", "hvac")):
            session.add(Provider(name=name, contact_email=f"{service}@example.com", services=[service],
                                 states=["TX"], zips=[], active=True))
        session.commit()


def routed_providers(app, lead_id: str) -> list[str]:
    """Route the accepted leads as the worker does after the answer; the providers this lead got."""
    route_pending(session_factory=app.state.session_factory, settings=app.state.settings)
    with app.state.session_factory() as session:
        return matched_provider_names(session=session, lead_id=lead_id)


def test_the_answer_comes_before_routing_which_then_matches_the_providers(app, client, final_expense, providers):
    payload = call_flow_payload(final_expense, address="500 Congress Ave, Austin, TX 78701",
                                phone_number="(512) 555-0166")
    response = submit(client, payload)
    assert response.status_code == 202
    assert response.json()["providers"] == []  # decided after the answer, by routing
    # A replay answers as the first request was answered.
    assert submit(client, payload).json() == response.json()
    assert routed_providers(app, response.json()["leadId"]) == ["Austin Assurance", "Lone Star Cover"]


def test_a_form_lead_gets_its_provider_and_its_duplicate_none(app, client, index, providers):
    first = lead_form_payload(index.find("hvac", "services"))
    response = client.post("/api/submit-form", json=first)
    assert response.status_code == 202
    assert routed_providers(app, response.json()["leadId"]) == ["Cool Air"]

    again = {**lead_form_payload(index.find("hvac", "services")), "requestId": "a-later-request"}
    duplicate = client.post("/api/submit-form", json=again).json()["leadId"]
    assert routed_providers(app, duplicate) == []  # same phone: a duplicate


def test_a_lead_no_provider_serves_names_none(client, final_expense):
    response = submit(client, call_flow_payload(final_expense))
    assert response.status_code == 202 and response.json()["providers"] == []
