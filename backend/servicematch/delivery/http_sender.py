"""POST a JSON body, signed, with an idempotency key, and turn the answer into a SendResult."""

from __future__ import annotations

import json
import time
from urllib.parse import urlsplit

import httpcore
import httpx

from servicematch.delivery.guarded_network import (
    GuardedBackend,
    PrivateAddressRefused,
    attempt_deadline,
)
from servicematch.delivery.outcome import (
    RESPONSE_BODY_LIMIT,
    Outcome,
    Send,
    SendResult,
    classify_http_status,
)
from servicematch.delivery.signing import SIGNATURE_HEADER, signature_header


def encode_body(payload: dict) -> bytes:
    """The exact bytes that are signed and sent."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


class _GuardedTransport(httpx.HTTPTransport):
    def __init__(self, *, allow_private: bool, max_connections: int) -> None:
        super().__init__()
        # httpx builds its connection pool without a way to pass a network backend; this swaps
        # in the same pool type over the guarded backend (httpx 0.28 keeps it in `_pool`).
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(), max_connections=max_connections,
            max_keepalive_connections=max_connections, keepalive_expiry=30.0,
            network_backend=GuardedBackend(allow_private=allow_private),
        )


def delivery_client(*, allow_private: bool, max_connections: int) -> httpx.Client:
    """The worker's HTTP client: no redirects, no proxies from the environment, guarded sockets."""
    return httpx.Client(
        transport=_GuardedTransport(allow_private=allow_private, max_connections=max_connections),
        follow_redirects=False, trust_env=False,
    )


def url_problem(url: str, *, allow_private: bool) -> str | None:
    """Why `url` may not receive leads, or None. Addresses are checked again at connect time."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return f"not an http(s) URL: {url}"
    if parts.scheme != "https" and not allow_private:
        return (f"refused: {url} is not https (set SERVICEMATCH_ALLOW_PRIVATE_WEBHOOKS=true to allow "
                "plain http in development)")
    return None


def post_signed(
    *, client: httpx.Client, url: str, body: bytes, secret: str, idempotency_key: str,
    timestamp: int, timeout: float, allow_private: bool = True,
) -> SendResult:
    """Send once within `timeout` seconds in all; never raises for network trouble."""
    problem = url_problem(url, allow_private=allow_private)
    if problem:
        return SendResult(outcome=Outcome.REJECTED, target=url, duration_ms=0, error=problem, sent=False)
    # Identity encoding: the answer is read raw up to a byte limit, never decompressed.
    headers = {"Content-Type": "application/json", "Idempotency-Key": idempotency_key,
               "User-Agent": "ServiceMatch-Delivery/1", "Accept-Encoding": "identity"}
    if secret:
        headers[SIGNATURE_HEADER] = signature_header(secret=secret, body=body, timestamp=timestamp)
    started = time.perf_counter()
    status_code, location, answer, cut_off = None, None, b"", None
    try:
        with attempt_deadline(timeout), client.stream(
            "POST", url, content=body, headers=headers, timeout=timeout,
        ) as response:
            status_code, location = response.status_code, response.headers.get("Location")
            for chunk in response.iter_raw():
                answer += chunk
                if len(answer) >= RESPONSE_BODY_LIMIT:
                    cut_off = "answer cut off at the size limit"
                    break
    except PrivateAddressRefused as exc:
        return SendResult(outcome=Outcome.REJECTED, target=url, duration_ms=_elapsed_ms(started),
                          error=str(exc)[:500], sent=False)
    except httpx.HTTPError as exc:
        if status_code is None:
            return SendResult(outcome=Outcome.RETRY, target=url, duration_ms=_elapsed_ms(started),
                              error=f"{type(exc).__name__}: {exc}"[:500])
        # The status line arrived; only the rest of the answer was slow or broken. The receiver
        # has answered, so its status decides, and the body is what came in time.
        cut_off = f"answer cut off: {type(exc).__name__}"
    outcome = classify_http_status(status_code)
    error = cut_off
    if 300 <= status_code < 400:
        error = (f"HTTP {status_code} redirect to {location or '(no Location)'}: redirects are not "
                 "followed; update the receiver's URL")
    return SendResult(
        outcome=outcome, target=url, duration_ms=_elapsed_ms(started), status_code=status_code,
        response_body=answer[:RESPONSE_BODY_LIMIT].decode("utf-8", errors="replace"), error=error,
    )


def signed_post(**request) -> Send:
    """post_signed with everything but its timeout bound now: built on the worker's dispatcher,
    sent by a send thread with the seconds the attempt has left."""
    return lambda deadline: post_signed(**request, timeout=deadline)


def _elapsed_ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
