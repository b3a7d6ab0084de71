"""Errors to Sentry, against a local stand-in that receives the SDK's envelopes as Sentry would:
an error in a request reaches it tagged with the request id, and nothing personal does."""

from __future__ import annotations

import gzip
import json
import logging
import threading
import time
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import sentry_sdk
from background_server import serve_in_background
from delivery_receivers import free_port
from fastapi.testclient import TestClient
from lead_payloads import hvac_payload

from servicematch.app import create_app
from servicematch.deps import app_part
from servicematch.kernel.logs import REQUEST_ID
from servicematch.ops.sentry import scrub_event, start_sentry

NAME, LAST, EMAIL, PHONE, STREET = "Maria", "Garcia", "maria.garcia@example.com", "5125550142", "500 Congress Ave"
PERSONAL = (NAME, LAST, EMAIL, PHONE, "512-555-0142", "555-0142", STREET, "Congress", "s3cret-session",
            "Bearer tok-123", "203.0.113.7")


class SentryStandIn:
    """Receives POSTs of envelopes at /api/<project>/envelope/ and keeps each, decompressed."""

    def __init__(self) -> None:
        self.port = free_port()
        self.bodies: list[bytes] = []
        self._changed = threading.Condition()
        standin = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                encoding = self.headers.get("Content-Encoding", "")
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding == "deflate":
                    body = zlib.decompress(body)
                with standin._changed:
                    standin.bodies.append(body)
                    standin._changed.notify_all()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *_args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)

    @property
    def dsn(self) -> str:
        return f"http://publickey@127.0.0.1:{self.port}/1"

    def start(self) -> SentryStandIn:
        serve_in_background(self._server)
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def events(self) -> list[dict]:
        """The error events received (an envelope: a header line, then an item header and its payload)."""
        found = []
        for body in self.bodies:
            lines = body.split(b"\n")
            for header, payload in zip(lines[1::2], lines[2::2]):
                if json.loads(header).get("type") == "event":
                    found.append(json.loads(payload))
        return found

    def received_text(self) -> str:
        """Everything received, less the source lines around each frame: those are the code's own
        (shipped in the repository; a comment there may show a made-up address), not data."""
        items = []
        for body in self.bodies:
            for line in body.split(b"\n"):
                item = json.loads(line) if line.strip() else {}
                for frame in _frames(item):
                    for key in ("pre_context", "context_line", "post_context"):
                        frame.pop(key, None)
                items.append(json.dumps(item))
        return "\n".join(items)

    def wait_for_events(self, count: int, timeout: float = 20) -> list[dict]:
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self.events()) < count:
                assert self._changed.wait(max(0.0, deadline - time.monotonic())), "Sentry never heard"
        return self.events()


def _frames(item: dict) -> list[dict]:
    values = item.get("exception", {}).get("values", []) + item.get("threads", {}).get("values", [])
    return [frame for value in values for frame in value.get("stacktrace", {}).get("frames", [])]


@pytest.fixture
def sentry() -> Iterator[SentryStandIn]:
    standin = SentryStandIn().start()
    try:
        yield standin
    finally:
        sentry_sdk.get_client().close(timeout=2)
        sentry_sdk.init()  # no DSN: reporting off again for the tests that follow in this process
        standin.stop()


class FailingStore:
    """A lead store that fails with the consumer's details in its message, as a careless one might."""

    transactions = None

    async def store(self, new_lead) -> None:
        raise RuntimeError(f"could not store the lead of {EMAIL}, phone {PHONE}")

    def stop(self) -> None:
        pass


def test_off_without_a_dsn(settings):
    assert start_sentry(settings) is False


def test_an_error_in_a_request_reaches_sentry_with_its_request_id_and_nothing_personal(settings, sentry, app):
    # `app` is requested for its clean-up of the tables.
    reporting = create_app(settings.model_copy(update={"sentry_dsn": sentry.dsn}))
    reporting.dependency_overrides[app_part("lead_store")] = FailingStore
    try:
        with TestClient(reporting, raise_server_exceptions=False) as client:
            client.cookies.set("session", "s3cret-session")
            answer = client.post(f"/api/submit-form?email={EMAIL}", json=hvac_payload(reporting.state.catalog),
                                 headers={"Authorization": "Bearer tok-123", "X-Forwarded-For": "203.0.113.7"})
            assert answer.status_code == 500
            sentry_sdk.flush(timeout=10)
            [event] = sentry.wait_for_events(1)
    finally:
        reporting.state.engine.dispose()
    [exception] = event["exception"]["values"]
    assert exception["type"] == "RuntimeError"
    assert exception["value"] == "could not store the lead of [scrubbed], phone [scrubbed]"
    assert event["tags"]["request_id"] == answer.headers["x-request-id"]
    received = sentry.received_text()
    assert [value for value in PERSONAL if value in received] == []


def test_an_error_logged_anywhere_is_reported_scrubbed(settings, sentry):
    start_sentry(settings.model_copy(update={"sentry_dsn": sentry.dsn}))
    logging.getLogger("servicematch.test").error("delivery to %s (%s) failed", EMAIL, "(512) 555-0142")
    sentry_sdk.flush(timeout=10)
    [event] = sentry.wait_for_events(1)
    assert event["logentry"]["formatted"] == "delivery to [scrubbed] ([scrubbed]) failed"
    received = sentry.received_text()
    assert [value for value in PERSONAL if value in received] == []


def test_the_scrubber_takes_out_whatever_could_carry_personal_data():
    event = {
        "user": {"ip_address": "203.0.113.7", "email": EMAIL},
        "request": {"url": f"https://site.example/api/privacy/requests?email={EMAIL}", "query_string": f"email={EMAIL}",
                    "data": {"consumer": {"first": NAME}}, "cookies": {"session": "s3cret-session"},
                    "env": {"REMOTE_ADDR": "203.0.113.7"},
                    "headers": {"Authorization": "Bearer tok-123", "Cookie": "session=s3cret-session",
                                "User-Agent": "Mozilla/5.0", "Content-Type": "application/json",
                                "X-Request-ID": "req-9"}},
        "exception": {"values": [{"type": "ValidationError",
                                  "value": f"1 validation error\nfirst\n  input_value='{NAME}', input_type=str",
                                  "stacktrace": {"frames": [{"function": "store", "vars": {"street": STREET}}]}}]},
        "breadcrumbs": {"values": [{"message": f"texted +1 512 555 0142 and {EMAIL}"}]},
        "extra": {"note": "lead 7K3M-Q9TX, request 4f1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e, at 1764403200.5"},
    }
    token = REQUEST_ID.set("req-9")
    try:
        scrubbed = scrub_event(event)
    finally:
        REQUEST_ID.reset(token)
    assert "user" not in scrubbed
    assert scrubbed["request"] == {"url": "https://site.example/api/privacy/requests",
                                   "headers": {"Content-Type": "application/json", "X-Request-ID": "req-9"}}
    [exception] = scrubbed["exception"]["values"]
    assert "vars" not in exception["stacktrace"]["frames"][0]
    assert "input_value=[scrubbed]" in exception["value"] and NAME not in exception["value"]
    assert scrubbed["breadcrumbs"]["values"][0]["message"] == "texted [scrubbed] and [scrubbed]"
    # References, ids and numbers that are no phone number are left alone.
    assert scrubbed["extra"] == event["extra"]
    assert scrubbed["tags"] == {"request_id": "req-9"}
