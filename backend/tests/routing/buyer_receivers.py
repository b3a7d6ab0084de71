"""A local buyer for auction tests: answers pings on /ping with a scripted bid (after a delay), and
posts on /post with a scripted status; records everything it got, headers included."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from background_server import serve_in_background
from delivery_receivers import Received, free_port


class _BusyServer(ThreadingHTTPServer):
    # A worker opens a connection per ping under way: dozens at once, past the default backlog of 5.
    request_queue_size = 128


@dataclass
class BuyerReceiver:
    # What a ping gets back: raw bytes (sent as they are) or a JSON-able value; a status; a delay.
    ping_answer: object = field(default_factory=lambda: {"bid": 10.0})
    ping_status: int = 200
    ping_delay: float = 0.0
    post_status: int = 200
    # Answers to the first posts, in order, before post_status takes over (a 503 then a 200, say).
    post_script: list[int] = field(default_factory=list)
    # Called once a post is taken, before its answer is written (a test kills the sender there,
    # so the buyer holds the lead and the sender never learns it).
    on_post: Callable[[], None] | None = None
    pings: list[Received] = field(default_factory=list)
    posts: list[Received] = field(default_factory=list)
    port: int = field(default_factory=free_port)

    @property
    def ping_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/ping"

    @property
    def post_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/post"

    def start(self) -> BuyerReceiver:
        buyer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if self.path == "/ping":
                    buyer.pings.append(Received(self.path, dict(self.headers.items()), body, buyer.ping_status))
                    time.sleep(buyer.ping_delay)
                    answer = buyer.ping_answer
                    raw = answer if isinstance(answer, bytes) else json.dumps(answer).encode()
                    status = buyer.ping_status
                else:
                    status = buyer.post_script.pop(0) if buyer.post_script else buyer.post_status
                    buyer.posts.append(Received(self.path, dict(self.headers.items()), body, status))
                    raw = b'{"ok":true}'
                    if buyer.on_post is not None:
                        buyer.on_post()
                try:
                    self.send_response(status)
                    if 300 <= status < 400:
                        self.send_header("Location", "https://elsewhere.example/")
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(raw)))
                    self.end_headers()
                    self.wfile.write(raw)
                except OSError:
                    pass  # the sender gave up waiting

            def log_message(self, *_args) -> None:
                pass

        self._server = _BusyServer(("127.0.0.1", self.port), Handler)
        self._server.daemon_threads = True
        serve_in_background(self._server)
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
