"""Submissions per client IP are capped; the refusal says when to come back."""

from __future__ import annotations

import httpx
import pytest

from servicematch.intake.ratelimit import MemoryCounters, SlidingWindowLimiter

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
    now = [600.0]
    limiter = SlidingWindowLimiter(limit=2, window_seconds=60, clock=lambda: now[0])
    assert limiter.hit("a") == 0.0
    now[0] = 630.0
    assert limiter.hit("a") == 0.0
    now[0] = 640.0
    assert limiter.hit("a") == pytest.approx(20.0)  # both hits are in this window, which ends at 660
    assert limiter.hit("b") == 0.0
    now[0] = 675.0  # a quarter into the next window: the last one still weighs 3/4 * 2 = 1.5
    assert limiter.hit("a") == 0.0
    assert limiter.hit("a") > 0  # 1.5 + 1 is past the limit until the old window weighs under 1
    now[0] = 721.0
    assert limiter.hit("a") == 0.0


def test_refused_submissions_do_not_spend_the_allowance(client, index):
    hvac = index.find("hvac", "services")
    bad_phone = lead_form_payload(hvac)
    bad_phone["consumer"]["phone"] = "123"
    unknown = lead_form_payload(hvac)
    unknown["consumer"]["category"] = "Nothing"
    for payload, status in ((bad_phone, 422), (unknown, 404), ({"requestId": "x"}, 422)) * 3:
        assert client.post("/api/submit-form", json=payload).status_code == status
    statuses = [client.post("/api/submit-form", json=lead_form_payload(hvac)).status_code for _ in range(4)]
    assert statuses == [202, 202, 202, 429]


def test_a_replayed_submission_is_answered_again_and_counts(client, index):
    payload = lead_form_payload(index.find("hvac", "services"))
    first = client.post("/api/submit-form", json=payload)
    assert [client.post("/api/submit-form", json=payload).json() for _ in range(2)] == [first.json()] * 2
    assert client.post("/api/submit-form", json=payload).status_code == 429


@pytest.mark.parametrize("setting", [{"validate_rate_limit": 4}])
def test_validate_has_its_own_limit(app, settings, index, setting):
    from fastapi.testclient import TestClient

    from servicematch.app import create_app

    limited = create_app(settings.model_copy(update=setting))
    with TestClient(limited) as client:
        answers = [client.post("/api/validate", json={"type": "phone", "value": "5125550142"}).status_code
                   for _ in range(5)]
        assert answers == [200, 200, 200, 200, 429]
        # Lookups and submissions are counted apart.
        assert client.post("/api/submit-form", json=lead_form_payload(index.find("hvac", "services"))
                           ).status_code == 202
    limited.state.engine.dispose()


def test_address_suggestions_have_their_own_limit(app, settings):
    from fastapi.testclient import TestClient

    from servicematch.app import create_app

    limited = create_app(settings.model_copy(update={"address_rate_limit": 3}))
    with TestClient(limited) as client:
        answers = [client.get("/api/address/suggest", params={"q": "500 Congress"}).status_code for _ in range(4)]
        assert answers == [200, 200, 200, 429]
        assert client.post("/api/validate", json={"type": "phone", "value": "5125550142"}).status_code == 200
    limited.state.engine.dispose()


def test_memory_stays_bounded_however_many_clients_come():
    counters = MemoryCounters(max_keys=100)
    limiter = SlidingWindowLimiter(limit=5, window_seconds=60, counters=counters, clock=lambda: 1000.0)
    for number in range(10_000):
        limiter.hit(f"198.51.{number // 256}.{number % 256}")
    assert len(counters._counts) == 100


def test_processes_on_postgresql_share_the_allowance(app, settings, index):
    from fastapi.testclient import TestClient

    from servicematch.app import create_app

    twin = create_app(settings)  # another web process on the same database
    hvac = index.find("hvac", "services")
    with TestClient(app) as first, TestClient(twin) as second:
        assert [c.post("/api/submit-form", json=lead_form_payload(hvac)).status_code
                for c in (first, second, first)] == [202, 202, 202]
        expected = 202 if settings.is_sqlite else 429  # SQLite: one process, counters kept in it
        assert second.post("/api/submit-form", json=lead_form_payload(hvac)).status_code == expected
    twin.state.engine.dispose()
