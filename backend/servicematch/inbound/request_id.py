"""A request id on every answer (X-Request-ID), and on every log line written while answering.

The id is the one our own proxy (SERVICEMATCH_TRUSTED_PROXIES, as for X-Forwarded-For in client.py)
sent, when it sent a sane one, so a request can be followed from the proxy's log into ours; anyone
else's is ignored, and a fresh one is made. Sane: 1 to 128 letters, digits and `._:+=/-`, so no
value a client could put there (an e-mail address, a line break, a script) reaches a log line.
"""

from __future__ import annotations

import json
import re
import secrets

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from servicematch.errors import error_body
from servicematch.kernel.logs import REQUEST_ID

from .client import PROXY, _kind_of, parse_proxies

HEADER = "X-Request-ID"
_HEADER_KEY = HEADER.lower().encode()
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:+=/-]{0,127}")


def new_request_id() -> str:
    """32 random hex digits."""
    return secrets.token_hex(16)


def sane_request_id(value: str) -> bool:
    return SANE_REQUEST_ID.fullmatch(value) is not None


class RequestIds:
    """ASGI middleware: the request's id in REQUEST_ID while it is handled, and in its answer's
    X-Request-ID header, error answers included."""

    def __init__(self, app: ASGIApp, *, trusted_proxies: str) -> None:
        self.app = app
        self.proxies = parse_proxies(trusted_proxies)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_id = self._forwarded_id(scope) or new_request_id()
        token = REQUEST_ID.set(request_id)
        header = (_HEADER_KEY, request_id.encode("latin-1"))
        started = False

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                # Appended as it is: nothing inside sets this header (cheaper than MutableHeaders).
                message["headers"] = [*message.get("headers", ()), header]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        except Exception:
            # The server's own 500 is sent further out, where this header cannot be added: answer
            # here, so the id the client is told is the one the error's log line and report carry.
            # The exception goes on out to be logged and reported; REQUEST_ID stays set for that
            # (it belongs to this request's task, which ends with the request).
            if not started:
                await _answer_server_error(send_with_id, request_id)
            raise
        REQUEST_ID.reset(token)

    def _forwarded_id(self, scope: Scope) -> str | None:
        if not self.proxies:
            return None
        client = scope.get("client")
        if not client or _kind_of(client[0], self.proxies) != PROXY:
            return None
        for key, value in scope["headers"]:
            if key == _HEADER_KEY:
                forwarded = value.decode("latin-1").strip()
                return forwarded if sane_request_id(forwarded) else None
        return None


async def _answer_server_error(send: Send, request_id: str) -> None:
    payload = json.dumps(error_body(f"Something went wrong on our side. If you report it, quote request id "
                                    f"{request_id}.")).encode()
    await send({"type": "http.response.start", "status": 500,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]})
    await send({"type": "http.response.body", "body": payload})
