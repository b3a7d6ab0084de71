"""A lead payload from the catalogue, and a local HTTP receiver whose answer a test sets."""

from __future__ import annotations

import json
import socket
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from servicematch.console.sessions import CSRF_HEADER

PASSWORD = "correct horse battery staple"
CONTACT = {"first": "Maria", "last": "Garcia", "email": "maria.garcia@example.com", "phone": "5125550142",
           "address1": "500 Congress Ave", "address2": "", "city": "Austin", "state": "TX", "zip": "78701"}


def hvac_payload(index, *, phone: str = "5125550142", email: str = "maria.garcia@example.com",
                 subid1: str = "abc") -> dict:
    """A complete /api/submit-form body for HVAC, answering each question with its first acceptable option."""
    service = index.find("hvac", "services")
    answers = {f.mapping: next(o for o in f.options if o not in f.disqualifiers)
               for f in service.fields if f.mapping and f.options}
    consumer = {**CONTACT, "phone": phone, "email": email, **service.hiddenParams.model_dump(), **answers}
    return {"pid": 16, "sid": 143, "cid": service.cid, "istest": "N", "requestId": str(uuid.uuid4()),
            "consumer": consumer, "customquestions": {k: v for k, v in answers.items() if k.startswith("cq")},
            "click": {"domain_url": "http://127.0.0.1/services/hvac", "subid1": subid1, "useragent": "pytest"}}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Receiver:
    """Answers every POST with `status` (200 by default) and keeps what it received."""

    def __init__(self) -> None:
        self.status = 200
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
                                          "key": self.headers.get("Idempotency-Key")})
                self.send_response(receiver.status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *_args) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
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
