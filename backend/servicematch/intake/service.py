"""Build accepted leads and store them: one transaction holds each lead, its consent record and
one "lead accepted" event, and nothing else. Who gets the lead (buyers, providers, the consent
receipt) is routing's business, after the commit (servicematch.routing, run by the worker)."""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import and_, insert, inspect, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from servicematch.catalog.loader import CatalogIndex
from servicematch.catalog.partners import current_partner_list
from servicematch.errors import ServiceMatchError
from servicematch.inbound.validation import normalise_email
from servicematch.kernel import wakeup
from servicematch.kernel.clock import utcnow
from servicematch.kernel.crypto import cipher_for
from servicematch.kernel.ids import new_id
from servicematch.kernel.logs import about_lead
from servicematch.kernel.references import new_reference
from servicematch.settings import Settings

from .checks import CheckedLead
from .consent import ConsentEvidence, build_consent_record
from .models import LEAD_ACCEPTED, ConsentRecord, Lead, LeadEvent

log = logging.getLogger("servicematch.intake")

REUSED_REQUEST_ID = "This requestId was already used for a different submission."
# A new reference collides with a stored one about once in a trillion divided by the leads stored:
# the transaction is tried again with new ones, this many times in all.
REFERENCE_TRIES = 3


@dataclass(frozen=True)
class NewLead:
    """A checked, encrypted lead and the consent evidence of its request, ready to store."""

    lead: Lead
    evidence: ConsentEvidence


@dataclass(frozen=True)
class StoredLead:
    """A committed lead, or the earlier one its requestId names."""

    lead: Lead


def fingerprint(body: dict) -> str:
    """A digest of the submission that ignores key order and the single-use reCAPTCHA token."""
    meaningful = {key: value for key, value in body.items() if key != "recaptchaToken"}
    return hashlib.sha256(json.dumps(meaningful, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


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
        reference=new_reference(),
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


def _replay_of(earlier: Lead, request_hash: str) -> Lead:
    if earlier.request_hash != request_hash:
        raise ServiceMatchError(REUSED_REQUEST_ID, fields={"requestId": REUSED_REQUEST_ID}, status_code=409)
    return earlier


def _mark_duplicates(leads: list[Lead], seen: set[tuple[str, str]]) -> None:
    """Flag each lead whose service and phone came in during the window, earlier in the batch included."""
    for lead in leads:
        key = (lead.service, lead.phone_hash)
        lead.is_duplicate = lead.phone_hash is not None and key in seen
        seen.add(key)


class _ReferenceTaken(Exception):
    """A new lead's reference was already stored: try again with the new one it was given."""


def _distinct_references(new_leads: list[NewLead]) -> None:
    """No two leads stored together share a reference (checked in memory: no statement)."""
    seen: set[str] = set()
    for item in new_leads:
        while item.lead.reference in seen:
            item.lead.reference = new_reference()
        seen.add(item.lead.reference)


def _new_references_for_taken(session: Session, leads: list[Lead]) -> bool:
    """After a failed insert: give each lead whose reference is already stored a new one; whether any was."""
    if not leads:
        return False
    taken = set(session.scalars(select(Lead.reference).where(Lead.reference.in_([lead.reference for lead in leads]))))
    for lead in leads:
        if lead.reference in taken:
            lead.reference = new_reference()
    return bool(taken)


def _column_values(row: Lead | ConsentRecord) -> dict:
    return {column.key: getattr(row, column.key) for column in inspect(type(row)).column_attrs}


class LeadTransactions:
    """Stores leads in transactions of one or many; the lead stores (intake/store.py) decide which."""

    def __init__(self, *, session_factory: sessionmaker[Session], settings: Settings, index: CatalogIndex) -> None:
        self.session_factory = session_factory
        self.settings = settings
        self.index = index

    def find_replay(self, *, request_id: str, request_hash: str) -> StoredLead | None:
        """The lead an earlier identical request created; 409 when the requestId meant something else."""
        with self.session_factory() as session:
            return self._find_replay(session, request_id, request_hash)

    def _find_replay(self, session: Session, request_id: str, request_hash: str) -> StoredLead | None:
        lead = session.scalars(select(Lead).where(Lead.request_id == request_id)).one_or_none()
        if lead is None:
            return None
        return StoredLead(_replay_of(lead, request_hash))

    def store_one(self, item: NewLead) -> StoredLead:
        """Commit one lead, or return the lead a twin stored; raises the lead's refusal or failure."""
        (outcome,) = self.store_together([item])
        if isinstance(outcome, Exception):
            raise outcome
        return outcome

    def store_together(self, new_leads: list[NewLead]) -> list[StoredLead | ServiceMatchError]:
        """Commit leads in one transaction; for each, the stored lead (or its earlier twin) or its refusal.

        A requestId seen before answers with the lead it created (409 if the body differs), whether
        that lead is in the database or earlier in this batch. A reference another lead already
        holds is replaced and the transaction tried again. Any other failure (a twin of a lead in
        a batch committed by another process meanwhile) rolls the whole transaction back and is
        raised.
        """
        _distinct_references(new_leads)
        for _ in range(REFERENCE_TRIES - 1):
            try:
                return self._store_together(new_leads)
            except _ReferenceTaken:
                continue
        return self._store_together(new_leads)

    def _store_together(self, new_leads: list[NewLead]) -> list[StoredLead | ServiceMatchError]:
        with self.session_factory() as session:
            stored, seen = self._earlier_leads(session, [item.lead for item in new_leads])
            first: dict[str, Lead] = {}  # requestId -> the lead that answers for it
            for request_id, lead_id in stored.items():
                first[request_id] = session.get(Lead, lead_id)
            fresh: list[NewLead] = []
            for item in new_leads:
                if item.lead.request_id not in first:
                    first[item.lead.request_id] = item.lead
                    fresh.append(item)
            _mark_duplicates([item.lead for item in fresh], seen)
            # The list the consent text's link shows now, from the process's cache (no query per lead).
            partners = current_partner_list(self.session_factory, self.index.catalog.marketingPartners)
            for item in fresh:
                lead = item.lead
                service = self.index.find(lead.service, lead.vertical)
                lead.consent = build_consent_record(index=self.index, service=service,
                                                    brand_name=self.settings.brand_name,
                                                    evidence=item.evidence, lead_id=lead.id,
                                                    partner_list_version=partners.version,
                                                    consented_at=lead.created_at)
            try:
                self._insert(session, fresh)
            except IntegrityError:
                session.rollback()
                twin = self._twin_committed_meanwhile(session, new_leads[0]) if len(new_leads) == 1 else None
                if twin is not None:
                    return [twin]
                if _new_references_for_taken(session, [item.lead for item in fresh]):
                    raise _ReferenceTaken from None
                raise  # a batch is then stored one lead at a time, by the batched store
            if fresh:
                wakeup.notify_after_commit(session)  # routing, in the worker, takes it from here
            session.commit()
        for item in fresh:
            with about_lead(item.lead.reference):
                log.info("stored lead %s for %s/%s%s", item.lead.id, item.lead.vertical, item.lead.service,
                         " (duplicate)" if item.lead.is_duplicate else "")
        return [self._outcome(item, first) for item in new_leads]

    @staticmethod
    def _outcome(item: NewLead, first: dict[str, Lead]) -> StoredLead | ServiceMatchError:
        try:
            return StoredLead(_replay_of(first[item.lead.request_id], item.lead.request_hash))
        except ServiceMatchError as refusal:
            return refusal

    @staticmethod
    def _insert(session: Session, fresh: list[NewLead]) -> None:
        """Write the new leads, their consent records and their "lead accepted" events."""
        # The unique requestId settles races: the first insert wins. Each table gets one multi-row
        # INSERT on the session's connection (the ORM's unit of work costs more than the rows).
        if not fresh:
            return
        connection = session.connection()
        connection.execute(insert(Lead.__table__), [_column_values(item.lead) for item in fresh])
        connection.execute(insert(ConsentRecord.__table__), [_column_values(item.lead.consent) for item in fresh])
        connection.execute(insert(LeadEvent.__table__), [
            {"id": new_id(), "lead_id": item.lead.id, "type": LEAD_ACCEPTED, "created_at": item.lead.created_at,
             "claimed_until": None, "claim_token": None, "attempts": 0, "done_at": None}
            for item in fresh])

    def _earlier_leads(self, session: Session, leads: list[Lead]) -> tuple[dict, set]:
        """One read for a batch: stored leads with these requestIds, and (service, phone) pairs seen lately.

        Returns ({requestId: lead id}, {(service, phone hash) within the duplicate window}).
        """
        request_ids = {lead.request_id for lead in leads}
        phone_hashes = {lead.phone_hash for lead in leads if lead.phone_hash}
        since = utcnow() - timedelta(days=self.settings.duplicate_window_days)
        recent = and_(Lead.phone_hash.in_(phone_hashes), Lead.created_at >= since)
        # Plain columns on the session's connection: none of the ORM's per-query work is needed here.
        rows = session.connection().execute(
            select(Lead.id, Lead.request_id, Lead.service, Lead.phone_hash, recent.label("recent"))
            .where(or_(Lead.request_id.in_(request_ids), recent) if phone_hashes
                   else Lead.request_id.in_(request_ids))
        ).all()
        stored = {row.request_id: row.id for row in rows if row.request_id in request_ids}
        seen = {(row.service, row.phone_hash) for row in rows if row.recent}
        return stored, seen

    def _twin_committed_meanwhile(self, session: Session, item: NewLead) -> StoredLead | ServiceMatchError | None:
        """After a lone lead's insert collided: the twin that took its requestId (409 if its body differs)."""
        try:
            return self._find_replay(session, item.lead.request_id, item.lead.request_hash)
        except ServiceMatchError as refusal:
            return refusal
