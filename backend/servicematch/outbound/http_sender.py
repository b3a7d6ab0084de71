"""POST a JSON body, signed, with an idempotency key, and turn the answer into a SendResult.

Every request carries the Standard Webhooks headers (signing.py) and, for receivers built
before them, the deprecated X-ServiceMatch-Signature header; during a secret rotation both carry a
signature per secret in force.

The client is the standard library's http.client over the guarded sockets of guarded_network.py,
with kept-alive connections shared by the worker's send threads: it costs a fraction of a
general-purpose client per request, and a worker sends several hundred requests a second.
"""

from __future__ import annotations

import http.client
import json
import select
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from servicematch.outbound.guarded_network import (
    PrivateAddressRefused,
    attempt_deadline,
    connect,
    tls_context,
)
from servicematch.outbound.outcome import (
    RESPONSE_BODY_LIMIT,
    Outcome,
    Send,
    SendResult,
    classify_http_status,
)
from servicematch.outbound.signing import SIGNATURE_HEADER, signature_header, webhook_headers

# A kept connection unused this long is closed rather than reused (receivers close theirs too).
KEEP_ALIVE_SECONDS = 30.0
# Idle connections kept per receiver; more than this many at once are closed after their send.
# (Pings, many at once to one host, go through loop_sender.py with its own pool.)
IDLE_PER_RECEIVER = 16
# What can go wrong talking to a receiver: the network, or an answer that is not HTTP.
NETWORK_ERRORS = (OSError, http.client.HTTPException)


def encode_body(payload: dict) -> bytes:
    """The exact bytes that are signed and sent."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


class _Connection(http.client.HTTPConnection):
    """One connection to a receiver over a guarded socket (TLS for https)."""

    def __init__(self, host: str, port: int, *, https: bool, allow_private: bool, tls) -> None:
        super().__init__(host, port)
        self.default_port = 443 if https else 80  # the Host header leaves the default port out
        self._allow_private, self._tls = allow_private, tls if https else None
        self.idle_since = time.monotonic()

    def connect(self) -> None:
        self.sock = connect(self.host, self.port, allow_private=self._allow_private, tls=self._tls)
        # poll, not select: a busy worker's descriptors can pass select's limit of 1024. Made once
        # per socket, as a connection is checked before each of its many reuses.
        self._poller = select.poll()
        self._poller.register(self.sock, select.POLLIN)

    def still_usable(self) -> bool:
        """Kept open, not idle too long, and the receiver has not closed it (nothing to read)."""
        if self.sock is None or time.monotonic() - self.idle_since > KEEP_ALIVE_SECONDS:
            return False
        return not self._poller.poll(0)


@dataclass(frozen=True)
class Answer:
    status: int
    location: str | None
    body: bytes
    cut_off: str | None  # why the answer was not read to its end, if it was not


class DeliveryClient:
    """The worker's HTTP client: never a proxy, never a redirect, guarded sockets, kept-alive
    connections per receiver, safe to share between threads."""

    def __init__(self, *, allow_private: bool) -> None:
        self.allow_private = allow_private
        self._tls = tls_context()
        self._idle: defaultdict[tuple, list[_Connection]] = defaultdict(list)
        self._lock = threading.Lock()

    def post(self, url: str, *, body: bytes, headers: dict[str, str]) -> Answer:
        """Send once, within the attempt's deadline; raises NETWORK_ERRORS before any status."""
        parts = urlsplit(url)
        https = parts.scheme == "https"
        key = (https, parts.hostname, parts.port or (443 if https else 80))
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection, reused = self._take(key)
        try:
            try:
                connection.request("POST", target, body=body, headers=headers)
                response = connection.getresponse()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                if not reused:
                    raise
                # A kept connection the receiver closed just as it was taken: once more on a new one.
                connection.close()
                connection, reused = self._new(key), False
                connection.request("POST", target, body=body, headers=headers)
                response = connection.getresponse()
        except BaseException:
            connection.close()
            raise
        answer = _read(response)
        if answer.cut_off is None and not response.will_close:
            self._give_back(key, connection)
        else:
            connection.close()
        return answer

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, defaultdict(list)
        for connections in idle.values():
            for connection in connections:
                connection.close()

    def _take(self, key: tuple) -> tuple[_Connection, bool]:
        """A kept connection to the receiver (and True), else a new one (and False)."""
        while True:
            with self._lock:
                connection = self._idle[key].pop() if self._idle[key] else None
            if connection is None:
                return self._new(key), False
            if connection.still_usable():
                return connection, True
            connection.close()

    def _new(self, key: tuple) -> _Connection:
        https, host, port = key
        return _Connection(host, port, https=https, allow_private=self.allow_private, tls=self._tls)

    def _give_back(self, key: tuple, connection: _Connection) -> None:
        connection.idle_since = time.monotonic()
        with self._lock:
            kept = self._idle[key]
            if len(kept) < IDLE_PER_RECEIVER:
                kept.append(connection)
                return
        connection.close()


def _read(response: http.client.HTTPResponse) -> Answer:
    """The status, and the answer up to RESPONSE_BODY_LIMIT bytes; the rest is never read."""
    status, location = response.status, response.getheader("Location")
    body, cut_off = b"", None
    try:
        while len(body) < RESPONSE_BODY_LIMIT:
            chunk = response.read1(RESPONSE_BODY_LIMIT - len(body))
            if not chunk:
                break
            body += chunk
        if response.length == 0:
            response.read()  # marks a Content-Length answer finished, so the connection can go on
        if not response.isclosed():
            cut_off = "answer cut off at the size limit"
    except NETWORK_ERRORS as exc:
        # The status line arrived; only the rest of the answer was slow or broken. The receiver
        # has answered, so its status decides, and the body is what came in time.
        cut_off = f"answer cut off: {type(exc).__name__}"
    return Answer(status=status, location=location, body=body, cut_off=cut_off)


def url_problem(url: str, *, allow_private: bool) -> str | None:
    """Why `url` may not receive leads, or None. Addresses are checked again at connect time."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"not an http(s) URL: {url}"
    if parts.scheme != "https" and not allow_private:
        return (f"refused: {url} is not https (set SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS=true to allow "
                "plain http in development)")
    return None


def signed_headers(*, body: bytes, secret: str, message_id: str, idempotency_key: str, timestamp: int,
                   extra_secrets: Sequence[str] = ()) -> dict[str, str]:
    """The headers of every request to a receiver: its kind, the idempotency key and the signatures."""
    # Identity encoding: the answer is read raw up to a byte limit, never decompressed.
    headers = {"Content-Type": "application/json", "Idempotency-Key": idempotency_key,
               "User-Agent": "ServiceMatch-Delivery/1", "Accept-Encoding": "identity",
               **webhook_headers(secret=secret, message_id=message_id, timestamp=timestamp, body=body,
                                 extra_secrets=extra_secrets)}
    if secret:
        headers[SIGNATURE_HEADER] = signature_header(secret=secret, body=body, timestamp=timestamp,
                                                     extra_secrets=extra_secrets)
    return headers


def post_signed(
    *, client: DeliveryClient, url: str, body: bytes, secret: str, message_id: str,
    idempotency_key: str, timestamp: int, timeout: float, allow_private: bool = True,
    extra_secrets: Sequence[str] = (),
) -> SendResult:
    """Send once within `timeout` seconds in all; never raises for network trouble.

    `message_id` is the `webhook-id`: the same on every retry of one message (callers pass the
    delivery's id), so a receiver can drop repeats. `extra_secrets` sign it too, after `secret`
    (a rotated-out secret during its overlap: signing.overlap_secrets).
    """
    problem = url_problem(url, allow_private=allow_private)
    if problem:
        return SendResult(outcome=Outcome.REJECTED, target=url, duration_ms=0, error=problem, sent=False)
    headers = signed_headers(body=body, secret=secret, message_id=message_id, idempotency_key=idempotency_key,
                             timestamp=timestamp, extra_secrets=extra_secrets)
    started = time.perf_counter()
    try:
        with attempt_deadline(timeout):
            answer = client.post(url, body=body, headers=headers)
    except PrivateAddressRefused as exc:
        return SendResult(outcome=Outcome.REJECTED, target=url, duration_ms=_elapsed_ms(started),
                          error=str(exc)[:500], sent=False)
    except NETWORK_ERRORS as exc:
        return SendResult(outcome=Outcome.RETRY, target=url, duration_ms=_elapsed_ms(started),
                          error=f"{type(exc).__name__}: {exc}"[:500])
    status_code, error = answer.status, answer.cut_off
    if 300 <= status_code < 400:
        error = (f"HTTP {status_code} redirect to {answer.location or '(no Location)'}: redirects are not "
                 "followed; update the receiver's URL")
    return SendResult(
        outcome=classify_http_status(status_code), target=url, duration_ms=_elapsed_ms(started),
        status_code=status_code, response_body=answer.body.decode("utf-8", errors="replace"), error=error,
    )


def signed_post(
    *, client: DeliveryClient, url: str, body: bytes, secret: str, message_id: str,
    idempotency_key: str, timestamp: int, allow_private: bool = True, extra_secrets: Sequence[str] = (),
) -> Send:
    """post_signed with everything but its timeout bound now: built on the worker's dispatcher,
    sent by a send thread with the seconds the attempt has left."""
    request = {"client": client, "url": url, "body": body, "secret": secret, "message_id": message_id,
               "idempotency_key": idempotency_key, "timestamp": timestamp, "allow_private": allow_private,
               "extra_secrets": tuple(extra_secrets)}
    return lambda deadline: post_signed(**request, timeout=deadline)


def _elapsed_ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
