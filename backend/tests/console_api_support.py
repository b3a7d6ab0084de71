"""A lead payload from the catalogue, leads and events sent through the API and moved to an
earlier day, and a local HTTP receiver whose answer a test sets."""

from __future__ import annotations

import json
import socket
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from background_server import serve_in_background
from lead_payloads import CONTACT, hvac_payload
from sqlalchemy import select

from servicematch.console.sessions import CSRF_HEADER
from servicematch.delivery.models import Delivery
from servicematch.events.models import FunnelEvent
from servicematch.intake.models import Lead

__all__ = ["CONTACT", "hvac_payload"]

PASSWORD = "correct horse battery staple"
def submit(client, index, count: int, *, subid1: str, first_phone: int) -> None:
    for n in range(count):
        answer = client.post("/api/submit-form", json=hvac_payload(index, phone=str(first_phone + n), subid1=subid1))
        assert answer.status_code == 202, answer.text


def post_event(client, tab: str, kind: str, **fields) -> None:
    body = {"type": kind, "routeType": "form", "service": "auto-accident", "vertical": "legal", "tabId": tab,
            **fields}
    assert client.post("/api/events", json=body).status_code == 204


def move_back(session_factory, days: int) -> None:
    """Make every lead, delivery and stored event so far `days` older, as if from an earlier day."""
    shift = timedelta(days=days)
    with session_factory() as session:
        for lead in session.scalars(select(Lead)):
            lead.created_at -= shift
        for delivery in session.scalars(select(Delivery)):
            delivery.created_at -= shift
            if delivery.completed_at is not None:
                delivery.completed_at -= shift
        for event in session.scalars(select(FunnelEvent)):
            event.at -= shift
        session.commit()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Receiver:
    """Answers every POST with `status` (200 by default) and `reply` ({} by default), and keeps what
    it received."""

    def __init__(self) -> None:
        self.status = 200
        self.reply = b"{}"
        self.received: list[dict] = []
        self.port = free_port()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/leads"

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.received.append({"status": receiver.status, "body": json.loads(body or b"{}"),
                                          "key": self.headers.get("Idempotency-Key"),
                                          "headers": dict(self.headers.items())})
                reply = receiver.reply
                self.send_response(receiver.status)
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

            def log_message(self, *_args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        serve_in_background(self._server)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def accepted(self) -> list[dict]:
        return [r for r in self.received if 200 <= r["status"] < 300]


def sign_in(client, email: str, password: str = PASSWORD, **extra) -> dict:
    """Sign in; the client keeps the cookie and sends the CSRF token on every later call."""
    answer = client.post("/api/console/session", json={"email": email, "password": password, **extra})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    client.headers[CSRF_HEADER] = body["csrfToken"]
    return body
