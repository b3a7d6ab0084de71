"""Leads written straight into the table with personal data sealed by a given key, in either format:
as they were before key ids (0x01) or as they are now (0x02 and the key's id). Shared by the key
rotation tests of privacy/ and ops/."""

from __future__ import annotations

import base64
import json
import os
import uuid

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from sqlalchemy import Engine, insert, select

from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.kernel.crypto import KEYED_FORMAT, NONCE_BYTES, UNKEYED_FORMAT, key_id_of


def new_key() -> str:
    return base64.b64encode(os.urandom(32)).decode()


def raw(key: str) -> bytes:
    return base64.b64decode(key)


def seal(key: str, data: dict, name: str, *, keyed: bool = True) -> bytes:
    """What kernel.crypto writes for `name` under `key`; `keyed=False`: as it wrote before key ids."""
    nonce = os.urandom(NONCE_BYTES)
    header = KEYED_FORMAT + key_id_of(raw(key)) if keyed else UNKEYED_FORMAT
    plaintext = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    return header + nonce + AESGCM(raw(key)).encrypt(nonce, plaintext, f"lead:{name}".encode())


def contact(number: int) -> dict:
    return {"first": "Maria", "last": f"Garcia{number}", "email": f"maria{number}@example.com",
            "phone": f"512555{number % 10_000:04d}", "address1": "500 Congress Ave", "address2": "",
            "city": "Austin", "state": "TX", "zip": "78701"}


def insert_leads(engine: Engine, key: str, count: int, *, keyed: bool = True, lookup=None) -> list[str]:
    """`count` HVAC leads whose personal data `key` sealed; `lookup`: a cipher whose lookup hashes
    they carry (none by default). Their ids, in the order written."""
    rows = []
    for number in range(count):
        lead_id = str(uuid.uuid4())
        person = contact(number)
        rows.append({
            "id": lead_id, "request_id": str(uuid.uuid4()), "reference": uuid.uuid4().hex[:8].upper(),
            "request_hash": "h", "flow": "form", "vertical": "services", "service": "hvac",
            "category": "HVAC", "cid": 1, "is_test": False, "is_duplicate": False, "do_not_sell": False,
            "email_hash": lookup.lookup_hash("email", person["email"]) if lookup else None,
            "phone_hash": lookup.lookup_hash("phone", person["phone"]) if lookup else None,
            "state": "TX", "zip": "78701", "answers": {}, "click": {}, "created_at": utcnow(),
            "personal_data": seal(key, {"contact": person, "answers": {}}, lead_id, keyed=keyed)})
    with engine.begin() as connection:
        connection.execute(insert(Lead.__table__), rows)
    return [row["id"] for row in rows]


def values(engine: Engine) -> dict[str, bytes]:
    """Every lead's personal data by lead id."""
    with engine.connect() as connection:
        return {row.id: bytes(row.personal_data) for row in connection.execute(select(Lead.id, Lead.personal_data))}
