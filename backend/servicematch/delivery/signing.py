"""Timestamped HMAC-SHA256 signatures that let a receiver check a request came from us."""

from __future__ import annotations

import hashlib
import hmac

SIGNATURE_HEADER = "X-ServiceMatch-Signature"
# A receiver should refuse signatures older than this, so a captured request cannot be replayed.
DEFAULT_TOLERANCE_SECONDS = 300


def signature_header(*, secret: str, body: bytes, timestamp: int) -> str:
    """The header value `t=<unix>,v1=<hex hmac_sha256(secret, "<t>.<body>")>`."""
    signed = f"{timestamp}.".encode() + body
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def verify_signature(
    *, secret: str, body: bytes, header: str, now: int, tolerance: int = DEFAULT_TOLERANCE_SECONDS
) -> bool:
    """True when `header` signs `body` with `secret` and is recent enough; what a receiver runs."""
    parts = dict(part.split("=", 1) for part in header.split(",") if "=" in part)
    try:
        timestamp = int(parts["t"])
    except (KeyError, ValueError):
        return False
    if abs(now - timestamp) > tolerance:
        return False
    expected = signature_header(secret=secret, body=body, timestamp=timestamp)
    return hmac.compare_digest(expected.split("v1=", 1)[1], parts.get("v1", ""))
