"""Rights requests: a code proves the e-mail; access, delete, opt out and correct do what they say."""

from __future__ import annotations

from datetime import timedelta

import pytest
from privacy_support import (
    CONTACT,
    code_in,
    database_dump,
    deliveries,
    text_of,
    wait_for_mail,
)
from sqlalchemy import select

from servicematch.delivery.models import DeliveryStatus
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.kernel.clock import utcnow
from servicematch.privacy.models import PrivacyRequest
from servicematch.privacy.requests import verify_request


def _start(client, smtp, kind: str, address: str = CONTACT["email"], **extra) -> tuple[str, str]:
    """Start a request and read its code from the real mailbox: (request id, code)."""
    before = len([m for m in smtp.messages if address in m[0]])
    started = client.post("/api/privacy/requests", json={"kind": kind, "email": address, **extra})
    assert started.status_code == 202, started.text
    message = wait_for_mail(smtp, address, before + 1)[-1]
    return started.json()["requestId"], code_in(message)


def _verify(client, request_id: str, code: str):
    return client.post(f"/api/privacy/requests/{request_id}/verify", json={"code": code})


def _sent(worker, clock) -> None:
    worker.run_until_idle()
    clock.advance(seconds=1)


def test_access_shows_every_lead_answer_consent_and_delivery_and_is_limited_to_twice_a_year(
        app, client, make_lead, providers, worker, clock, smtp) -> None:
    lead = make_lead()
    _sent(worker, clock)
    request_id, code = _start(client, smtp, "access")
    answer = _verify(client, request_id, code)
    assert answer.status_code == 200, answer.text
    (held,) = answer.json()["report"]["leads"]
    assert held["requestId"] == lead.request_id and held["contact"]["email"] == CONTACT["email"]
    assert held["answers"]["cq1"] == "Replace an existing system"
    # In words, as the form asked: the field labels of the catalogue, not the stored keys.
    hvac = app.state.catalog.find("hvac", "services")
    cq1 = next(f.label for f in hvac.fields if f.mapping == "cq1")
    in_words = {item["question"]: item["answer"] for item in held["inWords"]}
    assert in_words["Street Address"] == CONTACT["address1"]
    assert in_words[cq1] == "Replace an existing system"
    assert not {"address1", "cq1"} & set(in_words)
    assert held["consent"]["text"] and held["consent"]["ipAddress"] == "203.0.113.7"
    received = {(d["recipient"], d["status"]) for d in held["deliveries"] if d["what"] == "lead"}
    assert ("Acme Home Quotes LLC", "delivered") in received and ("Cool Air", "delivered") in received
    assert all(d["receivedAt"] for d in held["deliveries"] if d["status"] == "delivered")
    with app.state.session_factory() as session:
        record = session.get(PrivacyRequest, request_id)
        assert record.verified_at and record.closed_at and record.outcome == "fulfilled"
        assert (record.due_at - record.received_at) == timedelta(days=45)

    second_id, second_code = _start(client, smtp, "access")
    assert _verify(client, second_id, second_code).status_code == 200
    third_id, third_code = _start(client, smtp, "access")
    third = _verify(client, third_id, third_code)
    assert third.status_code == 429 and "2 times in the last 12 months" in third.json()["error"]
    with app.state.session_factory() as session:
        assert session.get(PrivacyRequest, third_id).outcome.startswith("refused")


def test_the_code_e_mail_says_which_request_it_confirms(client, smtp) -> None:
    before = len([m for m in smtp.messages if CONTACT["email"] in m[0]])
    started = client.post("/api/privacy/requests", json={"kind": "delete", "email": CONTACT["email"]})
    message = text_of(wait_for_mail(smtp, CONTACT["email"], before + 1)[-1])
    assert f"It confirms your request to delete your data (request {started.json()['requestId']}, made " in message


def test_delete_leaves_no_email_phone_name_or_address_even_with_the_data_key(
        app, client, make_lead, providers, worker, clock, smtp, buyer, provider_hook, settings) -> None:
    lead = make_lead(phone="5125550199")
    _sent(worker, clock)
    request_id, code = _start(client, smtp, "delete")
    assert _verify(client, request_id, code).status_code == 200
    _sent(worker, clock)

    with app.state.session_factory() as session:
        dump = database_dump(session, settings)
        consent = session.scalar(select(ConsentRecord).where(ConsentRecord.lead_id == lead.id))
        stored = session.get(Lead, lead.id)
    for personal in (CONTACT["email"], "5125550199", "555-0199", CONTACT["first"], CONTACT["last"],
                     CONTACT["address1"], CONTACT["address2"], "78701", "203.0.113.7", "pytest"):
        assert personal not in dump, personal
    # The consent proof stays, reduced to what proves consent: text, digest, time, page, phone hash.
    assert consent.consent_text and consent.consent_text_sha256 and consent.consented_at
    assert consent.page_url == "http://127.0.0.1:8000/services/hvac" and stored.phone_hash
    deleted = [r.json for r in buyer.requests + provider_hook.requests if r.json.get("type") == "lead.deleted"]
    assert len(deleted) == 2 and {d["data"]["requestId"] for d in deleted} == {lead.request_id}


def test_opt_out_stops_sale_of_every_lead_now_and_later(app, client, make_lead, providers, worker, clock,
                                                       smtp, buyer) -> None:
    waiting = make_lead()  # its buyer delivery has not gone out yet
    request_id, code = _start(client, smtp, "opt_out")
    assert _verify(client, request_id, code).status_code == 200
    later = make_lead()
    _sent(worker, clock)
    assert [r for r in buyer.requests if r.json.get("requestId") in (waiting.request_id, later.request_id)] == []
    for lead in (waiting, later):
        (to_buyer,) = [d for d in deliveries(app.state.session_factory, lead.id, "lead") if d.kind == "buyer"]
        assert to_buyer.status == DeliveryStatus.SKIPPED and "opted out" in to_buyer.last_error
    with app.state.session_factory() as session:
        assert session.get(Lead, later.id).do_not_sell is True
    # Providers the person asked to be matched with still get the request.
    assert any(d.status == DeliveryStatus.DELIVERED
               for d in deliveries(app.state.session_factory, later.id, "lead") if d.kind != "buyer")


def test_a_correction_is_recorded_encrypted_and_forwarded_to_every_recipient(
        app, client, make_lead, providers, worker, clock, smtp, buyer, provider_hook, settings) -> None:
    make_lead()
    _sent(worker, clock)
    request_id, code = _start(client, smtp, "correct", correction="My last name is Garcia-Lopez.")
    assert _verify(client, request_id, code).status_code == 200
    _sent(worker, clock)
    forwarded = [r.json for r in buyer.requests + provider_hook.requests if r.json.get("type") == "lead.corrected"]
    assert len(forwarded) == 2 and all(f["data"]["correction"] == "My last name is Garcia-Lopez." for f in forwarded)
    mailed = wait_for_mail(smtp, "office@lonestar.example", 2)[-1]
    assert "Garcia-Lopez" in text_of(mailed)
    with app.state.session_factory() as session:
        assert b"Garcia-Lopez" not in session.get(PrivacyRequest, request_id).details


def test_an_unknown_address_gets_the_same_answers_and_the_same_work(app, client, make_lead, smtp,
                                                                   raw_engine) -> None:
    make_lead()
    from sqlalchemy import event

    statements: list[str] = []
    engine = app.state.engine

    def record(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    answers = {}
    work = {}
    for who, address in (("known", CONTACT["email"]), ("unknown", "nobody.here@example.com")):
        statements.clear()
        event.listen(engine, "before_cursor_execute", record)
        try:
            started = client.post("/api/privacy/requests", json={"kind": "delete", "email": address})
        finally:
            event.remove(engine, "before_cursor_execute", record)
        work[who] = list(statements)
        body = started.json()
        answers[who] = (started.status_code, sorted(body), body["message"].replace(address, "<address>"))
        request_id, code = body["requestId"], code_in(wait_for_mail(smtp, address)[-1])
        done = _verify(client, request_id, code)
        answers[who] += (done.status_code, done.json()["message"])
    assert answers["known"] == answers["unknown"]
    assert work["known"] == work["unknown"]  # the request does the same statements either way
    # By phone: a known number's code goes to the e-mail on file; an unknown one's nowhere, same answer.
    by_phone = [client.post("/api/privacy/requests", json={"kind": "stop", "phone": phone})
                for phone in ("(512) 555-1000", "(512) 555-9999")]
    assert [a.status_code for a in by_phone] == [202, 202]
    assert by_phone[0].json()["message"] == by_phone[1].json()["message"]


def test_wrong_spent_expired_and_reused_codes_are_refused_with_a_clear_message(
        app, client, make_lead, smtp, settings) -> None:
    make_lead()
    request_id, code = _start(client, smtp, "opt_out")
    wrong = _verify(client, request_id, "000000" if code != "000000" else "111111")
    assert wrong.status_code == 400 and "not right" in wrong.json()["fields"]["code"]
    assert _verify(client, request_id, code).status_code == 200
    reused = _verify(client, request_id, code)
    assert reused.status_code == 410 and "can no longer be used" in reused.json()["error"]

    expiring_id, expiring_code = _start(client, smtp, "access")
    late = utcnow() + timedelta(minutes=16)
    try:
        verify_request(session_factory=app.state.session_factory, settings=settings, request_id=expiring_id,
                       code=expiring_code, now=late)
    except Exception as refused:  # noqa: BLE001 - the refusal is what is checked
        assert "can no longer be used" in str(refused)
    else:
        raise AssertionError("an expired code was accepted")

    guessed_id, guessed_code = _start(client, smtp, "delete", address="guess.me@example.com")
    for _ in range(5):
        _verify(client, guessed_id, "999999" if guessed_code != "999999" else "888888")
    spent = _verify(client, guessed_id, guessed_code)  # right, but after five wrong tries
    assert spent.status_code == 410


def test_codes_for_one_contact_are_throttled_and_bad_input_gets_a_clear_422(client, smtp) -> None:
    for _ in range(3):
        assert client.post("/api/privacy/requests", json={"kind": "access", "email": "a@example.com"}).status_code == 202
    throttled = client.post("/api/privacy/requests", json={"kind": "access", "email": "A@example.com "})
    assert throttled.status_code == 429 and "15 minutes" in throttled.json()["error"]
    assert throttled.headers["Retry-After"]
    for body, field in (({"kind": "access", "email": "not-an-email"}, "email"),
                        ({"kind": "access"}, "email"),
                        ({"kind": "access", "phone": "12"}, "phone"),
                        ({"kind": "correct", "email": "b@example.com"}, "correction"),
                        ({"kind": "sell-it", "email": "b@example.com"}, "kind")):
        refused = client.post("/api/privacy/requests", json=body)
        assert refused.status_code == 422 and field in refused.json()["fields"], (body, refused.text)
    unknown = client.post("/api/privacy/requests/not-a-request/verify", json={"code": "123456"})
    assert unknown.status_code == 404 and "start again" in unknown.json()["error"]


@pytest.mark.parametrize("request_id", ["x%00", "x%1Fy", "%E2%80%A8"])
def test_a_request_id_with_control_characters_is_refused_by_name(client, request_id):
    answer = client.post(f"/api/privacy/requests/{request_id}/verify", json={"code": "123456"})
    assert answer.status_code == 422
    assert list(answer.json()["fields"]) == ["request_id"]


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/privacy/requests", {"kind": "access", "email": "a\x00@example.com"}, "email"),
    ("/api/privacy/requests", {"kind": "correct", "email": "a@example.com", "correction": "x\x00"}, "correction"),
    ("/api/privacy/requests/abc/verify", {"code": "12\x003456"}, "code"),
    ("/api/privacy/stop", {"token": "t\x00"}, "token"),
])
def test_body_fields_with_control_characters_are_refused_by_name(client, path, body, field):
    answer = client.post(path, json=body)
    assert answer.status_code == 422
    assert list(answer.json()["fields"]) == [field]
