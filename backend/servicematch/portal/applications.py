"""Applications to join: checked like a lead (clear 422s naming fields), stored unconfirmed, the
address confirmed by a one-time link, then approved (an invitation) or refused (a reason,
e-mailed) by an operator."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.catalog.loader import CatalogIndex
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.outbound.outcome import SendResult
from servicematch.portal import mail, rules, tokens
from servicematch.portal.invitations import Invited, Invitee, invite
from servicematch.portal.models import ApplicationStatus, ProviderApplication, TokenPurpose
from servicematch.settings import Settings

RECEIVED = ("Thank you. We sent a link to {email} to confirm the address; your application goes to our team "
            "once it is confirmed. The link works for 72 hours.")
CONFIRMED = "Thank you: your e-mail address is confirmed. We will review your application and e-mail you our answer."
MAX_LISTED = 200


@dataclass(frozen=True)
class Answers:
    """What the form sends, as typed."""

    business_name: str
    contact_name: str
    email: str
    phone: str
    services: list[str]
    zips: list[str]
    radius_miles: float | None
    states: list[str]
    licence_number: str | None
    licence_state: str | None


def checked(answers: Answers, catalog: CatalogIndex) -> ProviderApplication:
    """The application to store, or a 422 naming every field that needs another look."""
    problems = rules.Problems()
    business_name = rules.clean_text(answers.business_name, "businessName", problems, label="business name")
    contact_name = rules.clean_text(answers.contact_name, "contactName", problems, label="contact name")
    email = rules.clean_email(answers.email, problems)
    phone = rules.clean_phone(answers.phone, problems)
    services = rules.clean_services(answers.services, catalog, problems)
    area = rules.clean_area(zips=answers.zips, radius_miles=answers.radius_miles, states=answers.states,
                            problems=problems)
    licence_number, licence_state = rules.clean_licence(
        services=services, number=answers.licence_number, state=answers.licence_state, problems=problems)
    problems.raise_any()
    return ProviderApplication(
        status=ApplicationStatus.UNCONFIRMED, business_name=business_name, contact_name=contact_name, email=email,
        phone=phone, services=services, zips=area.zips, radius_miles=area.radius_miles, states=area.states,
        licence_number=licence_number, licence_state=licence_state, created_at=utcnow())


def submit(*, session_factory: sessionmaker[Session], settings: Settings, catalog: CatalogIndex,
           answers: Answers) -> str:
    """Store the application and mail the confirmation link (after the answer); the answer's message."""
    application = checked(answers, catalog)
    with session_factory() as session:
        session.add(application)
        session.flush()
        token = tokens.issue(session, purpose=TokenPurpose.CONFIRM, application_id=application.id)
        session.commit()
        email, business_name = application.email, application.business_name
    subject, text = mail.confirm_application(settings, business_name=business_name, token=token)
    mail.run_later(lambda: mail.send_now(settings, to=email, subject=subject, text=text))
    return RECEIVED.format(email=email)


def confirm(session: Session, token: str) -> str:
    """The applicant followed the link: the application goes to the operators (the caller commits)."""
    spent = tokens.redeem(session, token, purposes=(TokenPurpose.CONFIRM,))
    application = session.get(ProviderApplication, spent.application_id)
    if application is not None and application.status == ApplicationStatus.UNCONFIRMED:
        application.status, application.confirmed_at = ApplicationStatus.PENDING, utcnow()
    return CONFIRMED


def list_applications(session: Session, *, status: str) -> list[ProviderApplication]:
    """Newest first, of one status (or every status but unconfirmed, for "")."""
    query = select(ProviderApplication).order_by(ProviderApplication.created_at.desc(), ProviderApplication.id)
    if status:
        query = query.where(ProviderApplication.status == status)
    else:
        query = query.where(ProviderApplication.status != ApplicationStatus.UNCONFIRMED)
    return list(session.scalars(query.limit(MAX_LISTED)).all())


def _pending(session: Session, application_id: str) -> ProviderApplication:
    application = session.get(ProviderApplication, application_id)
    if application is None:
        raise NotFound("No application with this id.")
    if application.status == ApplicationStatus.UNCONFIRMED:
        raise ServiceMatchError("The applicant has not confirmed the e-mail address yet.", status_code=409)
    if application.status != ApplicationStatus.PENDING:
        raise ServiceMatchError(f"This application was {application.status} already.", status_code=409)
    return application


def approve(session: Session, catalog: CatalogIndex, application_id: str, *, operator_email: str) -> Invited:
    """The provider, in review mode, and its invitation (the caller commits, then sends it)."""
    application = _pending(session, application_id)
    invited = invite(session, catalog, Invitee(
        email=application.email, name=application.business_name, services=application.services,
        zips=application.zips, radius_miles=application.radius_miles, states=application.states,
        contact_name=application.contact_name, phone=application.phone,
        licence_number=application.licence_number, licence_state=application.licence_state))
    application.status, application.provider_id = ApplicationStatus.APPROVED, invited.provider.id
    application.decided_at, application.decided_by = utcnow(), operator_email
    return invited


@dataclass(frozen=True)
class Refused:
    application: ProviderApplication

    def send(self, settings: Settings) -> SendResult:
        subject, text = mail.refusal(settings, business_name=self.application.business_name,
                                     reason=self.application.reject_reason or "")
        return mail.send_now(settings, to=self.application.email, subject=subject, text=text)


def reject(session: Session, application_id: str, *, reason: str, operator_email: str) -> Refused:
    """Refuse with a reason, which the applicant is e-mailed (the caller commits, then sends)."""
    reason = reason.strip()
    if not reason:
        raise ServiceMatchError("Give the reason the applicant will read.", fields={"reason": "required"},
                                status_code=422)
    application = _pending(session, application_id)
    application.status, application.reject_reason = ApplicationStatus.REJECTED, reason
    application.decided_at, application.decided_by = utcnow(), operator_email
    return Refused(application)
