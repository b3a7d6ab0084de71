"""A buyer's API keys: made by a signed-in person, shown once, stored only as a SHA-256, revocable.

A key is `smk_` and 43 random URL-safe characters (256 bits), so its hash alone guards it; the
first characters are kept to tell keys apart in a list. Nothing here logs a key.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.buyer.auth import KEY_PREFIX, key_hash
from servicematch.buyer.models import BuyerApiKey
from servicematch.errors import NothingHere, ServiceMatchError
from servicematch.kernel.clock import utcnow

# "smk_" and four characters of the key: enough to recognise it, far too few to guess the rest.
SHOWN_CHARACTERS = len(KEY_PREFIX) + 4
MAX_NAME_LENGTH = 100
# Live keys a buyer may hold at once: one per system and environment is plenty; more is a leak waiting.
MAX_LIVE_KEYS = 25


@dataclass(frozen=True)
class NewKey:
    """A key just made: the row, and the key itself, which is never stored and shown only now."""

    key: BuyerApiKey
    secret: str


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name or len(name) > MAX_NAME_LENGTH:
        message = f"Give the key a name of 1 to {MAX_NAME_LENGTH} characters, like “CRM production”."
        raise ServiceMatchError(message, fields={"name": message}, status_code=422)
    return name


def make_key(session: Session, *, buyer_id: str, name: str, created_by: str) -> NewKey:
    """A new key for the buyer (the caller commits); 409 past MAX_LIVE_KEYS live keys."""
    name = _clean_name(name)
    live = session.scalar(select(func.count()).select_from(BuyerApiKey).where(
        BuyerApiKey.buyer_id == buyer_id, BuyerApiKey.revoked_at.is_(None)))
    if live >= MAX_LIVE_KEYS:
        raise ServiceMatchError(f"A buyer may hold {MAX_LIVE_KEYS} live keys at most: revoke one you no longer use.",
                                status_code=409)
    secret = KEY_PREFIX + secrets.token_urlsafe(32)
    key = BuyerApiKey(buyer_id=buyer_id, name=name, prefix=secret[:SHOWN_CHARACTERS], key_hash=key_hash(secret),
                      created_by=created_by, created_at=utcnow())
    session.add(key)
    session.flush()
    return NewKey(key=key, secret=secret)


def list_keys(session: Session, buyer_id: str) -> list[BuyerApiKey]:
    """The buyer's keys, live and revoked, newest first."""
    return list(session.scalars(select(BuyerApiKey).where(BuyerApiKey.buyer_id == buyer_id)
                                .order_by(BuyerApiKey.created_at.desc(), BuyerApiKey.id)))


def revoke_key(session: Session, *, buyer_id: str, key_id: str) -> BuyerApiKey:
    """Revoke one of the buyer's keys (the caller commits); another buyer's key, or none, is NothingHere.
    Revoking a revoked key changes nothing."""
    key = session.get(BuyerApiKey, key_id) if len(key_id) <= 36 else None
    if key is None or key.buyer_id != buyer_id:
        raise NothingHere()
    if key.revoked_at is None:
        key.revoked_at = utcnow()
    return key
