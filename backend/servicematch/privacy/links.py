"""Signed, expiring links (a receipt's stop link): HMAC-SHA256 with a key derived for this use only.

A token is `<payload>.<signature>`, both base64url; the payload names the lead, the link's own
id (so a used link can be refused) and its expiry. It holds no personal data, since URLs end up
in browser histories and mail-scanner logs.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.kernel.ids import new_id
from servicematch.kernel.keys import checking_keys, signing_key
from servicematch.settings import Settings

# Consent may be withdrawn at any time; after this, /privacy/choices does the same by code.
STOP_LINK_LIFETIME = timedelta(days=365)
TAMPERED = ("This link is not valid: it may have been changed or cut short. Copy the whole link "
            "from the e-mail, or use Your Privacy Choices to stop contact with a code.")
EXPIRED = ("This link has expired. Use Your Privacy Choices to stop contact: we send a code to "
           "the e-mail address you gave us.")


@dataclass(frozen=True)
class LinkClaims:
    purpose: str
    lead_id: str
    link_id: str
    expires_at: datetime


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _signature(key: bytes, payload: str) -> str:
    return _b64(hmac.new(key, payload.encode(), hashlib.sha256).digest())


def _genuine(settings: Settings, payload: str, signature: str) -> bool:
    # Signed with the current secret or an earlier one (SERVICEMATCH_SECRET_KEYS_OLD): a link
    # mailed before a rotation works until it expires.
    return bool(payload) and any(hmac.compare_digest(_signature(key, payload).encode(), signature.encode())
                                 for key in checking_keys(settings, "privacy.links"))


def sign_link(*, settings: Settings, purpose: str, lead_id: str, now: datetime | None = None,
              lifetime: timedelta = STOP_LINK_LIFETIME) -> str:
    expires = int(((now or utcnow()) + lifetime).timestamp())
    payload = _b64(json.dumps({"p": purpose, "l": lead_id, "i": new_id(), "x": expires},
                              separators=(",", ":")).encode())
    return f"{payload}.{_signature(signing_key(settings, 'privacy.links'), payload)}"


def read_link(*, settings: Settings, token: str, purpose: str, now: datetime | None = None) -> LinkClaims:
    """The claims of a genuine, unexpired token for `purpose`; a clear 400 otherwise."""
    payload, _, signature = (token or "").strip().partition(".")
    # Bytes: compare_digest refuses str with non-ASCII characters (a TypeError, so a 500).
    if not _genuine(settings, payload, signature):
        raise ServiceMatchError(TAMPERED, fields={"token": TAMPERED})
    try:
        claims = json.loads(_unb64(payload))
        parsed = LinkClaims(purpose=str(claims["p"]), lead_id=str(claims["l"]), link_id=str(claims["i"]),
                            expires_at=datetime.fromtimestamp(int(claims["x"]), tz=utcnow().tzinfo))
    except (ValueError, KeyError, TypeError, binascii.Error) as exc:
        raise ServiceMatchError(TAMPERED, fields={"token": TAMPERED}) from exc
    if parsed.purpose != purpose:
        raise ServiceMatchError(TAMPERED, fields={"token": TAMPERED})
    if parsed.expires_at <= (now or utcnow()):
        raise ServiceMatchError(EXPIRED, fields={"token": EXPIRED}, status_code=410)
    return parsed


def stop_url(*, settings: Settings, lead_id: str, now: datetime | None = None) -> str:
    token = sign_link(settings=settings, purpose="stop", lead_id=lead_id, now=now)
    return f"{settings.site_origin.rstrip('/')}/privacy/stop?t={token}"
