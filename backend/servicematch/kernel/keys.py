"""Keys derived from the master secret (SERVICEMATCH_SECRET_KEY), one per purpose.

Each use of a secret (signing links, CSRF tokens, ...) gets its own key, derived with HKDF-SHA256
and the purpose as `info`, so a key leaked or misused in one place says nothing about another
and no purpose ever handles the master secret itself.
"""

from __future__ import annotations

import base64
import binascii

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

KEY_BYTES = 32
# Fixed and public: HKDF's salt separates this application's keys from any other use of the secret.
SALT = b"servicematch.derive_key.v1"


def derive_key(secret: str, purpose: str, length: int = KEY_BYTES) -> bytes:
    """`length` bytes for `purpose`; the same secret and purpose always give the same key."""
    if not purpose:
        raise ValueError("a derived key needs a purpose")
    hkdf = HKDF(algorithm=hashes.SHA256(), length=length, salt=SALT, info=purpose.encode())
    return hkdf.derive(secret.encode())


def decode_data_key(encoded: str) -> bytes:
    """The 32-byte data key from its base64 text; ValueError saying what is wrong with it."""
    try:
        key = base64.b64decode(encoded.strip(), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError("is not valid base64") from exc
    if len(key) != KEY_BYTES:
        raise ValueError(f"must decode to {KEY_BYTES} bytes, not {len(key)}")
    return key
