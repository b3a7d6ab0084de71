"""Submissions per client IP are capped; the refusal says when to come back."""

from __future__ import annotations

import logging
import os
import socket
import time
import uuid
from collections.abc import Iterator
from types import SimpleNamespace

import httpx
import limits.storage.memory
import pytest
import redis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from intake.payloads import call_flow_payload, lead_form_payload

from servicematch.app import create_app
from servicematch.inbound.ratelimit import (
    SlidingWindowLimiter,
    SweptMemoryStorage,
    install_rate_limits,
)

REDIS_URL = os.environ.get("SERVICEMATCH_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
WINDOW = 600


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of this test's own in the test Redis, whose keys are deleted afterwards."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.RedisError:
        pytest.skip(f"no Redis answers at {REDIS_URL} (SERVICEMATCH_TEST_REDIS_URL)")
    prefix = f"servicematch-test-{uuid.uuid4().hex}"
    yield prefix
    keys = list(client.scan_iter(f"{prefix}:*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture(params=["memory", "redis"])
def settings(request, settings):
    """Each test twice: limits in the process's memory, and in Redis."""
    limited = {"submit_rate_limit": 3, "submit_rate_window_seconds": WINDOW}
    if request.param == "redis":
        limited |= {"redis_url": REDIS_URL, "redis_key_prefix": request.getfixturevalue("redis_prefix")}
    return settings.model_copy(update=limited)


def test_the_submission_over_the_limit_gets_429_with_retry_after(client, index):
    hvac = index.find("hvac", "services")
    statuses = [client.post("/api/submit-form", json=lead_form_payload(hvac)).status_code for _ in range(3)]
    assert statuses == [202, 202, 202]
    response = client.post("/api/call-submit", json=call_flow_payload(index.find("final-expense-ib", "insurance")))
    assert response.status_code == 429
    assert response.json() == {
        "error": "Too many requests from your network. Please wait a moment and try again.", "fields": {}
    }
    assert 1 <= int(response.headers["Retry-After"]) <= WINDOW


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


def test_the_window_slides(monkeypatch):
    now = [600.0]
    monkeypatch.setattr(limits.storage.memory, "time", SimpleNamespace(time=lambda: now[0]))
    limiter = SlidingWindowLimiter(limit=2, window_seconds=60)
    assert limiter.hit("a") == 0.0
    now[0] = 630.0
    assert limiter.hit("a") == 0.0
    now[0] = 640.0
    assert limiter.hit("a") == pytest.approx(20.0)  # both hits are in this window, which ends at 660
    assert limiter.hit("b") == 0.0
    now[0] = 675.0  # a quarter into the next window: the last one still weighs 3/4 * 2 = 1.5
    assert limiter.hit("a") == 0.0
    # 1.5 + 1 is past the limit until the old window weighs under 1: at 690, a half of it left.
    assert limiter.hit("a") == pytest.approx(15.0)
    now[0] = 721.0
    assert limiter.hit("a") == 0.0


def test_a_full_window_waits_until_its_count_fades_under_the_limit(monkeypatch):
    now = [600.0]
    monkeypatch.setattr(limits.storage.memory, "time", SimpleNamespace(time=lambda: now[0]))
    limiter = SlidingWindowLimiter(limit=2, window_seconds=60)
    for _ in range(2):
        limiter.record("a")
    assert limiter.check("a") == pytest.approx(60.0)
    now[0] = 650.0
    assert limiter.retry_after("a") == pytest.approx(10.0)
    now[0] = 661.0  # the window has moved on: its 2 hits weigh 59/60 * 2, under the limit
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
    limited = create_app(settings.model_copy(update={"address_rate_limit": 3}))
    with TestClient(limited) as client:
        # The per-minute window is aligned to the clock: the four asks (milliseconds apart) must
        # not straddle a minute's turn, where the sliding estimate would weigh the hits just made a
        # little under the limit.
        while time.time() % 60 > 57:
            time.sleep(0.2)
        answers = [client.get("/api/address/suggest", params={"q": "500 Congress"}).status_code for _ in range(4)]
        assert answers == [200, 200, 200, 429]
        assert client.post("/api/validate", json={"type": "phone", "value": "5125550142"}).status_code == 200
    limited.state.engine.dispose()


def test_memory_counters_expire_on_their_own():
    limiter = SlidingWindowLimiter(limit=5, window_seconds=60)
    for number in range(1000):
        limiter.hit(f"198.51.{number // 256}.{number % 256}")
    expirations = limiter.store.storage.expirations
    assert len(expirations) == 1000
    # Each counter is forgotten once the window after its own has passed.
    assert max(expirations.values()) <= time.time() + 2 * 60


def test_memory_counters_are_swept_seconds_apart_not_every_10_ms():
    """The library's own sweep walks every key 10 ms after any count (a new client per request made
    that a growing share of a web process's time); ours runs every SweptMemoryStorage.SWEEP_SECONDS."""
    limiter = SlidingWindowLimiter(limit=5, window_seconds=60)
    time.sleep(0.05)  # the storage's first, library-made sweep has run
    limiter.hit("198.51.100.1")
    timer = limiter.store.storage.timer
    assert timer.interval == SweptMemoryStorage.SWEEP_SECONDS and timer.daemon


def test_web_processes_share_the_allowance_through_redis(app, settings, index):
    twin = create_app(settings)  # another web process, with the same settings
    hvac = index.find("hvac", "services")
    with TestClient(app) as first, TestClient(twin) as second:
        assert [c.post("/api/submit-form", json=lead_form_payload(hvac)).status_code
                for c in (first, second, first)] == [202, 202, 202]
        if settings.redis_url:
            # Refused by either: they count the same client in the same place.
            for client in (second, first):
                refused = client.post("/api/submit-form", json=lead_form_payload(hvac))
                assert refused.status_code == 429
                # Redis's window began with the first of the three: about a whole window to wait.
                assert WINDOW - 60 <= int(refused.headers["Retry-After"]) <= WINDOW
        else:  # each process keeps its own counts in memory
            assert second.post("/api/submit-form", json=lead_form_payload(hvac)).status_code == 202
    twin.state.engine.dispose()


@pytest.mark.parametrize("settings", ["redis"], indirect=True)
def test_redis_keys_carry_the_prefix_and_expire_on_their_own(client, settings, index):
    assert client.post("/api/submit-form", json=lead_form_payload(index.find("hvac", "services"))).status_code == 202
    assert client.post("/api/validate", json={"type": "email", "value": "a@example.com"}).status_code == 200
    store = redis.Redis.from_url(REDIS_URL)
    keys = list(store.scan_iter(f"{settings.redis_key_prefix}:*"))
    limiters = {key.decode().removeprefix(f"{settings.redis_key_prefix}:{{").split("/")[0] for key in keys}
    assert limiters == {"submit", "validate"}
    # Nothing outlives the window after its own.
    assert all(0 < store.ttl(key) <= 2 * WINDOW for key in keys)
    store.close()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("settings", ["memory"], indirect=True)  # its Redis is set below
def test_an_unreachable_redis_lets_submissions_through_and_is_logged_once(settings, index, caplog):
    down = create_app(settings.model_copy(update={"redis_url": f"redis://127.0.0.1:{_closed_port()}/0"}))
    down.state.rate_limit_store.retry_seconds = 0  # try Redis on every request
    hvac = index.find("hvac", "services")
    caplog.set_level(logging.ERROR, logger="servicematch.ratelimit")
    with TestClient(down) as client:
        # More than the limit: nothing can be counted, so nothing is refused, and nothing fails.
        assert [client.post("/api/submit-form", json=lead_form_payload(hvac)).status_code
                for _ in range(5)] == [202] * 5
        assert client.post("/api/validate", json={"type": "email", "value": "a@example.com"}).status_code == 200
        assert client.post("/api/events", json={}).status_code == 204
    outages = [record for record in caplog.records if "Rate limits are off" in record.getMessage()]
    assert len(outages) == 1
    down.state.engine.dispose()


@pytest.mark.parametrize("settings", ["memory"], indirect=True)
def test_production_on_postgresql_without_redis_is_warned_at_start(settings, caplog):
    postgresql = "postgresql+psycopg://servicematch@127.0.0.1/servicematch"
    for update, warned in (({"environment": "production", "database_url": postgresql}, True),
                           ({"environment": "production", "database_url": postgresql, "redis_url": REDIS_URL}, False),
                           ({"environment": "production"}, settings.database_url.startswith("postgresql")),
                           ({"database_url": postgresql}, False)):
        caplog.clear()
        install_rate_limits(FastAPI(), settings.model_copy(update=update))
        assert any("SERVICEMATCH_REDIS_URL is empty" in r.getMessage() for r in caplog.records) == warned
