"""Test HTTP servers (stand-in buyers, providers, site-verify services) run on a thread of their own."""

from __future__ import annotations

import threading
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
