"""X-Request-ID: on every answer, taken from our own proxy when it sends a sane one, else made; and
on every log line written while the request is handled."""

from __future__ import annotations

import logging
import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from log_capture import captured_lines, json_lines

from servicematch.inbound.request_id import RequestIds, sane_request_id

log = logging.getLogger("servicematch.test")
MADE = re.compile(r"[0-9a-f]{32}")
PROXY = ("10.0.0.5", 40000)


def _small_app() -> FastAPI:
    app = FastAPI()

    @app.get("/sync")
    def sync_route() -> dict:
        log.info("handled on the thread pool")
        return {}

    @app.get("/async")
    async def async_route() -> dict:
        log.info("handled on the event loop")
        return {}

    @app.get("/broken")
    def broken() -> dict:
        raise RuntimeError("broken")

    app.add_middleware(RequestIds, trusted_proxies="10.0.0.0/8")
    return app


def test_every_answer_of_the_app_has_a_request_id_of_its_own(client):
    first = client.get("/api/health")
    missing = client.get("/api/no-such-thing")
    assert MADE.fullmatch(first.headers["x-request-id"])
    assert MADE.fullmatch(missing.headers["x-request-id"])
    assert first.headers["x-request-id"] != missing.headers["x-request-id"]


def test_a_visitors_own_request_id_is_not_taken(client):
    # The test client is no trusted proxy (none is configured): what it sends is ignored.
    answer = client.get("/api/health", headers={"X-Request-ID": "chosen-by-the-visitor"})
    assert MADE.fullmatch(answer.headers["x-request-id"])


def test_our_proxys_request_id_is_kept():
    with TestClient(_small_app(), client=PROXY) as proxy:
        answer = proxy.get("/async", headers={"X-Request-ID": "Root=1-67891233-abcdef012345678912345678"})
    assert answer.headers["x-request-id"] == "Root=1-67891233-abcdef012345678912345678"


@pytest.mark.parametrize("value", ["maria.garcia@example.com", "a b", "<script>", "x" * 129, "", "-leading"])
def test_a_request_id_that_is_not_a_sane_token_is_replaced_even_from_our_proxy(value):
    assert not sane_request_id(value)
    with TestClient(_small_app(), client=PROXY) as proxy:
        answer = proxy.get("/async", headers={"X-Request-ID": value})
    assert MADE.fullmatch(answer.headers["x-request-id"])


def test_a_request_id_from_an_address_that_is_not_our_proxy_is_replaced():
    with TestClient(_small_app(), client=("203.0.113.9", 40000)) as stranger:
        answer = stranger.get("/async", headers={"X-Request-ID": "abc-123"})
    assert MADE.fullmatch(answer.headers["x-request-id"])


def test_every_line_written_while_handling_a_request_carries_its_id():
    with captured_lines("json") as buffer, TestClient(_small_app(), client=PROXY) as proxy:
        sync_id = proxy.get("/sync").headers["x-request-id"]
        async_id = proxy.get("/async", headers={"X-Request-ID": "from-the-proxy"}).headers["x-request-id"]
        log.info("between requests")
    lines = {line["message"]: line for line in json_lines(buffer) if line["logger"] == "servicematch.test"}
    assert lines["handled on the thread pool"]["request_id"] == sync_id
    assert lines["handled on the event loop"]["request_id"] == async_id == "from-the-proxy"
    assert "request_id" not in lines["between requests"]


def test_a_server_error_answers_with_the_request_id_too():
    with TestClient(_small_app(), raise_server_exceptions=False) as visitor:
        answer = visitor.get("/broken")
    request_id = answer.headers["x-request-id"]
    assert answer.status_code == 500
    assert MADE.fullmatch(request_id)
    assert request_id in answer.json()["error"]
