"""The one-click stop from a receipt: the page shows what will stop, its button stops it.

A GET never stops anything (mail scanners follow links); the button's POST does, once per link.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from servicematch.errors import ServiceMatchError
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.privacy import actions
from servicematch.privacy.contacts import aware, keys_of_lead, leads_of
from servicematch.privacy.links import read_link
from servicematch.privacy.messages import recipient_names, recipients_of
from servicematch.privacy.models import LeadRevocation, PrivacyRequest, RequestKind, UsedLink
from servicematch.privacy.requests import DONE, DUE_AFTER
from servicematch.settings import Settings

GONE = ("This link no longer applies: the request it belongs to has been deleted, so nobody "
        "holds it to contact you.")


def _used(when: datetime) -> str:
    return (f"This link was already used on {aware(when):%B %d, %Y at %H:%M} UTC: contact about "
            "your requests is stopped. Nothing more to do.")


def _lead(session: Session, settings: Settings, token: str, now: datetime) -> tuple[Lead, str]:
    claims = read_link(settings=settings, token=token, purpose="stop", now=now)
    used = session.get(UsedLink, claims.link_id)
    if used is not None:
        raise ServiceMatchError(_used(used.used_at), status_code=409)
    lead = session.get(Lead, claims.lead_id)
    if lead is None:
        raise ServiceMatchError(GONE, status_code=410)
    return lead, claims.link_id


def preview_stop(*, session_factory: sessionmaker[Session], settings: Settings, token: str,
                 now: datetime | None = None) -> dict:
    """What the button will stop: the requests, and the companies that received the contact details
    (who will be told to stop). Changes nothing."""
    now = now or utcnow()
    with session_factory() as session:
        lead, _ = _lead(session, settings, token, now)
        leads = leads_of(session=session, keys=keys_of_lead(lead)) or [lead]
        revoked = set(session.scalars(select(LeadRevocation.lead_id)
                                      .where(LeadRevocation.lead_id.in_([item.id for item in leads]))))
        received = recipients_of(session=session, lead_ids=[item.id for item in leads])
        parties = [name for item in leads for name in recipient_names(received[item.id], settings)]
        return {
            "requests": [{"service": item.category or item.service, "submittedAt": aware(item.created_at).isoformat(),
                          "stopped": item.id in revoked} for item in leads],
            "recipients": sorted(set(parties)),
            "alreadyStopped": all(item.id in revoked for item in leads),
        }


def stop_by_link(*, session_factory: sessionmaker[Session], settings: Settings, token: str,
                 now: datetime | None = None) -> dict:
    """Withdraw consent for every lead of the link's contact; the link is spent."""
    now = now or utcnow()
    with session_factory() as session:
        lead, link_id = _lead(session, settings, token, now)
        keys = keys_of_lead(lead)
        leads = leads_of(session=session, keys=keys) or [lead]
        request = PrivacyRequest(kind=RequestKind.STOP, channel="stop link",
                                 contact_key=keys[0] if keys else f"lead:{lead.id}", received_at=now,
                                 verified_at=now, due_at=now + DUE_AFTER, closed_at=now, outcome="fulfilled",
                                 leads_affected=len(leads))
        session.add(request)
        session.add(UsedLink(link_id=link_id, used_at=now))
        session.flush()
        actions.revoke(session=session, leads=leads, method="stop link in consent receipt",
                       request_id=request.id, now=now)
        try:
            session.commit()
        except IntegrityError as exc:
            # Two clicks at once: the other one stopped everything already.
            session.rollback()
            raise ServiceMatchError(_used(now), status_code=409) from exc
    return {"message": DONE[RequestKind.STOP], "stopped": len(leads)}
