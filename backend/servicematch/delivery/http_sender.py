"""POST a JSON body, signed, with an idempotency key, and turn the answer into a SendResult."""

from __future__ import annotations

import json
import time

import httpx

from servicematch.delivery.outcome import Outcome, SendResult, cap_body, classify_http_status
from servicematch.delivery.signing import SIGNATURE_HEADER, signature_header


def encode_body(payload: dict) -> bytes:
    """The exact bytes that are signed and sent."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def post_signed(
    *, client: httpx.Client, url: str, body: bytes, secret: str, idempotency_key: str,
    timestamp: int, timeout: float,
) -> SendResult:
    """Send once; never raises for network trouble, which is just another retryable result."""
    headers = {"Content-Type": "application/json", "Idempotency-Key": idempotency_key,
               "User-Agent": "ServiceMatch-Delivery/1"}
    if secret:
        headers[SIGNATURE_HEADER] = signature_header(secret=secret, body=body, timestamp=timestamp)
    started = time.perf_counter()
    try:
        response = client.post(url, content=body, headers=headers, timeout=timeout)
    except httpx.HTTPError as exc:
        return SendResult(outcome=Outcome.RETRY, target=url, duration_ms=_elapsed_ms(started),
                          error=f"{type(exc).__name__}: {exc}"[:500])
    return SendResult(
        outcome=classify_http_status(response.status_code), target=url,
        duration_ms=_elapsed_ms(started), status_code=response.status_code,
        response_body=cap_body(response.text),
    )


def _elapsed_ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)
