"""Personal data at rest: AES-256-GCM encryption and keyed lookup hashes (HMAC-SHA256).

Every value names the key that made it: 0x02, the key's id (4 bytes), the nonce, the ciphertext.
Values written before key ids (0x01, the nonce, the ciphertext) are still read, by trying each
configured key. The current key (SERVICEMATCH_DATA_KEY) encrypts; it and every earlier key
(SERVICEMATCH_DATA_KEYS_OLD) decrypt, so `servicematch keys rotate` can re-encrypt while the site
runs. Lookup hashes stay keyed by the first data key ever used (the last of the earlier keys):
opt-outs, privacy requests and erased leads keep nothing but the hash, so no rotation could
recompute them (docs/operations.md, "Key rotation").
"""

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

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from servicematch.kernel.keys import KEY_BYTES, decode_data_key, decode_old_data_keys

NONCE_BYTES = 12
# The first byte of every ciphertext: its format.
UNKEYED_FORMAT = b"\x01"  # before key ids: 0x01 | nonce | ciphertext
KEYED_FORMAT = b"\x02"  # 0x02 | key id | nonce | ciphertext
KEY_ID_BYTES = 4
HEADER_BYTES = len(KEYED_FORMAT) + KEY_ID_BYTES


class KeySettings(Protocol):
    """Where the data keys come from: `Settings` has them all (the kernel reads no settings module)."""

    @property
    def data_key(self) -> str: ...

    @property
    def data_key_file(self) -> Path: ...

    @property
    def data_keys_old(self) -> str: ...


class DataKeyError(RuntimeError):
    """The configured data key is missing or malformed."""


class UnknownDataKey(DataKeyError, InvalidTag):
    """A value made by a key that is not configured (an InvalidTag too: to its readers, it is a
    value that cannot be decrypted)."""


def key_id_of(key: bytes) -> bytes:
    """A short public name for a key: it says which key made a value, and nothing of the key."""
    return hashlib.sha256(b"servicematch data key id:" + key).digest()[:KEY_ID_BYTES]


@dataclass(frozen=True, eq=False)
class DataCipher:
    """Encrypts personal data, each value bound to the name of what it belongs to (a lead's id, a
    privacy request's, an account's) so values cannot be swapped between rows."""

    key_id: bytes  # the current key's: it makes every new value
    aeads: dict[bytes, AESGCM]  # every configured key by id, the current one first
    lookup_key: bytes

    @property
    def header(self) -> bytes:
        """How every value the current key makes begins."""
        return KEYED_FORMAT + self.key_id

    def encrypt(self, data: dict, *, lead_id: str) -> bytes:
        return self.seal(json.dumps(data, separators=(",", ":"), sort_keys=True).encode(), lead_id)

    def decrypt(self, blob: bytes, *, lead_id: str) -> dict:
        return json.loads(self.open(blob, lead_id))

    def seal(self, plaintext: bytes, name: str) -> bytes:
        nonce = os.urandom(NONCE_BYTES)
        return self.header + nonce + self.aeads[self.key_id].encrypt(nonce, plaintext, _associated(name))

    def open(self, blob: bytes, name: str) -> bytes:
        """The plaintext of a value of either format; UnknownDataKey when its key is not configured,
        InvalidTag when it was changed or belongs to another name."""
        blob = bytes(blob)
        if blob[:1] == KEYED_FORMAT:
            made_by = blob[1:HEADER_BYTES]
            aead = self.aeads.get(made_by)
            if aead is None:
                raise UnknownDataKey(f"personal data was encrypted with data key {made_by.hex()}, which is not "
                                     "configured: add it to SERVICEMATCH_DATA_KEYS_OLD")
            nonce = blob[HEADER_BYTES : HEADER_BYTES + NONCE_BYTES]
            return aead.decrypt(nonce, blob[HEADER_BYTES + NONCE_BYTES :], _associated(name))
        if blob[:1] == UNKEYED_FORMAT:
            nonce, ciphertext = blob[1 : 1 + NONCE_BYTES], blob[1 + NONCE_BYTES :]
            failure: InvalidTag | None = None
            for aead in self.aeads.values():  # the current key first: most values are its
                try:
                    return aead.decrypt(nonce, ciphertext, _associated(name))
                except InvalidTag as exc:
                    failure = exc
            raise failure or InvalidTag()
        raise DataKeyError("personal data was written in an unknown format")

    def reseal(self, blob: bytes, name: str) -> bytes:
        """The same plaintext, encrypted anew with the current key."""
        return self.seal(self.open(blob, name), name)

    def lookup_hash(self, kind: str, normalised_value: str) -> str:
        """A keyed hash: equal values match, yet the hash alone cannot be reversed by guessing."""
        message = f"{kind}:{normalised_value}".encode()
        return hmac.new(self.lookup_key, message, hashlib.sha256).hexdigest()


def made_by(blob: bytes) -> bytes | None:
    """The id of the key that made a value; None for a value written before key ids."""
    blob = bytes(blob)
    return blob[1:HEADER_BYTES] if blob[:1] == KEYED_FORMAT else None


def _associated(name: str) -> bytes:
    return f"lead:{name}".encode()


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


def lookup_key_of(first_key: bytes) -> bytes:
    """The lookup hashes' key, derived from the first data key ever used."""
    return HKDF(algorithm=hashes.SHA256(), length=KEY_BYTES, salt=None,
                info=b"servicematch lead lookup hash").derive(first_key)


@lru_cache(maxsize=8)
def _keys(data_key: str, data_key_file: str, data_keys_old: str) -> tuple[bytes, ...]:
    current = _decode_key(data_key, "SERVICEMATCH_DATA_KEY") if data_key else _key_from_file(Path(data_key_file))
    try:
        earlier = decode_old_data_keys(data_keys_old)
    except ValueError as exc:
        raise DataKeyError(f"SERVICEMATCH_DATA_KEYS_OLD {exc}") from None
    return (current, *earlier)


def data_keys(settings: KeySettings) -> tuple[bytes, ...]:
    """The current data key (the configured one, else the generated key file's), then each earlier
    one as SERVICEMATCH_DATA_KEYS_OLD lists them, newest first: the last is the first ever used."""
    return _keys(settings.data_key, str(settings.data_key_file), getattr(settings, "data_keys_old", ""))


@lru_cache(maxsize=8)
def _cipher(keys: tuple[bytes, ...]) -> DataCipher:
    by_id = {key_id_of(key): key for key in keys}
    return DataCipher(key_id=key_id_of(keys[0]), aeads={kid: AESGCM(key) for kid, key in by_id.items()},
                      lookup_key=lookup_key_of(keys[-1]))


def cipher_for(settings: KeySettings) -> DataCipher:
    """The cipher for these settings: the configured key (else the generated key file) and the earlier keys."""
    return _cipher(data_keys(settings))


def generate_data_key() -> str:
    """A fresh key in the form SERVICEMATCH_DATA_KEY expects."""
    return base64.b64encode(os.urandom(KEY_BYTES)).decode()
