"""The status token: what lets the browser that submitted a lead, and nobody else, read what became
of it (GET /api/leads/{requestId}/status, servicematch.routing.status).

HMAC-SHA256 of the lead's id with a key derived for this use alone. The submit answer carries it
(a replay gets the same one, since it depends on nothing but the lead), the browser keeps it in
the thank-you page's history state and sends it in a header, never in a URL. Nothing is stored.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from functools import lru_cache

from servicematch.kernel.keys import derive_key
from servicematch.settings import Settings

STATUS_TOKEN_HEADER = "X-Status-Token"
PURPOSE = "lead status"


@lru_cache(maxsize=8)
def _key(secret_key: str) -> bytes:
    # Derived once per secret: every submission signs, and HKDF costs more than the HMAC.
    return derive_key(secret_key, PURPOSE)


def status_token(settings: Settings, lead_id: str) -> str:
    digest = hmac.new(_key(settings.secret_key), lead_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def status_token_matches(settings: Settings, lead_id: str, token: str) -> bool:
    # Bytes: compare_digest refuses str with non-ASCII characters (a TypeError, so a 500).
    return bool(token) and hmac.compare_digest(status_token(settings, lead_id).encode(),
                                               token.encode("utf-8", "replace"))
