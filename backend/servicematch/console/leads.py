"""Lead search and the lead page. Search goes through the reference, requestId and the keyed lookup
hashes; only the rows on the page being shown are decrypted."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from cryptography.exceptions import InvalidTag
from sqlalchemy import and_, exists, or_, select
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.console.lead_quality import quality_conditions
from servicematch.console.paging import day_start, decode_position, encode_position, iso, parse_day
from servicematch.console.shapes import Shape
from servicematch.delivery.history import mask_email
from servicematch.delivery.models import LEAD_KINDS, Delivery, DeliveryStatus
from servicematch.errors import ServiceMatchError
from servicematch.inbound.validation import normalise_email, phone_digits
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.intake.payload import decrypt_personal_data
from servicematch.kernel.clock import as_utc, utcnow
from servicematch.kernel.crypto import DataKeyError, cipher_for
from servicematch.kernel.references import parse_reference, shown_reference
from servicematch.privacy.models import LeadRevocation
from servicematch.privacy.notices import LEAD
from servicematch.settings import Settings

LEAD_STATUSES = ("pending", "delivered", "rejected", "failed", "skipped", "unsent")
# A lead's own deliveries: the lead itself to buyers and providers, not the consumer's consent
# receipt nor the privacy notices that follow a lead to the same parties.
LEAD_DELIVERY = (Delivery.kind.in_(LEAD_KINDS), Delivery.payload_kind == LEAD)
# Statuses few deliveries are in: a page of leads with one is looked for through that status's
# deliveries (_newest_with_status), as far back as each window in turn, before each lead's
# deliveries are looked up (which suits `delivered`, the status of most).
FEW_DELIVERIES = ("pending", "rejected", "failed", "skipped")
STATUS_WINDOWS = (timedelta(days=1), timedelta(days=7), timedelta(days=31), timedelta(days=366))
DELIVERY_MARGIN = timedelta(days=1)


@dataclass(frozen=True)
class LeadFilters:
    q: str = ""
    vertical: str = ""
    service: str = ""
    state: str = ""
    status: str = ""
    date_from: str = ""
    date_to: str = ""
    # The quality gate's verdict (console/lead_quality.py: QUALITY_FILTERS), and the lowest and
    # highest score, both included.
    quality: str = ""
    score_min: int | None = None
    score_max: int | None = None

    def as_dict(self) -> dict:
        return {key: value for key, value in self.__dict__.items() if value not in ("", None)}

    def audited(self) -> dict:
        """The filters as the audit log keeps them. What was searched for may be an e-mail address, a
        phone number or a name: only a reference is kept as it was typed, else what it looked like."""
        kept = {key: value for key, value in self.as_dict().items() if key != "q"}
        q = self.q.strip()
        if not q:
            return kept
        if reference := parse_reference(q):
            kept["q"] = shown_reference(reference)
        elif "@" in q:
            kept["q"] = "(an e-mail address)"
        elif phone_digits(q)[0]:
            kept["q"] = "(a phone number)"
        else:
            kept["q"] = "(a request id or other text)"
        return kept


def filtered_leads(filters: LeadFilters, settings: Settings):
    """A SELECT of leads matching the filters (no order or limit)."""
    query = select(Lead)
    if filters.q.strip():
        query = query.where(_search(filters.q.strip(), settings))
    if filters.vertical:
        query = query.where(Lead.vertical == filters.vertical)
    if filters.service:
        query = query.where(Lead.service == filters.service)
    if filters.state:
        query = query.where(Lead.state == filters.state.upper())
    start, end = parse_day(filters.date_from, "from"), parse_day(filters.date_to, "to")
    if start:
        query = query.where(Lead.created_at >= day_start(start))
    if end:
        query = query.where(Lead.created_at < day_start(end + timedelta(days=1)))
    if filters.status:
        query = query.where(_status_condition(filters.status))
    return query.where(*quality_conditions(quality=filters.quality, score_min=filters.score_min,
                                                   score_max=filters.score_max))


def _search(q: str, settings: Settings):
    """A reference (with or without its dash, any case), a requestId exactly, or an e-mail or phone
    through the keyed hashes: indexed, nothing decrypted."""
    cipher = cipher_for(settings)
    conditions = [Lead.request_id == q[:64]]
    if reference := parse_reference(q):
        conditions.append(Lead.reference == reference)
    if "@" in q:
        conditions.append(Lead.email_hash == cipher.lookup_hash("email", normalise_email(q)))
    digits, _ = phone_digits(q)
    if digits:
        conditions.append(Lead.phone_hash == cipher.lookup_hash("phone", digits))
    return or_(*conditions)


def _status_condition(status: str):
    if status not in LEAD_STATUSES:
        raise ServiceMatchError(f"status is one of {', '.join(LEAD_STATUSES)}.",
                                fields={"status": "invalid"}, status_code=422)
    any_delivery = exists().where(Delivery.lead_id == Lead.id, *LEAD_DELIVERY)
    if status == "unsent":
        return ~any_delivery
    return exists().where(and_(Delivery.lead_id == Lead.id, *LEAD_DELIVERY, Delivery.status == status))


def lead_statuses(session: Session, lead_ids: list[str]) -> dict[str, str]:
    """One word per lead from its deliveries: pending while any waits, else the best outcome."""
    found: dict[str, set[str]] = {}
    if lead_ids:
        for lead_id, status in session.execute(
            select(Delivery.lead_id, Delivery.status)
            .where(Delivery.lead_id.in_(lead_ids), *LEAD_DELIVERY).distinct()
        ):
            found.setdefault(lead_id, set()).add(status)
    order = (DeliveryStatus.PENDING, DeliveryStatus.DELIVERED, DeliveryStatus.REJECTED,
             DeliveryStatus.FAILED, DeliveryStatus.SKIPPED)
    return {lead_id: next((s for s in order if s in found.get(lead_id, ())), "unsent") for lead_id in lead_ids}


def mask_name(first: str, last: str) -> str:
    return " ".join(f"{part[:1]}***" for part in (first, last) if part)


def mask_phone(phone: str) -> str:
    digits = "".join(ch for ch in phone if ch.isdigit())
    return f"(***) ***-{digits[-4:]}" if len(digits) >= 4 else "***"


def contact_of(lead: Lead, settings: Settings) -> dict:
    """The decrypted contact and private answers; empty when they cannot be read (or were erased)."""
    try:
        return decrypt_personal_data(lead=lead, settings=settings)
    except (DataKeyError, InvalidTag, ValueError, KeyError, TypeError):
        return {"contact": {}, "answers": {}}


@dataclass(frozen=True)
class LeadFacts:
    """What the lead's row does not hold: its source (a column the database derives from the
    click, outside the ORM's mapping: intake/models.py SOURCE), when its consent was given and the
    SHA-256 of the consent text shown, and when the consumer withdrew it."""

    source: str
    consented_at: datetime | None
    consent_sha256: str | None
    revoked_at: datetime | None


def lead_facts(session: Session, lead_ids: list[str]) -> dict[str, LeadFacts]:
    """The facts of a page of leads, in one query."""
    if not lead_ids:
        return {}
    rows = session.execute(
        select(Lead.id, Lead.__table__.c.source, ConsentRecord.consented_at, ConsentRecord.consent_text_sha256,
               LeadRevocation.revoked_at)
        .outerjoin(ConsentRecord, ConsentRecord.lead_id == Lead.id)
        .outerjoin(LeadRevocation, LeadRevocation.lead_id == Lead.id)
        .where(Lead.id.in_(lead_ids)))
    return {lead_id: LeadFacts(*facts) for lead_id, *facts in rows}


class LeadRow(Shape):
    """A lead as the list shows it (analysts: name, e-mail and phone masked)."""

    id: str
    # The reference the consumer is shown and quotes (7K3M-Q9TX).
    reference: str
    requestId: str
    createdAt: str
    vertical: str
    service: str
    state: str | None
    zip: str | None
    name: str
    email: str
    phone: str
    # subid1, else subid2:<value>, else fbclid, else the lead's own source ("website").
    source: str
    # The lead's own deliveries: pending, delivered, rejected, failed, skipped or unsent.
    status: str
    isDuplicate: bool
    doNotSell: bool
    # The consumer withdrew consent to be contacted, and when.
    revoked: bool
    revokedAt: str | None
    # The quality gate's score (0-100) and verdict: passed, held, released or rejected; null
    # while the gate has not run on the lead (docs/quality.md).
    qualityScore: int | None
    qualityStatus: str | None


class LeadPage(Shape):
    items: list[LeadRow]
    nextCursor: str | None


def lead_summary(lead: Lead, *, status: str, facts: LeadFacts, settings: Settings, reveal: bool) -> dict:
    contact = contact_of(lead, settings).get("contact", {})
    first, last = contact.get("first", ""), contact.get("last", "")
    email, phone = contact.get("email", ""), contact.get("phone", "")
    return {
        "id": lead.id, "reference": shown_reference(lead.reference), "requestId": lead.request_id,
        "createdAt": iso(lead.created_at),
        "vertical": lead.vertical, "service": lead.service, "state": lead.state, "zip": lead.zip,
        "name": f"{first} {last}".strip() if reveal else mask_name(first, last),
        "email": email if reveal else mask_email(email),
        "phone": phone if reveal else mask_phone(phone),
        "source": facts.source, "status": status, "isDuplicate": lead.is_duplicate, "doNotSell": lead.do_not_sell,
        # The consumer withdrew consent to be contacted (privacy: a receipt's stop link, /privacy/choices).
        "revoked": facts.revoked_at is not None, "revokedAt": iso(facts.revoked_at),
        "qualityScore": lead.quality_score, "qualityStatus": lead.quality_status,
    }


def _newest(query, position: tuple[datetime, str] | None, limit: int):
    """The first `limit` + 1 of a SELECT of leads, newest first, after the cursor's position."""
    query = query.order_by(Lead.created_at.desc(), Lead.id.desc()).limit(limit + 1)
    if position is not None:
        moment, lead_id = position
        query = query.where(or_(Lead.created_at < moment, and_(Lead.created_at == moment, Lead.id < lead_id)))
    return query


def _newest_with_status(session: Session, settings: Settings, filters: LeadFilters,
                        position: tuple[datetime, str] | None, limit: int) -> list[Lead]:
    """A page of leads with a delivery of filters.status, found through that status's recent deliveries.

    Checking each lead's deliveries from the newest lead down costs a lookup per lead, and few
    leads have one of these statuses. A lead's deliveries are created with it, or later (a
    correction, a revocation): none is older than the lead by more than DELIVERY_MARGIN. So the
    leads created since a moment that have such a delivery are among the leads of the deliveries
    of that status created since a margin before it. Once a page of those leads, newest first,
    ends at or after the moment, it is the page; else an earlier moment is tried, and last the
    lookup per lead.
    """
    others = filtered_leads(replace(filters, status=""), settings)
    latest = position[0] if position is not None else utcnow()
    for window in STATUS_WINDOWS:
        since = latest - window
        of_status = select(Delivery.lead_id).where(
            *LEAD_DELIVERY, Delivery.status == filters.status,
            Delivery.created_at >= since - DELIVERY_MARGIN)
        leads = list(session.scalars(_newest(others.where(Lead.id.in_(of_status)), position, limit)).all())
        if len(leads) > limit and as_utc(leads[-1].created_at) >= since:
            return leads
    return list(session.scalars(_newest(filtered_leads(filters, settings), position, limit)).all())


def lead_page(session: Session, settings: Settings, *, filters: LeadFilters, cursor: str | None,
              limit: int, reveal: bool) -> dict:
    """Newest first, keyset-paged on (createdAt, id)."""
    query = filtered_leads(filters, settings)  # refuses a bad filter
    position = decode_position(cursor)
    if filters.status in FEW_DELIVERIES:
        leads = _newest_with_status(session, settings, filters, position, limit)
    else:
        leads = list(session.scalars(_newest(query, position, limit)).all())
    shown = leads[:limit]
    ids = [lead.id for lead in shown]
    statuses, facts = lead_statuses(session, ids), lead_facts(session, ids)
    return {
        "items": [lead_summary(lead, status=statuses[lead.id], facts=facts[lead.id], settings=settings,
                               reveal=reveal) for lead in shown],
        "nextCursor": encode_position(shown[-1].created_at, shown[-1].id) if len(leads) > limit else None,
    }


def answer_labels(index: CatalogIndex, lead: Lead) -> dict[str, str]:
    service = index.find(lead.service, lead.vertical)
    if service is None:
        return {}
    return {field.mapping: field.label for field in service.fields if field.mapping}
