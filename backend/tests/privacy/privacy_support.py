"""Read-backs for the privacy tests: mail by recipient, codes, links and a whole-database dump."""

from __future__ import annotations

import email
import re
from email import policy

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from servicematch.delivery.models import Delivery
from servicematch.kernel.crypto import cipher_for
from servicematch.kernel.orm import Base

# In the specification's whsec_ form: base64 of b"provider-webhook-secret-for-tests" (the buyer's
# secret is one an operator typed).
PROVIDER_SECRET = "whsec_cHJvdmlkZXItd2ViaG9vay1zZWNyZXQtZm9yLXRlc3Rz"
CONTACT = {
    "first": "Maria", "last": "Garcia", "email": "maria.garcia@example.com", "phone": "5125550142",
    "address1": "500 Congress Ave", "address2": "Unit 4", "city": "Austin", "state": "TX", "zip": "78701",
}


def mails_to(smtp, address: str) -> list:
    return [email.message_from_string(content, policy=policy.default)
            for recipients, content in list(smtp.messages) if address in recipients]


def text_of(message) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def wait_for_mail(smtp, address: str, count: int = 1) -> list:
    smtp._changed.acquire()
    try:
        assert smtp._changed.wait_for(lambda: len(mails_to(smtp, address)) >= count, 20), (
            f"expected {count} messages to {address}")
    finally:
        smtp._changed.release()
    return mails_to(smtp, address)


def code_in(message) -> str:
    return re.search(r"\b(\d{6})\b", text_of(message)).group(1)


def stop_token_in(message) -> str:
    return re.search(r"/privacy/stop\?t=([\w\-.]+)", text_of(message)).group(1)


def deliveries(session_factory, lead_id: str, payload_kind: str | None = None) -> list[Delivery]:
    with session_factory() as session:
        query = select(Delivery).where(Delivery.lead_id == lead_id).options(selectinload(Delivery.attempts))
        if payload_kind:
            query = query.where(Delivery.payload_kind == payload_kind)
        return list(session.scalars(query.order_by(Delivery.kind, Delivery.target_key)))


def database_dump(session: Session, settings) -> str:
    """Every row of every table as text, with every encrypted value decrypted: what someone holding
    both a copy of the database and the data key would read."""
    cipher = cipher_for(settings)
    lines = []
    for table in Base.metadata.sorted_tables:
        for row in session.execute(select(table)).mappings():
            values = dict(row)
            for name, value in values.items():
                if isinstance(value, bytes | memoryview):
                    blob = bytes(value)
                    owner = (f"privacy-request:{values['id']}" if table.name == "privacy_requests"
                             else values.get("id"))
                    try:
                        values[name] = cipher.decrypt(blob, lead_id=owner)
                    except Exception:  # noqa: BLE001 - not ours to read: kept as raw bytes
                        values[name] = blob.decode("latin-1")
            lines.append(f"{table.name}: {values}")
    return "\n".join(lines)
