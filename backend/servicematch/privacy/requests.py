"""Rights requests from start to close: record, prove the e-mail with a code, act, close at once.

Every request is recorded with its received, verified, due (45 days) and closed dates. Starting
one answers the same whether or not we hold anything for the contact, and takes the same time:
the code is mailed by a background thread, after the answer.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session, sessionmaker

from servicematch.catalog.loader import CatalogIndex
from servicematch.errors import ServiceMatchError
from servicematch.inbound.validation import has_control_characters
from servicematch.kernel.clock import utcnow
from servicematch.kernel.crypto import cipher_for
from servicematch.kernel.ids import new_id
from servicematch.mail.transport import new_message, send_message
from servicematch.privacy import actions
from servicematch.privacy.codes import CODE_LIFETIME, check_code, issue_code
from servicematch.privacy.contacts import aware, contact_key, email_on_file, leads_of
from servicematch.privacy.models import PrivacyRequest, RequestKind
from servicematch.privacy.notices import CORRECTED, enqueue_notices
from servicematch.privacy.report import access_report
from servicematch.settings import Settings

log = logging.getLogger("servicematch.privacy")

DUE_AFTER = timedelta(days=45)
ACCESS_PER_YEAR = 2
NOT_FOUND = "We could not find this request. It may have expired: please start again."
ALREADY_CLOSED = "This request is already closed. Start a new one if you need something else."
CORRECTION_NEEDED = "Tell us what to correct (up to 2,000 characters)."
DONE = {
    RequestKind.DELETE: "Done. Any personal data we held for this contact is erased, and everyone "
                        "who received it has been told to delete it.",
    # Followed by who was told (opted_out_message).
    RequestKind.OPT_OUT: "Done. We will not sell or share the personal data of this contact from now on.",
    RequestKind.CORRECT: "Thank you. Your correction is recorded and passed on to everyone who "
                         "received your data.",
    RequestKind.STOP: "Done. Calls, texts and e-mails about your requests are stopped, and every "
                      "company that received them has been told.",
}


def opted_out_message(companies: int) -> str:
    """The opt-out's answer, saying exactly who was told."""
    if companies == 0:
        return (f"{DONE[RequestKind.OPT_OUT]} No company had received the details of your requests, so "
                "there was no company to tell.")
    told = "the company" if companies == 1 else f"the {companies} companies"
    return (f"{DONE[RequestKind.OPT_OUT]} We are sending a notice to {told} that received the details of "
            "your requests, telling them not to sell or share them either.")


# Mail goes out after the answer: a known and an unknown contact then answer alike, in time too.
_mailer = ThreadPoolExecutor(max_workers=2, thread_name_prefix="privacy-mail")


@dataclass(frozen=True)
class Started:
    request_id: str
    message: str


def start_request(*, session_factory: sessionmaker[Session], settings: Settings, kind: str,
                  channel: str, email: str = "", phone: str = "", correction: str = "",
                  now: datetime | None = None) -> Started:
    now = now or utcnow()
    if kind not in RequestKind.ALL:
        raise ServiceMatchError("Choose what you would like us to do.", fields={"kind": "Unknown request type."},
                                status_code=422)
    correction = correction.strip()
    if kind == RequestKind.CORRECT and (not correction or len(correction) > 2000
                                        or has_control_characters(correction, allow_line_breaks=True)):
        raise ServiceMatchError(CORRECTION_NEEDED, fields={"correction": CORRECTION_NEEDED}, status_code=422)
    key, value = contact_key(settings=settings, email=email, phone=phone)
    request_id = new_id()
    with session_factory() as session:
        request = PrivacyRequest(id=request_id, kind=kind, channel=channel, contact_key=key, received_at=now,
                                 due_at=now + DUE_AFTER, leads_affected=0)
        if kind == RequestKind.CORRECT:
            request.details = cipher_for(settings).encrypt({"correction": correction},
                                                           lead_id=f"privacy-request:{request_id}")
        session.add(request)
        session.flush()
        code = issue_code(session=session, settings=settings, request=request, now=now)
        session.commit()
    made = f"{now:%B} {now.day}, {now:%Y} at {now:%H:%M} UTC"
    confirms = f"It confirms your request {REQUEST_IN_WORDS[kind]} (request {request_id}, made {made})."
    _mailer.submit(_mail_code, session_factory, settings, key, value if key.startswith("email:") else None, code,
                   confirms)
    if key.startswith("email:"):
        message = f"We sent a 6-digit code to {value}. It works for {CODE_LIFETIME.seconds // 60} minutes."
    else:
        message = ("If this phone number is in our records, we sent a 6-digit code to the e-mail address "
                   f"given with it. It works for {CODE_LIFETIME.seconds // 60} minutes.")
    return Started(request_id=request_id, message=message)


# What each kind of request asks, as the code's e-mail names it.
REQUEST_IN_WORDS = {
    RequestKind.ACCESS: "to see the data we hold about you",
    RequestKind.DELETE: "to delete your data",
    RequestKind.CORRECT: "to correct your data",
    RequestKind.OPT_OUT: "to opt out of the sale and sharing of your information",
    RequestKind.STOP: "to stop being contacted",
}


def _mail_code(session_factory: sessionmaker[Session], settings: Settings, key: str, email: str | None,
               code: str, confirms: str) -> None:
    try:
        if email is None:
            with session_factory() as session:
                email = email_on_file(session=session, settings=settings, key=key)
        if not email:
            return
        text = (f"Your {settings.brand_name} verification code is {code}.\n\n{confirms}\n\n"
                f"It works for {CODE_LIFETIME.seconds // 60} minutes. If you did not ask for it, "
                "ignore this e-mail: nothing happens without the code.\n")
        send_message(settings=settings, message=new_message(
            settings=settings, to=email, subject=f"{code} is your {settings.brand_name} code", text=text,
            message_id_key=f"code-{new_id()}"))
    except Exception:
        log.exception("a privacy verification code could not be sent")


def verify_request(*, session_factory: sessionmaker[Session], settings: Settings, request_id: str,
                   code: str, index: CatalogIndex | None = None, now: datetime | None = None) -> dict:
    """Check the code, do what was asked, close the request; the answer for the page."""
    now = now or utcnow()
    with session_factory() as session:
        request = session.get(PrivacyRequest, request_id)
        if request is None:
            raise ServiceMatchError(NOT_FOUND, status_code=404)
        check_code(session=session, settings=settings, request_id=request.id, code=code, now=now)
        if request.closed_at is not None:
            session.commit()
            raise ServiceMatchError(ALREADY_CLOSED, status_code=409)
        request.verified_at = now
        keys = [request.contact_key]
        leads = leads_of(session=session, keys=keys)
        answer: dict = {"kind": request.kind, "requestId": request.id}
        if request.kind == RequestKind.ACCESS:
            refusal = _access_refusal(session, request, now)
            if refusal:
                _close(request, now, f"refused: {refusal}", 0)
                session.commit()
                raise ServiceMatchError(refusal, status_code=429)
            answer["report"] = access_report(session=session, settings=settings, leads=leads, keys=keys,
                                             generated_at=now, index=index)
            answer["message"] = "Here is every piece of data we hold for this contact."
        elif request.kind == RequestKind.DELETE:
            addresses = _addresses(settings, leads)
            actions.erase(session=session, settings=settings, leads=leads, reason="delete request", now=now,
                          notify=True, keys=keys)
        elif request.kind == RequestKind.OPT_OUT:
            told = actions.opt_out(session=session, leads=leads, keys=keys, request_id=request.id, now=now)
            answer["message"] = opted_out_message(told)
        elif request.kind == RequestKind.STOP:
            actions.revoke(session=session, leads=leads, method="privacy choices page",
                           request_id=request.id, now=now)
        elif request.kind == RequestKind.CORRECT:
            enqueue_notices(session=session, lead_ids=[lead.id for lead in leads], notice=CORRECTED, now=now,
                            request_id=request.id)
        answer.setdefault("message", DONE.get(request.kind, "Done."))
        _close(request, now, "fulfilled", len(leads))
        session.commit()
    if request.kind == RequestKind.DELETE:
        _forget_local_mail(settings, addresses)
    return answer


def _access_refusal(session: Session, request: PrivacyRequest, now: datetime) -> str | None:
    year_ago = now - timedelta(days=365)
    given = session.scalars(
        select(PrivacyRequest.closed_at).where(
            PrivacyRequest.contact_key == request.contact_key, PrivacyRequest.kind == RequestKind.ACCESS,
            PrivacyRequest.outcome == "fulfilled", PrivacyRequest.closed_at > year_ago)
        .order_by(PrivacyRequest.closed_at)
    ).all()
    if len(given) < ACCESS_PER_YEAR:
        return None
    next_date = aware(given[0]) + timedelta(days=365)
    return (f"You already received a copy of your data {ACCESS_PER_YEAR} times in the last 12 months, "
            f"the most our policy provides. You can ask again from {next_date:%B %d, %Y}.")


def _close(request: PrivacyRequest, now: datetime, outcome: str, leads: int) -> None:
    request.closed_at = now
    request.outcome = outcome
    request.leads_affected = leads


def _addresses(settings: Settings, leads: list) -> set[str]:
    from servicematch.intake.payload import decrypt_personal_data

    return {email for lead in leads
            if (email := decrypt_personal_data(lead=lead, settings=settings)["contact"].get("email"))}


def _forget_local_mail(settings: Settings, addresses: set[str]) -> None:
    """Receipts and codes kept in the offline mailbox name the person too."""
    if settings.smtp_host:
        return
    from servicematch.mail.mailbox import LocalMailbox

    mailbox = LocalMailbox(settings.mail_dir)
    for address in addresses:
        mailbox.forget_recipient(address)


def correction_text(*, session: Session, settings: Settings, request_id: str) -> str | None:
    request = session.get(PrivacyRequest, request_id)
    if request is None or request.details is None:
        return None
    data = cipher_for(settings).decrypt(request.details, lead_id=f"privacy-request:{request_id}")
    return data.get("correction")


def close_stale(*, session: Session, now: datetime) -> int:
    """Close requests never verified once their codes are long dead: nothing stays open for days."""
    return session.execute(
        update(PrivacyRequest)
        .where(PrivacyRequest.closed_at.is_(None), PrivacyRequest.received_at < now - timedelta(days=1))
        .values(closed_at=now, outcome="closed: the e-mail address was never confirmed")
        .execution_options(synchronize_session=False)
    ).rowcount


def open_count(session: Session) -> int:
    return session.scalar(select(func.count()).select_from(PrivacyRequest)
                          .where(PrivacyRequest.closed_at.is_(None)))
