"""A contact (an e-mail address or a phone number) and the leads that carry it.

Leads are found through intake's keyed lookup hashes, never by decrypting every row.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from servicematch.errors import ServiceMatchError
from servicematch.inbound.validation import check_email, normalise_email, phone_digits
from servicematch.intake.models import Lead
from servicematch.kernel.crypto import cipher_for
from servicematch.settings import Settings

NEED_ONE = "Enter the e-mail address or the phone number you gave us."


def aware(value: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; everything stored is UTC."""
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def contact_key(*, settings: Settings, email: str = "", phone: str = "") -> tuple[str, str]:
    """(key, normalised value) for what the person typed; a clear 422 when it cannot be one."""
    cipher = cipher_for(settings)
    if email.strip():
        problem = check_email(email)
        if problem:
            raise ServiceMatchError(problem, fields={"email": problem}, status_code=422)
        value = normalise_email(email)
        return f"email:{cipher.lookup_hash('email', value)}", value
    if phone.strip():
        digits, problem = phone_digits(phone)
        if problem or digits is None:
            message = problem or "Invalid phone number"
            raise ServiceMatchError(message, fields={"phone": message}, status_code=422)
        return f"phone:{cipher.lookup_hash('phone', digits)}", digits
    raise ServiceMatchError(NEED_ONE, fields={"email": NEED_ONE}, status_code=422)


def keys_of_lead(lead: Lead) -> list[str]:
    keys = []
    if lead.email_hash:
        keys.append(f"email:{lead.email_hash}")
    if lead.phone_hash:
        keys.append(f"phone:{lead.phone_hash}")
    return keys


def leads_of(*, session: Session, keys: list[str]) -> list[Lead]:
    """Every lead carrying one of these contact keys, oldest first."""
    emails = [key.split(":", 1)[1] for key in keys if key.startswith("email:")]
    phones = [key.split(":", 1)[1] for key in keys if key.startswith("phone:")]
    conditions = []
    if emails:
        conditions.append(Lead.email_hash.in_(emails))
    if phones:
        conditions.append(Lead.phone_hash.in_(phones))
    if not conditions:
        return []
    return list(session.scalars(select(Lead).where(or_(*conditions)).order_by(Lead.created_at)))


def email_on_file(*, session: Session, settings: Settings, key: str) -> str | None:
    """The e-mail address of the newest lead with this contact key that still has one."""
    from servicematch.intake.payload import decrypt_personal_data

    for lead in reversed(leads_of(session=session, keys=[key])):
        if not lead.personal_data:
            continue
        email = decrypt_personal_data(lead=lead, settings=settings).get("contact", {}).get("email")
        if email:
            return email
    return None
