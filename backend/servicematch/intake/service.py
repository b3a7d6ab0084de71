"""Store an accepted lead: one transaction holds the lead, its consent record and delivery's rows."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from servicematch.catalog.loader import CatalogIndex
from servicematch.errors import ServiceMatchError
from servicematch.settings import Settings

from .checks import CheckedLead
from .consent import ConsentEvidence, build_consent_record
from .crypto import cipher_for
from .models import Lead, new_id, utcnow
from .validation import normalise_email

log = logging.getLogger("servicematch.intake")

REUSED_REQUEST_ID = "This requestId was already used for a different submission."
# Called inside the lead's transaction, after the lead and its consent record are added to the
# session but before they are flushed (autoflush is off meanwhile): hook(session, lead,
# buyer_payload). Whatever a hook adds commits or rolls back with the lead.
LeadStoredHook = Callable[[Session, Lead, dict], None]
_lead_stored_hooks: list[LeadStoredHook] = []


def on_lead_stored(hook: LeadStoredHook) -> LeadStoredHook:
    """Register a hook run in the same transaction as every new lead (usable as a decorator)."""
    if hook not in _lead_stored_hooks:
        _lead_stored_hooks.append(hook)
    return hook


def remove_lead_stored_hook(hook: LeadStoredHook) -> None:
    """Unregister a hook added with on_lead_stored."""
    if hook in _lead_stored_hooks:
        _lead_stored_hooks.remove(hook)


def fingerprint(body: dict) -> str:
    """A digest of the submission that ignores key order and the single-use reCAPTCHA token."""
    meaningful = {key: value for key, value in body.items() if key != "recaptchaToken"}
    return hashlib.sha256(json.dumps(meaningful, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def find_replay(*, session: Session, request_id: str, request_hash: str) -> Lead | None:
    """The lead an earlier identical request created; 409 when the requestId meant something else."""
    lead = session.scalars(select(Lead).where(Lead.request_id == request_id)).one_or_none()
    if lead is not None and lead.request_hash != request_hash:
        raise ServiceMatchError(REUSED_REQUEST_ID, fields={"requestId": REUSED_REQUEST_ID}, status_code=409)
    return lead


def _is_duplicate(*, session: Session, service: str, phone_hash: str | None, settings: Settings) -> bool:
    if phone_hash is None:
        return False
    since = utcnow() - timedelta(days=settings.duplicate_window_days)
    earlier = select(Lead.id).where(
        Lead.service == service, Lead.phone_hash == phone_hash, Lead.created_at >= since
    ).limit(1)
    return session.scalars(earlier).first() is not None


def build_lead(*, settings: Settings, checked: CheckedLead, request_id: str, request_hash: str,
               is_test: bool, click: dict, do_not_sell: bool) -> Lead:
    """The lead row, its personal data encrypted and its email and phone reduced to keyed hashes."""
    cipher = cipher_for(settings)
    contact = checked.contact
    lead_id = new_id()
    service = checked.service
    return Lead(
        id=lead_id,
        request_id=request_id,
        request_hash=request_hash,
        flow=checked.flow,
        vertical=service.vertical,
        service=service.id,
        category=service.hiddenParams.category,
        cid=service.cid,
        is_test=is_test,
        do_not_sell=do_not_sell,
        email_hash=cipher.lookup_hash("email", normalise_email(contact["email"])) if contact["email"] else None,
        phone_hash=cipher.lookup_hash("phone", contact["phone"]) if contact["phone"] else None,
        state=contact["state"] or None,
        zip=contact["zip"] or None,
        personal_data=cipher.encrypt(
            {"contact": contact, "answers": checked.private_answers}, lead_id=lead_id
        ),
        answers=dict(checked.answers),
        # The browser leaves ip empty; the consent record holds the address the server saw.
        click={key: value for key, value in click.items() if key != "ip"},
        created_at=utcnow(),
    )


def store_lead(*, session_factory: sessionmaker[Session], settings: Settings, index: CatalogIndex,
               lead: Lead, evidence: ConsentEvidence) -> Lead:
    """Commit the lead with its consent record and hook rows, or return the lead a racing twin stored."""
    from .payload import buyer_payload

    with session_factory() as session:
        lead.is_duplicate = _is_duplicate(session=session, service=lead.service, phone_hash=lead.phone_hash,
                                          settings=settings)
        service = index.find(lead.service, lead.vertical)
        lead.consent = build_consent_record(index=index, service=service, brand_name=settings.brand_name,
                                            evidence=evidence)
        session.add(lead)
        # Hooks read (providers, caps) before anything is written: on SQLite the first INSERT
        # takes the database's single write lock, so every read done first is time other
        # requests are not kept waiting.
        with session.no_autoflush:
            payload = buyer_payload(lead=lead, settings=settings)
            for hook in _lead_stored_hooks:
                hook(session, lead, payload)
        try:
            # The unique requestId settles races: the first insert wins, the others land below.
            session.flush()
        except IntegrityError:
            session.rollback()
            winner = find_replay(session=session, request_id=lead.request_id, request_hash=lead.request_hash)
            if winner is None:
                raise
            return winner
        session.commit()
    log.info("stored lead %s for %s/%s%s", lead.id, lead.vertical, lead.service,
             " (duplicate)" if lead.is_duplicate else "")
    return lead
