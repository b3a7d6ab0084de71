"""Real local receivers: an HTTP endpoint with programmable answers and an SMTP server."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Self, TypeVar

from aiosmtpd.controller import Controller
from background_server import serve_in_background

# Upper bound for waiting on something that should happen promptly; never a fixed sleep.
WAIT_SECONDS = 20


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    answered: int | None

    @property
    def json(self) -> dict:
        return json.loads(self.body)


@dataclass
class HttpReceiver:
    """Answers "ok" (200), "fail" (500), "reject" (400 with a body), "busy" (429), "redirect" (302),
    "hang" (nothing), "trickle" (200, then the body a byte every half second), "slow-headers" (the
    status line, then the headers a byte every half second) or "huge" (200 with a 5 MB body)."""

    mode: str = "ok"
    requests: list[Received] = field(default_factory=list)
    port: int = field(default_factory=free_port)

    def __post_init__(self) -> None:
        self._changed = threading.Condition()
        self._release = threading.Event()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/leads"

    def start(self) -> HttpReceiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                mode = receiver.mode
                if mode == "hang":
                    receiver._record(self, body, None)
                    receiver._release.wait(WAIT_SECONDS)
                    return
                if mode in ("trickle", "slow-headers", "huge"):
                    receiver._record(self, body, 200)
                    self._hostile(mode)
                    return
                status, answer = {"ok": (200, b'{"accepted":true}'), "fail": (500, b"oops"),
                                  "busy": (429, b"slow down"), "redirect": (302, b"moved"),
                                  "reject": (400, b'{"error":"zip not served"}')}[mode]
                receiver._record(self, body, status)
                self.send_response(status)
                if status == 302:
                    self.send_header("Location", "https://elsewhere.example/leads")
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def _hostile(self, mode: str) -> None:
                if mode == "huge":
                    self.send_response(200)
                    self.send_header("Content-Length", str(5_000_000))
                    self.end_headers()
                    self.wfile.write(b"x" * 5_000_000)
                    return
                trickled = b"Content-Type: text/plain\r\nContent-Length: 40\r\n\r\n"
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                if mode == "trickle":
                    self.wfile.write(trickled)
                    trickled = b"y" * 40
                for byte in trickled:  # until the sender hangs up or the test ends
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
                    if receiver._release.wait(0.5):
                        return

            def log_message(self, *_args) -> None:
                pass

        self._release.clear()
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        serve_in_background(self._server)
        return self

    def stop(self) -> None:
        """Stop listening: senders now get connection refused."""
        self._release.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _record(self, handler: BaseHTTPRequestHandler, body: bytes, status: int | None) -> None:
        with self._changed:
            self.requests.append(Received(handler.path, dict(handler.headers.items()), body, status))
            self._changed.notify_all()

    def wait_for(self, count: int, timeout: float = WAIT_SECONDS) -> list[Received]:
        """Block until at least `count` requests arrived; fail the test if they do not."""
        with self._changed:
            assert self._changed.wait_for(lambda: len(self.requests) >= count, timeout), (
                f"expected {count} requests, got {len(self.requests)}")
            return list(self.requests)

    def delivered(self) -> list[Received]:
        return [r for r in self.requests if r.answered == 200]


class _MailHandler:
    def __init__(self, inbox: SmtpReceiver) -> None:
        self.inbox = inbox

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.inbox.refused:
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.inbox.add(envelope.rcpt_tos, envelope.content.decode("utf-8", errors="replace"))
        return "250 Message accepted"


class SmtpReceiver:
    """A real SMTP server (aiosmtpd) on 127.0.0.1 that keeps what it is sent."""

    def __init__(self) -> None:
        self.port = free_port()
        self.messages: list[tuple[list[str], str]] = []
        self.refused: set[str] = set()
        self._changed = threading.Condition()
        self._controller = Controller(_MailHandler(self), hostname="127.0.0.1", port=self.port)

    def start(self) -> SmtpReceiver:
        self._controller.start()
        self._running = True
        return self

    def stop(self) -> None:
        if getattr(self, "_running", False):
            self._controller.stop()
            self._running = False

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *_exc) -> None:
        self.stop()

    def add(self, recipients: list[str], content: str) -> None:
        with self._changed:
            self.messages.append((list(recipients), content))
            self._changed.notify_all()

    def wait_for(self, count: int, timeout: float = WAIT_SECONDS) -> list[tuple[list[str], str]]:
        with self._changed:
            assert self._changed.wait_for(lambda: len(self.messages) >= count, timeout), (
                f"expected {count} messages, got {len(self.messages)}")
            return list(self.messages)


Started = TypeVar("Started")


def started_receivers(kind: Callable[..., Started]) -> Iterator[Callable[..., Started]]:
    """A fixture's body: start(**script) starts a receiver of `kind`; each is stopped at the end."""
    started = []

    def start(**script) -> Started:
        receiver = kind(**script).start()
        started.append(receiver)
        return receiver

    yield start
    for receiver in started:
        receiver.stop()
