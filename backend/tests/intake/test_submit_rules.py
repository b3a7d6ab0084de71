"""POST /api/submit-form: every rule the server re-checks before it accepts a lead."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from servicematch.intake.models import Lead

from .payloads import field_with, form_services, lead_form_payload, today, with_answer, years_ago

FIX = "Please correct the highlighted fields."


def service(index, vertical: str, slug: str):
    found = index.find(slug, vertical)
    assert found is not None, f"{vertical}/{slug} is missing from the catalogue"
    return found


def refused(client, payload: dict, status: int = 422) -> dict:
    response = client.post("/api/submit-form", json=payload)
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error", "fields"}
    return body


def lead_count(app) -> int:
    with app.state.session_factory() as session:
        return session.scalar(select(func.count()).select_from(Lead))


def test_every_form_service_accepts_a_complete_lead(client, app, index):
    services = form_services(index)
    assert len(services) >= 20
    for each in services:
        payload = lead_form_payload(each)
        response = client.post("/api/submit-form", json=payload)
        assert response.status_code == 202, (each.id, response.text)
        assert response.json()["requestId"] == payload["requestId"]
    assert lead_count(app) == len(services)


def test_unknown_service_is_service_not_found(client, index):
    payload = lead_form_payload(service(index, "services", "hvac"))
    payload["consumer"]["category"] = "Chimney Sweeping"
    body = refused(client, payload, 404)
    assert body["error"] == "Service Not Found"


def test_cid_must_match_the_service(client, index):
    payload = lead_form_payload(service(index, "services", "hvac"))
    payload["cid"] = 847
    assert refused(client, payload)["fields"] == {"cid": "This service's campaign id is 640"}


@pytest.mark.parametrize("key", ["first", "last", "email", "phone", "address1", "city", "state", "zip"])
def test_each_required_base_field_must_be_filled_after_trimming(client, index, key):
    payload = with_answer(lead_form_payload(service(index, "services", "roofing")), key, "   ")
    body = refused(client, payload)
    assert body == {"error": FIX, "fields": {key: "This field is required"}}


def test_required_questionnaire_answers_must_be_present(client, index):
    roofing = service(index, "services", "roofing")
    question = next(d for d in roofing.fields if d.required)
    payload = lead_form_payload(roofing)
    del payload["consumer"][question.mapping]
    del payload["customquestions"][question.mapping]
    assert refused(client, payload)["fields"] == {question.id: "This field is required"}


@pytest.mark.parametrize(("key", "value", "message"), [
    ("email", "maria@example", "Invalid email format"),
    ("phone", "512555", "Phone number must be at least 10 digits"),
    ("phone", "1235550142", "Invalid phone number"),
    ("zip", "7870", "ZIP code must be exactly 5 digits"),
    ("zip", "78701-1234", "ZIP code must be exactly 5 digits"),
    ("state", "PR", "Please choose one of the listed options"),
    ("state", "tx", "Please choose one of the listed options"),
])
def test_contact_details_follow_the_validation_rules(client, index, key, value, message):
    payload = with_answer(lead_form_payload(service(index, "services", "gutters")), key, value)
    assert refused(client, payload)["fields"] == {key: message}


def test_a_washington_dc_address_is_accepted(client, index):
    payload = lead_form_payload(service(index, "services", "roofing"), address1="1600 Pennsylvania Ave NW",
                                city="Washington", state="DC", zip="20500")
    assert client.post("/api/submit-form", json=payload).status_code == 202


@pytest.mark.parametrize(("state", "zip_code", "message"), [
    ("TX", "90210", "90210 is in California, not Texas"),
    ("VA", "20500", "20500 is in District of Columbia, not Virginia"),
])
def test_a_zip_outside_its_state_is_refused_with_where_it_is(client, index, state, zip_code, message):
    payload = lead_form_payload(service(index, "services", "gutters"), state=state, zip=zip_code)
    assert refused(client, payload) == {"error": FIX, "fields": {"zip": message}}


def test_a_choice_must_be_one_of_its_options(client, index):
    hvac = service(index, "services", "hvac")
    question = next(d for d in hvac.fields if d.options)
    payload = with_answer(lead_form_payload(hvac), question.mapping, "Something invented")
    assert refused(client, payload)["fields"] == {question.id: "Please choose one of the listed options"}


@pytest.mark.parametrize("value", ["2024-02-30", "02/03/2024", "next week", "2999-01-01"])
def test_dates_must_be_real_and_not_in_the_future(client, index, value):
    accident = service(index, "legal", "auto-accident")
    question = next(d for d in accident.fields if d.type == "date")
    payload = with_answer(lead_form_payload(accident), question.mapping, value)
    assert refused(client, payload)["fields"] == {question.id: "Please choose a real date"}


def test_every_disqualifying_answer_is_refused_with_the_spec_sentence(client, index):
    checked = 0
    for each in form_services(index):
        for question in each.fields:
            for option in question.disqualifiers:
                payload = with_answer(lead_form_payload(each), question.mapping, option)
                body = refused(client, payload)
                sentence = (
                    f'Based on your selection of "{option}" to the previous question, we don\'t have any '
                    "providers who are able to assist you at this time. Please contact a local provider "
                    "for more information."
                )
                assert body == {"error": sentence, "fields": {question.id: sentence}}
                checked += 1
    assert checked >= 8


def test_answers_like_a_disqualifier_but_not_one_are_accepted(client, index):
    accident = service(index, "legal", "auto-accident")
    question = next(d for d in accident.fields if "Yes" in d.disqualifiers and len(d.options or []) > 2)
    cited = next(option for option in question.options if option.startswith("Yes, I was cited"))
    payload = with_answer(lead_form_payload(accident), question.mapping, cited)
    assert client.post("/api/submit-form", json=payload).status_code == 202


def test_under_18_is_always_refused(client, index):
    ssdi = service(index, "insurance", "ssdi")
    payload = with_answer(lead_form_payload(ssdi), "dob", years_ago(17, days=-1))
    body = refused(client, payload)
    assert body == {"error": "You must be at least 18 years old to submit a request.",
                    "fields": {"date_of_birth": "You must be at least 18 years old to submit a request."}}


def test_an_adult_birth_date_is_accepted(client, index):
    payload = with_answer(lead_form_payload(service(index, "insurance", "ssdi")), "dob", years_ago(18))
    assert client.post("/api/submit-form", json=payload).status_code == 202


def test_questions_the_service_does_not_ask_are_refused(client, index):
    gutters = service(index, "services", "gutters")
    asked = {d.mapping for d in gutters.fields}
    extra = next(key for key in ("cq6", "cq10", "cq5") if key not in asked)
    payload = with_answer(lead_form_payload(gutters), extra, "anything")
    fields = refused(client, payload)["fields"]
    assert fields[extra] == "This is not a question of this service"


def test_customquestions_must_repeat_the_consumer_answers(client, index):
    hvac = service(index, "services", "hvac")
    payload = lead_form_payload(hvac)
    question = next(d for d in hvac.fields if d.options)
    other = next(option for option in question.options if option != payload["consumer"][question.mapping])
    payload["customquestions"][question.mapping] = other
    assert refused(client, payload)["fields"] == {
        f"customquestions.{question.mapping}": "Must repeat the consumer's answer"
    }


@pytest.mark.parametrize(("years", "offset"), [
    ("Less than 1 Year", 0), ("1 Year", 1), ("2 Years", 2), ("3 Years", 3), ("4 Years", 4), ("5 Years", 5),
])
def test_cid_847_cq20_is_derived_from_cq1_by_the_server(client, app, index, years, offset):
    workers_comp = service(index, "legal", "workers-comp")
    assert years in field_with(workers_comp, mapping="cq1").options
    payload = with_answer(lead_form_payload(workers_comp), "cq1", years)
    payload["consumer"]["cq20"] = "1999"
    payload["customquestions"]["cq20"] = "1999"
    lead_id = client.post("/api/submit-form", json=payload).json()["leadId"]
    with app.state.session_factory() as session:
        assert session.get(Lead, lead_id).answers["cq20"] == str(today().year - offset)


def test_cid_847_cq20_is_empty_for_any_other_cq1(client, app, index):
    workers_comp = service(index, "legal", "workers-comp")
    payload = with_answer(lead_form_payload(workers_comp), "cq1", "More than 5 Years")
    lead_id = client.post("/api/submit-form", json=payload).json()["leadId"]
    with app.state.session_factory() as session:
        assert session.get(Lead, lead_id).answers["cq20"] == ""


@pytest.mark.parametrize(("path", "value", "field"), [
    ("pid", 17, "pid"),
    ("pid", "16", "pid"),
    ("sid", "143x", "sid"),
    # The documented cid, but as a string: pydantic's lax mode took it as 640.
    ("cid", "640", "cid"),
    ("cid", 640.5, "cid"),
    ("cid", True, "cid"),
    # Past the cid column (a 32-bit INTEGER): refused as a shape, whatever the catalogue holds.
    ("cid", 2**31, "cid"),
    ("cid", 2**64, "cid"),
    ("istest", "maybe", "istest"),
    ("requestId", "short", "requestId"),
    ("requestId", "../../etc/passwd", "requestId"),
    ("consumer.first", ["Maria"], "consumer.first"),
    ("consumer.source", "facebook", "consumer.source"),
    ("consumer.nickname", "Mo", "consumer.nickname"),
    ("click.referrer", "x", "click.referrer"),
    ("surprise", True, "surprise"),
])
def test_wrong_types_and_unknown_keys_are_422(client, index, path, value, field):
    payload = lead_form_payload(service(index, "services", "hvac"))
    *parents, leaf = path.split(".")
    target = payload
    for parent in parents:
        target = target[parent]
    target[leaf] = value
    body = refused(client, payload)
    assert field in body["fields"]



def test_the_documented_cid_as_a_string_is_a_wrong_type_and_nothing_is_stored(client, app, index):
    payload = lead_form_payload(service(index, "services", "hvac"))
    payload["cid"] = str(payload["cid"])
    body = refused(client, payload)
    assert body["error"] == "The request is not valid."
    assert list(body["fields"]) == ["cid"] and "integer" in body["fields"]["cid"]
    with app.state.session_factory() as session:
        assert session.scalar(select(func.count()).select_from(Lead)) == 0


def test_malformed_json_and_oversized_bodies_are_4xx(client):
    response = client.post("/api/submit-form", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 422
    response = client.post("/api/submit-form", content=b"{" + b" " * 70_000 + b"}",
                           headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert response.json()["error"] == "The request body is too large."
