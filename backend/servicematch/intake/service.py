"""Store accepted leads: one transaction holds each lead, its consent record and delivery's rows."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import and_, insert, inspect, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from servicematch.catalog.loader import CatalogIndex
from servicematch.errors import ServiceMatchError
from servicematch.settings import Settings

from .checks import CheckedLead
from .consent import ConsentEvidence, build_consent_record
from .crypto import cipher_for
from .models import ConsentRecord, Lead, new_id, utcnow
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
    return _replay_of(lead, request_hash) if lead is not None else None


def _replay_of(earlier: Lead, request_hash: str) -> Lead:
    if earlier.request_hash != request_hash:
        raise ServiceMatchError(REUSED_REQUEST_ID, fields={"requestId": REUSED_REQUEST_ID}, status_code=409)
    return earlier


def _earlier_leads(*, session: Session, leads: list[Lead], settings: Settings) -> tuple[dict, set]:
    """One read for a batch: stored leads with these requestIds, and (service, phone) pairs seen lately.

    Returns ({requestId: lead id}, {(service, phone hash) within the duplicate window}).
    """
    request_ids = {lead.request_id for lead in leads}
    phone_hashes = {lead.phone_hash for lead in leads if lead.phone_hash}
    since = utcnow() - timedelta(days=settings.duplicate_window_days)
    recent = and_(Lead.phone_hash.in_(phone_hashes), Lead.created_at >= since)
    # Plain columns on the session's connection: none of the ORM's per-query work is needed here.
    rows = session.connection().execute(
        select(Lead.id, Lead.request_id, Lead.service, Lead.phone_hash, recent.label("recent"))
        .where(or_(Lead.request_id.in_(request_ids), recent) if phone_hashes else Lead.request_id.in_(request_ids))
    ).all()
    stored = {row.request_id: row.id for row in rows if row.request_id in request_ids}
    seen = {(row.service, row.phone_hash) for row in rows if row.recent}
    return stored, seen


def _mark_duplicates(leads: list[Lead], seen: set[tuple[str, str]]) -> None:
    """Flag each lead whose service and phone came in during the window, earlier in the batch included."""
    for lead in leads:
        key = (lead.service, lead.phone_hash)
        lead.is_duplicate = lead.phone_hash is not None and key in seen
        seen.add(key)


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


@dataclass(frozen=True)
class NewLead:
    """A checked, encrypted lead and the consent evidence of its request, ready to store."""

    lead: Lead
    evidence: ConsentEvidence


def store_lead(*, session_factory: sessionmaker[Session], settings: Settings, index: CatalogIndex,
               lead: Lead, evidence: ConsentEvidence) -> Lead:
    """Commit one lead with its consent record and hook rows, or return the lead a twin stored."""
    (outcome,) = store_leads(session_factory=session_factory, settings=settings, index=index,
                             new_leads=[NewLead(lead, evidence)])
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def store_leads(*, session_factory: sessionmaker[Session], settings: Settings, index: CatalogIndex,
                new_leads: list[NewLead]) -> list[Lead | Exception]:
    """Commit leads in one transaction; for each, the stored lead (or its earlier twin) or its refusal.

    A requestId seen before answers with the lead it created (409 if the body differs), whether
    that lead is in the database or earlier in this batch. Should the batch fail (a twin
    committed by another process meanwhile, a hook that raises), it is rolled back and each
    lead is stored on its own, so one lead never costs another its place: a lead that fails
    alone gets its exception as its outcome. A single lead's failure is raised.
    """
    try:
        return _store_together(session_factory=session_factory, settings=settings, index=index,
                               new_leads=new_leads)
    except Exception:
        if len(new_leads) == 1:
            raise
        log.warning("storing %d leads together failed; storing each alone", len(new_leads), exc_info=True)
        return [_store_alone(session_factory=session_factory, settings=settings, index=index, item=item)
                for item in new_leads]


def _store_together(*, session_factory: sessionmaker[Session], settings: Settings, index: CatalogIndex,
                    new_leads: list[NewLead]) -> list[Lead | Exception]:
    from .payload import buyer_payload

    outcomes: list[Lead | Exception | None] = [None] * len(new_leads)
    with session_factory() as session:
        stored, seen = _earlier_leads(session=session, leads=[item.lead for item in new_leads], settings=settings)
        known: dict[str, Lead] = {}
        fresh: list[NewLead] = []
        for position, item in enumerate(new_leads):
            request_id = item.lead.request_id
            if request_id in stored and request_id not in known:
                known[request_id] = session.get(Lead, stored[request_id])
            earlier = known.get(request_id)
            if earlier is None:
                known[request_id] = item.lead
                fresh.append(item)
                continue
            try:
                outcomes[position] = _replay_of(earlier, item.lead.request_hash)
            except ServiceMatchError as refusal:
                outcomes[position] = refusal
        _mark_duplicates([item.lead for item in fresh], seen)
        for item in fresh:
            lead = item.lead
            service = index.find(lead.service, lead.vertical)
            lead.consent = build_consent_record(index=index, service=service, brand_name=settings.brand_name,
                                                evidence=item.evidence, lead_id=lead.id)
            # Hooks read (providers, caps) before anything is written: on SQLite the first INSERT
            # takes the database's single write lock, so every read done first is time other
            # requests are not kept waiting.
            with session.no_autoflush:
                payload = buyer_payload(lead=lead, settings=settings)
                for hook in _lead_stored_hooks:
                    hook(session, lead, payload)
        try:
            # The unique requestId settles races: the first insert wins. Leads and consent
            # records go in as two multi-row INSERTs (the ORM's unit of work costs more than
            # the rows); then the flush writes what the hooks added.
            if fresh:
                # On the session's connection, not session.execute, which would flush the
                # hooks' rows first and break their foreign keys to these leads.
                connection = session.connection()
                connection.execute(insert(Lead.__table__), [_column_values(item.lead) for item in fresh])
                connection.execute(insert(ConsentRecord.__table__),
                                   [_column_values(item.lead.consent) for item in fresh])
            session.flush()
        except IntegrityError:
            session.rollback()
            twin = _twin_committed_meanwhile(session, new_leads) if len(new_leads) == 1 else None
            if twin is None:
                raise  # a batch is then stored one lead at a time, by store_leads
            return [twin]
        session.commit()
    for position, item in enumerate(new_leads):
        if outcomes[position] is None:
            outcomes[position] = known[item.lead.request_id]
    for item in fresh:
        log.info("stored lead %s for %s/%s%s", item.lead.id, item.lead.vertical, item.lead.service,
                 " (duplicate)" if item.lead.is_duplicate else "")
    return outcomes


def _column_values(row: Lead | ConsentRecord) -> dict:
    return {column.key: getattr(row, column.key) for column in inspect(type(row)).column_attrs}


def _twin_committed_meanwhile(session: Session, new_leads: list[NewLead]) -> Lead | ServiceMatchError | None:
    """After a lone lead's insert collided: the twin that took its requestId (409 if its body differs)."""
    item = new_leads[0]
    try:
        return find_replay(session=session, request_id=item.lead.request_id, request_hash=item.lead.request_hash)
    except ServiceMatchError as refusal:
        return refusal


def _store_alone(*, session_factory: sessionmaker[Session], settings: Settings, index: CatalogIndex,
                 item: NewLead) -> Lead | Exception:
    try:
        return store_lead(session_factory=session_factory, settings=settings, index=index,
                          lead=item.lead, evidence=item.evidence)
    except Exception as failure:  # noqa: BLE001 - this lead's own outcome; the caller decides what to say
        return failure
