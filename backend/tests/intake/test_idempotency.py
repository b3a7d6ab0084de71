"""requestId is an idempotency key: one lead per key, however many copies arrive and however fast."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from sqlalchemy import func, select

from servicematch.intake.models import ConsentRecord, Lead

from .payloads import lead_form_payload, with_answer

COPIES = 50


@pytest.fixture(params=["batched", "simple"])
def settings(settings, request):
    """Every test here runs against both lead stores (SERVICEMATCH_LEAD_STORE)."""
    return settings.model_copy(update={"lead_store": request.param})


def rows(app, model) -> int:
    with app.state.session_factory() as session:
        return session.scalar(select(func.count()).select_from(model))


def test_the_same_request_twice_returns_the_first_answer(client, app, index):
    payload = lead_form_payload(index.find("hvac", "services"))
    first = client.post("/api/submit-form", json=payload)
    again = client.post("/api/submit-form", json={**payload, "recaptchaToken": "a fresh single-use token"})
    assert first.status_code == again.status_code == 202
    assert again.json() == first.json()
    assert rows(app, Lead) == rows(app, ConsentRecord) == 1


def test_key_order_does_not_make_a_different_body(client, app, index):
    payload = lead_form_payload(index.find("hvac", "services"))
    reordered = {key: payload[key] for key in reversed(list(payload))}
    reordered["consumer"] = {key: payload["consumer"][key] for key in reversed(list(payload["consumer"]))}
    assert client.post("/api/submit-form", json=payload).json() == \
        client.post("/api/submit-form", json=reordered).json()
    assert rows(app, Lead) == 1


def test_the_same_request_id_with_a_different_body_is_a_conflict(client, app, index):
    payload = lead_form_payload(index.find("hvac", "services"))
    assert client.post("/api/submit-form", json=payload).status_code == 202
    response = client.post("/api/submit-form", json=with_answer(payload, "first", "Mario"))
    assert response.status_code == 409
    message = "This requestId was already used for a different submission."
    assert response.json() == {"error": message, "fields": {"requestId": message}}
    assert rows(app, Lead) == 1


def test_a_call_flow_request_id_cannot_be_reused_by_the_form(client, index):
    from .payloads import call_flow_payload

    call = call_flow_payload(index.find("final-expense-ib", "insurance"))
    assert client.post("/api/call-submit", json=call).status_code == 202
    form = {**lead_form_payload(index.find("hvac", "services")), "requestId": call["requestId"]}
    assert client.post("/api/submit-form", json=form).status_code == 409


async def test_fifty_concurrent_identical_submissions_store_one_lead(app, index):
    payload = lead_form_payload(index.find("roofing", "services"))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://intake.test") as client:
        responses = await asyncio.gather(
            *(client.post("/api/submit-form", json=payload) for _ in range(COPIES))
        )
    assert [r.status_code for r in responses] == [202] * COPIES, {r.text for r in responses}
    assert len({r.json()["leadId"] for r in responses}) == 1
    assert rows(app, Lead) == rows(app, ConsentRecord) == 1
