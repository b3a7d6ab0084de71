"""Passwords: Argon2id hashes, a decoy for unknown accounts, and the length rule."""

from __future__ import annotations

import re
from functools import lru_cache

from argon2 import PasswordHasher, profiles
from argon2.exceptions import InvalidHashError, VerificationError

from servicematch.errors import ServiceMatchError

MIN_PASSWORD_LENGTH = 12
MAX_PASSWORD_LENGTH = 256
EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

# Argon2id with RFC 9106's low-memory profile (argon2-cffi's default): 64 MiB, 3 passes.
PASSWORD_HASHING = profiles.RFC_9106_LOW_MEMORY
_hasher = PasswordHasher.from_parameters(PASSWORD_HASHING)


@lru_cache(maxsize=1)
def _decoy_hash() -> str:
    """A hash to verify against when the account does not exist, so both cases take as long."""
    return _hasher.hash("no such account: the decoy keeps timing equal")


def normalise_email(email: str) -> str:
    return email.strip().lower()


def check_password_strength(password: str) -> None:
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ServiceMatchError(f"The password needs at least {MIN_PASSWORD_LENGTH} characters.",
                                fields={"password": "too short"}, status_code=422)
    if len(password) > MAX_PASSWORD_LENGTH:
        raise ServiceMatchError(f"The password may have at most {MAX_PASSWORD_LENGTH} characters.",
                                fields={"password": "too long"}, status_code=422)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def password_matches(stored_hash: str | None, password: str) -> bool:
    """True when the password is the one behind `stored_hash`; with no hash (no account, or one
    whose password is not set yet) Argon2 still runs, on the decoy, and the answer is False."""
    try:
        _hasher.verify(stored_hash or _decoy_hash(), password[:MAX_PASSWORD_LENGTH])
    except (VerificationError, InvalidHashError):
        return False
    return stored_hash is not None
