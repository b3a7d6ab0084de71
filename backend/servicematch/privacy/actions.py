"""What a verified request does to the leads of a contact: stop, erase, opt out, report."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import bindparam, or_, select, update
from sqlalchemy.orm import Session

from servicematch.delivery.models import Delivery, DeliveryAttempt, DeliveryStatus
from servicematch.intake.models import Lead
from servicematch.kernel.crypto import cipher_for
from servicematch.privacy.models import (
    ContactSuppression,
    LeadErasure,
    LeadRevocation,
    PrivacyRequest,
)
from servicematch.privacy.notices import (
    DELETED,
    DO_NOT_SELL,
    REVOKED,
    companies_told,
    enqueue_notices,
    stop_unsent,
)
from servicematch.privacy.withdrawal import consent_withdrawn_from, data_erased_from
from servicematch.settings import Settings

CONTACT_FIELDS = ("first", "last", "email", "phone", "address1", "address2", "city", "state", "zip")


def revoke(*, session: Session, leads: list[Lead], method: str, request_id: str | None,
           now: datetime) -> int:
    """Withdraw consent on every lead: record it, hold what is unsent, tell who received them."""
    lead_ids = [lead.id for lead in leads]
    already = set(session.scalars(select(LeadRevocation.lead_id).where(LeadRevocation.lead_id.in_(lead_ids))))
    session.add_all(LeadRevocation(lead_id=lead_id, revoked_at=now, method=method, request_id=request_id)
                    for lead_id in lead_ids if lead_id not in already)
    session.flush()
    stop_unsent(session=session, lead_ids=lead_ids,
                reason=f"not sent: the consumer withdrew consent ({method})", now=now)
    enqueue_notices(session=session, lead_ids=lead_ids, notice=REVOKED, now=now)
    consent_withdrawn_from(session, lead_ids, now)
    return len(lead_ids) - len(already)


def opt_out(*, session: Session, leads: list[Lead], keys: list[str], request_id: str, now: datetime) -> int:
    """No lead of this contact goes to the buyer again, as with a Global Privacy Control signal, and
    every company that received one of its leads is sent a signed `lead.do_not_sell` (once per lead
    and company). Returns how many companies hold such a notice: those told now, or by an earlier opt-out."""
    known = set(session.scalars(select(ContactSuppression.contact_key)
                                .where(ContactSuppression.contact_key.in_(keys))))
    session.add_all(ContactSuppression(contact_key=key, created_at=now, request_id=request_id)
                    for key in keys if key not in known)
    lead_ids = [lead.id for lead in leads]
    if lead_ids:
        session.execute(update(Lead).where(Lead.id.in_(lead_ids)).values(do_not_sell=True)
                        .execution_options(synchronize_session=False))
        session.execute(
            update(Delivery).where(Delivery.lead_id.in_(lead_ids), Delivery.kind == "buyer",
                                   Delivery.payload_kind == "lead", Delivery.status == DeliveryStatus.PENDING,
                                   or_(Delivery.claimed_until.is_(None), Delivery.claimed_until < now))
            .values(status=DeliveryStatus.SKIPPED, completed_at=now,
                    last_error="not sent: the consumer opted out of sale and sharing")
            .execution_options(synchronize_session=False))
        enqueue_notices(session=session, lead_ids=lead_ids, notice=DO_NOT_SELL, now=now)
        session.flush()
    return companies_told(session=session, lead_ids=lead_ids, notice=DO_NOT_SELL)


def is_suppressed(*, session: Session, keys: list[str]) -> bool:
    """True when one of these contact keys opted out of sale; intake asks before selling a lead."""
    return bool(keys) and session.scalar(
        select(ContactSuppression.contact_key).where(ContactSuppression.contact_key.in_(keys)).limit(1)
    ) is not None


# Built once: routing asks for every round of leads.
_SUPPRESSED = select(ContactSuppression.contact_key).where(
    ContactSuppression.contact_key.in_(bindparam("keys", expanding=True)))


def suppressed_keys(*, session: Session, keys: Iterable[str]) -> set[str]:
    """Which of these contact keys opted out of sale: routing asks once for a round of leads."""
    keys = sorted(set(keys))
    return set(session.scalars(_SUPPRESSED, {"keys": keys})) if keys else set()


def erase(*, session: Session, settings: Settings, leads: list[Lead], reason: str, now: datetime,
          notify: bool, keys: Sequence[str] = ()) -> int:
    """Erase personal data from every lead, keeping the consent proof reduced to what proves it.

    Kept: the consent text and its digest, when, the page (without its query), the TrustedForm
    certificate, the GPC signal and the phone's keyed hash (which the number, if produced, can be
    checked against). Gone: names, e-mail, phone, address, date of birth, answers, IP, user
    agent, click data, what receivers answered, and the e-mail's lookup hash.
    """
    cipher = cipher_for(settings)
    lead_ids = [lead.id for lead in leads]
    erased = set(session.scalars(select(LeadErasure.lead_id).where(LeadErasure.lead_id.in_(lead_ids))))
    for lead in leads:
        lead.personal_data = cipher.encrypt({"contact": dict.fromkeys(CONTACT_FIELDS, ""), "answers": {}},
                                            lead_id=lead.id)
        lead.email_hash = None
        lead.address_hash = None
        lead.quality_signals = None
        lead.state = None
        lead.zip = None
        lead.answers = {}
        lead.click = {}
        lead.do_not_sell = True
        if lead.consent is not None:
            lead.consent.ip_address = None
            lead.consent.user_agent = None
            lead.consent.page_url = _without_query(lead.consent.page_url)
        if lead.id not in erased:
            session.add(LeadErasure(lead_id=lead.id, erased_at=now, reason=reason))
    session.flush()
    if keys:
        # A correction the person sent is their personal data too.
        session.execute(update(PrivacyRequest).where(PrivacyRequest.contact_key.in_(list(keys)))
                        .values(details=None).execution_options(synchronize_session=False))
    if lead_ids:
        session.execute(
            update(DeliveryAttempt)
            .where(DeliveryAttempt.delivery_id.in_(select(Delivery.id).where(Delivery.lead_id.in_(lead_ids))))
            .values(response_body=None).execution_options(synchronize_session=False))
        stop_unsent(session=session, lead_ids=lead_ids, reason="not sent: the personal data was erased",
                    now=now)
        if notify:
            enqueue_notices(session=session, lead_ids=lead_ids, notice=DELETED, now=now)
        consent_withdrawn_from(session, lead_ids, now)
        data_erased_from(session, lead_ids, now)
    return len(lead_ids)


def _without_query(url: str | None) -> str | None:
    if not url:
        return url
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
