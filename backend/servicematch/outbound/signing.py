"""Signatures that let a receiver check a request came from us: Standard Webhooks, and the older
X-ServiceMatch-Signature header, still sent for receivers built against it.

Standard Webhooks (https://www.standardwebhooks.com/): `webhook-id` names the message (the same
on every retry of it), `webhook-timestamp` is the attempt's Unix time, and `webhook-signature` is
`v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`. The key is a `whsec_` secret's
base64-decoded bytes; any other secret (an operator's "s3cret") is used as its own UTF-8 bytes,
so a receiver verifies with the secret's bytes base64-encoded (docs/lead-payload.md).

After a buyer rotates its secret, the one it replaced keeps signing for a while: each request then
carries a signature per secret, space-separated (`v1,<new> v1,<old>`), as the specification allows,
and the deprecated header one `v1=` per secret. A receiver accepts the request when any one matches,
so it can switch to the new secret at any moment of the overlap.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime

from standardwebhooks import Webhook

from servicematch.kernel.clock import as_utc

WEBHOOK_ID_HEADER = "webhook-id"
WEBHOOK_TIMESTAMP_HEADER = "webhook-timestamp"
WEBHOOK_SIGNATURE_HEADER = "webhook-signature"
# Deprecated: `t=<unix>,v1=<hex hmac_sha256(secret, "<t>.<body>")>`, kept for existing receivers.
SIGNATURE_HEADER = "X-ServiceMatch-Signature"
# A receiver should refuse signatures older than this, so a captured request cannot be replayed.
DEFAULT_TOLERANCE_SECONDS = 300

SECRET_PREFIX = "whsec_"
# The specification asks for 24 to 64 random bytes; new secrets get 32.
MIN_SECRET_KEY_BYTES = 24
NEW_SECRET_KEY_BYTES = 32


def new_webhook_secret() -> str:
    """A new signing secret in the specification's form: `whsec_` and base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(NEW_SECRET_KEY_BYTES)).decode()


def _whsec_key(secret: str) -> bytes | None:
    """A `whsec_` secret's key bytes (missing base64 padding tolerated), or None if it is not one."""
    if not secret.startswith(SECRET_PREFIX):
        return None
    encoded = secret[len(SECRET_PREFIX):]
    try:
        return base64.b64decode(encoded + "=" * (-len(encoded) % 4), validate=True) or None
    except (binascii.Error, ValueError):
        return None


def signing_key(secret: str) -> bytes:
    """The HMAC key a secret stands for: a `whsec_` secret's decoded bytes, else its UTF-8 bytes."""
    return _whsec_key(secret) or secret.encode()


def secret_problem(secret: str | None) -> str | None:
    """Why a secret cannot be used as given, or None: a secret that starts with `whsec_` must be
    one, or receivers following the specification would derive another key than ours."""
    if not secret or not secret.startswith(SECRET_PREFIX):
        return None
    key = _whsec_key(secret)
    if key is None or len(key) < MIN_SECRET_KEY_BYTES:
        return (f"a {SECRET_PREFIX} secret must be base64 of at least {MIN_SECRET_KEY_BYTES} bytes "
                f"after the prefix (for example: {new_webhook_secret()})")
    return None


def overlap_secrets(previous: str | None, previous_until: datetime | None, *, timestamp: int) -> tuple[str, ...]:
    """The secret a rotation replaced, while it still signs (until `previous_until`), as the extra
    secrets of a request sent at `timestamp`; nothing once the overlap is over."""
    if not previous or previous_until is None or timestamp >= as_utc(previous_until).timestamp():
        return ()
    return (previous,)


def webhook_headers(*, secret: str, message_id: str, timestamp: int, body: bytes,
                    extra_secrets: Sequence[str] = ()) -> dict[str, str]:
    """The Standard Webhooks headers for one attempt: a signature per secret (`secret` first, then
    each of `extra_secrets`), space-separated; without any secret, no signature."""
    headers = {WEBHOOK_ID_HEADER: message_id, WEBHOOK_TIMESTAMP_HEADER: str(timestamp)}
    at, text = datetime.fromtimestamp(timestamp, UTC), body.decode()
    signatures = [Webhook(signing_key(key)).sign(message_id, at, text) for key in (secret, *extra_secrets) if key]
    if signatures:
        headers[WEBHOOK_SIGNATURE_HEADER] = " ".join(signatures)
    return headers


def _hex_signature(secret: str, body: bytes, timestamp: int) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def signature_header(*, secret: str, body: bytes, timestamp: int, extra_secrets: Sequence[str] = ()) -> str:
    """The deprecated header's value `t=<unix>,v1=<hex hmac_sha256(secret, "<t>.<body>")>`, with a
    further `,v1=` per extra secret; the key is the secret's UTF-8 bytes, whatever its form, as
    before Standard Webhooks."""
    signed = "".join(f",v1={_hex_signature(key, body, timestamp)}" for key in (secret, *extra_secrets) if key)
    return f"t={timestamp}{signed}"


def verify_signature(
    *, secret: str, body: bytes, header: str, now: int, tolerance: int = DEFAULT_TOLERANCE_SECONDS
) -> bool:
    """True when one of the deprecated header's `v1=` signatures signs `body` with `secret` and the
    header is recent enough (during a rotation it carries one per secret)."""
    parts = [part.split("=", 1) for part in header.split(",") if "=" in part]
    stamps = [value for name, value in parts if name.strip() == "t"]
    try:
        timestamp = int(stamps[0])
    except (IndexError, ValueError):
        return False
    if abs(now - timestamp) > tolerance:
        return False
    expected = _hex_signature(secret, body, timestamp)
    # Every candidate is compared, so the time taken says nothing about which one matched.
    matches = [hmac.compare_digest(expected, value.strip()) for name, value in parts if name.strip() == "v1"]
    return any(matches)
