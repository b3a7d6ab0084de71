"""Submissions per client IP are capped; the refusal says when to come back."""

from __future__ import annotations

import httpx
import pytest

from servicematch.intake.ratelimit import SlidingWindowLimiter

from .payloads import call_flow_payload, lead_form_payload


@pytest.fixture
def settings(settings):
    return settings.model_copy(update={"submit_rate_limit": 3, "submit_rate_window_seconds": 600})


def test_the_submission_over_the_limit_gets_429_with_retry_after(client, index):
    hvac = index.find("hvac", "services")
    statuses = [client.post("/api/submit-form", json=lead_form_payload(hvac)).status_code for _ in range(3)]
    assert statuses == [202, 202, 202]
    response = client.post("/api/call-submit", json=call_flow_payload(index.find("final-expense-ib", "insurance")))
    assert response.status_code == 429
    assert response.json() == {
        "error": "Too many requests from your network. Please wait a moment and try again.", "fields": {}
    }
    assert 1 <= int(response.headers["Retry-After"]) <= 600


def test_validation_calls_are_not_counted(client, index):
    for _ in range(5):
        assert client.post("/api/validate", json={"type": "email", "value": "a@example.com"}).status_code == 200
    assert client.post("/api/submit-form", json=lead_form_payload(index.find("hvac", "services"))).status_code == 202


async def test_each_client_address_has_its_own_allowance(app, index):
    hvac = index.find("hvac", "services")
    for peer, expected in (("192.0.2.1", [202, 202, 202, 429]), ("192.0.2.2", [202])):
        transport = httpx.ASGITransport(app=app, client=(peer, 5000))
        async with httpx.AsyncClient(transport=transport, base_url="http://intake.test") as client:
            statuses = [
                (await client.post("/api/submit-form", json=lead_form_payload(hvac))).status_code
                for _ in expected
            ]
        assert statuses == expected


def test_the_window_slides():
    now = [1000.0]
    limiter = SlidingWindowLimiter(limit=2, window_seconds=60, clock=lambda: now[0])
    assert limiter.hit("a") == 0.0
    now[0] = 1030.0
    assert limiter.hit("a") == 0.0
    now[0] = 1040.0
    assert limiter.hit("a") == pytest.approx(20.0)  # the hit at 1000 leaves the window at 1060
    assert limiter.hit("b") == 0.0
    now[0] = 1060.0
    assert limiter.hit("a") == 0.0
    assert limiter.hit("a") == pytest.approx(30.0)  # now the hit at 1030 is the oldest
