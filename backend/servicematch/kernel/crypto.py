"""Personal data at rest: AES-256-GCM encryption and keyed lookup hashes (HMAC-SHA256)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import uuid
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from servicematch.kernel.keys import KEY_BYTES, decode_data_key

NONCE_BYTES = 12
# First byte of every ciphertext, so a future key or format change can tell old rows apart.
FORMAT_VERSION = b"\x01"


class KeySettings(Protocol):
    """Where the data key comes from: `Settings` has both (the kernel reads no settings module)."""

    @property
    def data_key(self) -> str: ...

    @property
    def data_key_file(self) -> Path: ...


class DataKeyError(RuntimeError):
    """The configured data key is missing or malformed."""


@dataclass(frozen=True)
class DataCipher:
    """Encrypts one lead's personal data, bound to the lead's id so rows cannot be swapped."""

    aead: AESGCM
    lookup_key: bytes

    def encrypt(self, data: dict, *, lead_id: str) -> bytes:
        nonce = os.urandom(NONCE_BYTES)
        plaintext = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
        return FORMAT_VERSION + nonce + self.aead.encrypt(nonce, plaintext, _associated(lead_id))

    def decrypt(self, blob: bytes, *, lead_id: str) -> dict:
        if blob[:1] != FORMAT_VERSION:
            raise DataKeyError("personal data was written in an unknown format")
        nonce, ciphertext = blob[1 : 1 + NONCE_BYTES], blob[1 + NONCE_BYTES :]
        return json.loads(self.aead.decrypt(nonce, ciphertext, _associated(lead_id)))

    def lookup_hash(self, kind: str, normalised_value: str) -> str:
        """A keyed hash: equal values match, yet the hash alone cannot be reversed by guessing."""
        message = f"{kind}:{normalised_value}".encode()
        return hmac.new(self.lookup_key, message, hashlib.sha256).hexdigest()


def _associated(lead_id: str) -> bytes:
    return f"lead:{lead_id}".encode()


def _decode_key(encoded: str, source: str) -> bytes:
    try:
        return decode_data_key(encoded)
    except ValueError as exc:
        raise DataKeyError(f"{source} {exc}") from exc


def _key_from_file(path: Path) -> bytes:
    """Read the key file, creating it (mode 0600) on first use; safe when threads or processes race."""
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write the whole key to a private file, then link it into place: the link either
        # appears complete or fails because a racing twin's key is already there.
        draft = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex}")
        descriptor = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(generate_data_key() + "\n")
        try:
            os.link(draft, path)
        except FileExistsError:
            pass
        finally:
            draft.unlink()
    return _decode_key(path.read_text(encoding="ascii"), str(path))


@lru_cache(maxsize=8)
def _cipher(data_key: str, data_key_file: str) -> DataCipher:
    if data_key:
        key = _decode_key(data_key, "SERVICEMATCH_DATA_KEY")
    else:
        key = _key_from_file(Path(data_key_file))
    lookup_key = HKDF(
        algorithm=hashes.SHA256(), length=KEY_BYTES, salt=None, info=b"servicematch lead lookup hash"
    ).derive(key)
    return DataCipher(aead=AESGCM(key), lookup_key=lookup_key)


def cipher_for(settings: KeySettings) -> DataCipher:
    """The cipher for these settings: the configured key, else the generated key file."""
    return _cipher(settings.data_key, str(settings.data_key_file))


def generate_data_key() -> str:
    """A fresh key in the form SERVICEMATCH_DATA_KEY expects."""
    return base64.b64encode(os.urandom(KEY_BYTES)).decode()
