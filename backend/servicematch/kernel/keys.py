"""Keys derived from the master secret (SERVICEMATCH_SECRET_KEY), one per purpose.

Each use of a secret (signing links, CSRF tokens, ...) gets its own key, derived with HKDF-SHA256
and the purpose as `info`, so a key leaked or misused in one place says nothing about another
and no purpose ever handles the master secret itself.

Rotation: whatever is signed is signed with the current secret's key; whatever is checked is
accepted under the current secret's key or under any earlier secret's (SERVICEMATCH_SECRET_KEYS_OLD),
so links, codes and tokens signed before a rotation keep working until they expire.
"""

from __future__ import annotations

import base64
import binascii
from functools import lru_cache
from typing import Protocol

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

KEY_BYTES = 32
# Fixed and public: HKDF's salt separates this application's keys from any other use of the secret.
SALT = b"servicematch.derive_key.v1"


class SecretSettings(Protocol):
    """The current secret and the earlier ones, comma-separated (`Settings` has both)."""

    @property
    def secret_key(self) -> str: ...

    @property
    def secret_keys_old(self) -> str: ...


def derive_key(secret: str, purpose: str, length: int = KEY_BYTES) -> bytes:
    """`length` bytes for `purpose`; the same secret and purpose always give the same key."""
    if not purpose:
        raise ValueError("a derived key needs a purpose")
    hkdf = HKDF(algorithm=hashes.SHA256(), length=length, salt=SALT, info=purpose.encode())
    return hkdf.derive(secret.encode())


def listed(text: str) -> list[str]:
    """The entries of a comma-separated setting, trimmed, empty ones left out."""
    return [entry.strip() for entry in (text or "").split(",") if entry.strip()]


@lru_cache(maxsize=64)
def _purpose_keys(secret: str, old_secrets: str, purpose: str) -> tuple[bytes, ...]:
    # Derived once per configuration: HKDF costs more than the HMAC each check makes.
    secrets = dict.fromkeys([secret, *listed(old_secrets)])
    return tuple(derive_key(each, purpose) for each in secrets)


def signing_key(settings: SecretSettings, purpose: str) -> bytes:
    """The key that signs for `purpose` now: the current secret's."""
    return _purpose_keys(settings.secret_key, getattr(settings, "secret_keys_old", ""), purpose)[0]


def checking_keys(settings: SecretSettings, purpose: str) -> tuple[bytes, ...]:
    """Every key a signature for `purpose` is accepted under: the current secret's first, then
    each earlier secret's."""
    return _purpose_keys(settings.secret_key, getattr(settings, "secret_keys_old", ""), purpose)


def decode_data_key(encoded: str) -> bytes:
    """The 32-byte data key from its base64 text; ValueError saying what is wrong with it."""
    try:
        key = base64.b64decode(encoded.strip(), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError("is not valid base64") from exc
    if len(key) != KEY_BYTES:
        raise ValueError(f"must decode to {KEY_BYTES} bytes, not {len(key)}")
    return key


def decode_old_data_keys(encoded: str) -> list[bytes]:
    """The earlier data keys of SERVICEMATCH_DATA_KEYS_OLD (base64, comma-separated, newest first);
    ValueError naming the entry that cannot be read (by its place, never its text)."""
    keys = []
    for place, entry in enumerate(listed(encoded), start=1):
        try:
            keys.append(decode_data_key(entry))
        except ValueError as exc:
            raise ValueError(f"entry {place} {exc}") from None
    return keys
