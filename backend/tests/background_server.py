"""Test HTTP servers (stand-in buyers, providers, site-verify services) run on a thread of their own."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from socketserver import BaseServer

# shutdown() returns once serve_forever's loop next looks: socketserver's default of 0.5 s made
# every test that stops a receiver wait about a quarter of a second for nothing.
STOP_POLL_SECONDS = 0.02


def serve_in_background(server: BaseServer) -> threading.Thread:
    """Serve until server.shutdown(), on a daemon thread."""
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": STOP_POLL_SECONDS},
                              daemon=True)
    thread.start()
    return thread


class QuietServer(ThreadingHTTPServer):
    """A stand-in service's server: a client that gave up waiting (a timeout test) is expected."""

    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        pass


class JsonHandler(BaseHTTPRequestHandler):
    """A stand-in service's handler: answers JSON, logs nothing."""

    def _answer(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *_args) -> None:
        pass
