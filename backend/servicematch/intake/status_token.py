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

from servicematch.kernel.keys import checking_keys, signing_key
from servicematch.settings import Settings

STATUS_TOKEN_HEADER = "X-Status-Token"
PURPOSE = "lead status"


def _token(key: bytes, lead_id: str) -> str:
    digest = hmac.new(key, lead_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def status_token(settings: Settings, lead_id: str) -> str:
    # The key is derived once per secret (kernel.keys caches it): every submission signs.
    return _token(signing_key(settings, PURPOSE), lead_id)


def status_token_matches(settings: Settings, lead_id: str, token: str) -> bool:
    # A token handed out before a secret rotation is accepted while the earlier secret is listed in
    # SERVICEMATCH_SECRET_KEYS_OLD. Bytes: compare_digest refuses str with non-ASCII characters.
    given = (token or "").encode("utf-8", "replace")
    return bool(token) and any(hmac.compare_digest(_token(key, lead_id).encode(), given)
                               for key in checking_keys(settings, PURPOSE))
