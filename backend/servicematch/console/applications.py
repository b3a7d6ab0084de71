"""Joining, in the console: applications to review (approve: an invitation; reject: a reason,
e-mailed), inviting a provider directly, sending an invitation again, and the licence check that
gives a provider its verified badge. Every change is an admin's, on the audit log."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field

from servicematch.catalog.loader import CatalogDep
from servicematch.console import audit
from servicematch.console import providers as console_providers
from servicematch.console.audit import Action
from servicematch.console.auth import AdminOnly, AnyOperator, Db
from servicematch.console.leads import mask_name
from servicematch.delivery import providers as directory
from servicematch.delivery.history import mask_email, mask_phone
from servicematch.deps import SettingsDep
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, ServiceMatchError
from servicematch.intake.schemas import text
from servicematch.kernel.clock import utcnow
from servicematch.kernel.numbers import Number
from servicematch.outbound.outcome import Outcome, SendResult
from servicematch.portal import applications
from servicematch.portal.invitations import Invitee, invite, invite_again
from servicematch.portal.models import ApplicationStatus, ProviderApplication
from servicematch.portal.rules import MAX_SERVICES, MAX_ZIPS

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)


class ApplicationItem(BaseModel):
    id: str
    status: Literal["unconfirmed", "pending", "approved", "rejected"]
    businessName: str
    contactName: str
    email: str
    phone: str
    services: list[str]
    zips: list[str]
    radiusMiles: float | None
    states: list[str]
    licenceNumber: str | None
    licenceState: str | None
    createdAt: str
    confirmedAt: str | None
    decidedAt: str | None
    decidedBy: str | None
    rejectReason: str | None
    providerId: str | None


class ApplicationList(BaseModel):
    items: list[ApplicationItem]


class MailSent(BaseModel):
    """How the e-mail went: sent (or kept in the local mailbox), or why not."""

    sent: bool
    error: str | None


class Decision(BaseModel):
    application: ApplicationItem
    email: MailSent


class Rejection(BaseModel):
    reason: text(2000, min_length=1)


class Invitation(BaseModel):
    """Invite a provider directly: its area is ZIP codes (and a radius) or states."""

    model_config = ConfigDict(extra="forbid")

    email: text(254) = ""
    name: text(200) = ""
    services: list[text(80)] = Field(default_factory=list, max_length=MAX_SERVICES * 2)
    zips: list[text(10)] = Field(default_factory=list, max_length=MAX_ZIPS * 2)
    radiusMiles: Number | None = None
    states: list[text(4)] = Field(default_factory=list, max_length=60)
    licenceNumber: text(60) | None = None
    licenceState: text(4) | None = None


class Invited(BaseModel):
    provider: console_providers.ConsoleProvider
    email: MailSent


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def application_json(row: ProviderApplication, *, reveal: bool) -> ApplicationItem:
    """Admins see the contact in full; analysts see it masked, as they see leads."""
    first, _, last = row.contact_name.partition(" ")
    return ApplicationItem(
        id=row.id, status=row.status, businessName=row.business_name,
        contactName=row.contact_name if reveal else mask_name(first, last),
        email=row.email if reveal else mask_email(row.email), phone=row.phone if reveal else mask_phone(row.phone),
        services=row.services, zips=row.zips, radiusMiles=row.radius_miles, states=row.states,
        licenceNumber=row.licence_number, licenceState=row.licence_state, createdAt=_iso(row.created_at),
        confirmedAt=_iso(row.confirmed_at), decidedAt=_iso(row.decided_at), decidedBy=row.decided_by,
        rejectReason=row.reject_reason, providerId=row.provider_id)


def _mail(result: SendResult) -> MailSent:
    sent = result.outcome == Outcome.DELIVERED
    return MailSent(sent=sent, error=None if sent else result.error or result.outcome)


@router.get("/applications", response_model=ApplicationList,
            summary="Applications to join, newest first: one status, or all but the unconfirmed")
def list_applications(caller: AnyOperator, db: Db, status: str = Query(
        default="", json_schema_extra={"enum": ["", *ApplicationStatus.ALL]})) -> ApplicationList:
    if status and status not in ApplicationStatus.ALL:
        raise ServiceMatchError("Unknown status.", fields={"status": "unknown"}, status_code=422)
    rows = applications.list_applications(db, status=status)
    return ApplicationList(items=[application_json(row, reveal=caller.is_admin) for row in rows])


@router.post("/applications/{application_id}/approve", response_model=Decision,
             summary="Approve: the provider is added in review mode and e-mailed its invitation (admins)")
def approve(application_id: str, caller: AdminOnly, db: Db, settings: SettingsDep, catalog: CatalogDep) -> Decision:
    invited = applications.approve(db, catalog, application_id[:36],
                                   operator_email=caller.operator.email)
    audit.record(db, action=Action.APPLICATION_APPROVE, operator=caller.operator, ip=caller.ip,
                 target=application_id[:36], detail={"providerId": invited.provider.id})
    db.commit()
    sent = invited.send(settings)
    application = db.get(ProviderApplication, application_id[:36])
    return Decision(application=application_json(application, reveal=True), email=_mail(sent))


@router.post("/applications/{application_id}/reject", response_model=Decision,
             summary="Reject with a reason, which the applicant is e-mailed (admins)")
def reject(application_id: str, body: Rejection, caller: AdminOnly, db: Db, settings: SettingsDep) -> Decision:
    refused = applications.reject(db, application_id[:36], reason=body.reason, operator_email=caller.operator.email)
    audit.record(db, action=Action.APPLICATION_REJECT, operator=caller.operator, ip=caller.ip,
                 target=application_id[:36], detail={"reason": body.reason[:500]})
    db.commit()
    sent = refused.send(settings)
    return Decision(application=application_json(refused.application, reveal=True), email=_mail(sent))


def _provider_answer(db, provider) -> dict:
    return console_providers.provider_json(provider, today=console_providers.leads_today(db),
                                           paused=console_providers.paused_webhooks(db),
                                           accounts=console_providers.portal_accounts(db))


@router.post("/providers/invite", status_code=201, response_model=Invited,
             summary="Invite a provider: added in review mode, e-mailed a link to choose its password (admins)")
def invite_provider(body: Invitation, caller: AdminOnly, db: Db, settings: SettingsDep,
                    catalog: CatalogDep) -> Invited:
    invited = invite(db, catalog, Invitee(
        email=body.email, name=body.name, services=body.services, zips=body.zips, radius_miles=body.radiusMiles,
        states=body.states, licence_number=body.licenceNumber, licence_state=body.licenceState))
    audit.record(db, action=Action.PROVIDER_INVITE, operator=caller.operator, ip=caller.ip,
                 target=invited.provider.id, detail={"name": invited.provider.name})
    db.commit()
    sent = invited.send(settings)
    return Invited(provider=_provider_answer(db, invited.provider), email=_mail(sent))


@router.post("/providers/{provider_id}/invite-again", response_model=Invited,
             summary="A new invitation link for a provider that has not chosen a password yet (admins)")
def invite_provider_again(provider_id: str, caller: AdminOnly, db: Db, settings: SettingsDep) -> Invited:
    provider = directory.get_provider(session=db, provider_id=provider_id[:36])
    invited = invite_again(db, provider)
    audit.record(db, action=Action.PROVIDER_INVITE_AGAIN, operator=caller.operator, ip=caller.ip, target=provider.id)
    db.commit()
    sent = invited.send(settings)
    return Invited(provider=_provider_answer(db, provider), email=_mail(sent))


@router.post("/providers/{provider_id}/licence-checked", response_model=console_providers.ConsoleProvider,
             summary="Record that the provider's licence was checked: its verified badge shows (admins)")
def licence_checked(provider_id: str, caller: AdminOnly, db: Db) -> dict:
    provider = directory.get_provider(session=db, provider_id=provider_id[:36])
    if not provider.licence_number or not provider.licence_state:
        raise ServiceMatchError("This provider has no licence on file to check.", status_code=409)
    provider.verified_at = utcnow()
    audit.record(db, action=Action.LICENCE_CHECKED, operator=caller.operator, ip=caller.ip, target=provider.id,
                 detail={"licenceNumber": provider.licence_number, "licenceState": provider.licence_state})
    db.commit()
    return _provider_answer(db, provider)
