"""Inviting a provider (an operator's invitation, or an approved application): the provider in
review mode, its account without a password, and a one-time link to choose one (72 hours)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.catalog.loader import CatalogIndex
from servicematch.delivery import providers as directory
from servicematch.delivery.models import Provider, ProviderMode
from servicematch.delivery.schemas import ProviderCreate
from servicematch.errors import ServiceMatchError
from servicematch.outbound.outcome import SendResult
from servicematch.portal import mail, rules, tokens
from servicematch.portal.models import ProviderAccount, TokenPurpose
from servicematch.settings import Settings

HAS_PASSWORD = "This provider has chosen a password already: it signs in, or asks for a new password at /pro."


@dataclass(frozen=True)
class Invitee:
    """Who is invited, as an operator or an application gives it (checked by `invite`)."""

    email: str
    name: str
    services: list[str]
    zips: list[str]
    radius_miles: float | None
    states: list[str]
    contact_name: str | None = None
    phone: str | None = None
    licence_number: str | None = None
    licence_state: str | None = None


@dataclass(frozen=True)
class Invited:
    """An invitation stored but not yet mailed: the caller commits, then sends, so no link goes out
    that the database does not hold."""

    provider: Provider
    account: ProviderAccount
    token: str

    def send(self, settings: Settings) -> SendResult:
        subject, text = mail.invitation(settings, name=self.provider.contact_name or self.provider.name,
                                        token=self.token)
        return mail.send_now(settings, to=self.account.email, subject=subject, text=text)


def find_account(session: Session, email: str) -> ProviderAccount | None:
    return session.scalars(select(ProviderAccount).where(ProviderAccount.email == email.strip().lower())).first()


def account_of(session: Session, provider_id: str) -> ProviderAccount | None:
    return session.scalars(select(ProviderAccount).where(ProviderAccount.provider_id == provider_id)).first()


def invite(session: Session, catalog: CatalogIndex, invitee: Invitee) -> Invited:
    """Store the provider, in review mode, and its account; the caller commits, then sends."""
    problems = rules.Problems()
    email = rules.clean_email(invitee.email, problems)
    name = rules.clean_text(invitee.name, "name", problems, label="business name")
    services = rules.clean_services(invitee.services, catalog, problems)
    area = rules.clean_area(zips=invitee.zips, radius_miles=invitee.radius_miles, states=invitee.states,
                            problems=problems)
    licence_number, licence_state = rules.clean_licence(
        services=services, number=invitee.licence_number, state=invitee.licence_state, problems=problems)
    problems.raise_any("The invitation is not valid.")
    if find_account(session, email) is not None:
        raise ServiceMatchError(f"{email} has a portal account already.", fields={"email": "taken"}, status_code=409)
    provider = directory.add_provider(session=session, catalog=catalog, data=ProviderCreate(
        name=name, contact_email=email, services=services, zips=area.zips, radius_miles=area.radius_miles,
        states=area.states))
    provider.mode, provider.auto_accept = ProviderMode.REVIEW, False
    provider.contact_name, provider.phone = invitee.contact_name, invitee.phone
    provider.licence_number, provider.licence_state = licence_number, licence_state
    account = ProviderAccount(provider_id=provider.id, email=email, active=True)
    session.add(account)
    session.flush()
    return _invitation(session, provider, account)


def invite_again(session: Session, provider: Provider) -> Invited:
    """A new invitation link for a provider whose account has no password yet; older links stop working."""
    account = account_of(session, provider.id)
    if account is None:
        raise ServiceMatchError("This provider has no portal account: invite it by e-mail.", status_code=409)
    if account.password_hash is not None:
        raise ServiceMatchError(HAS_PASSWORD, status_code=409)
    tokens.void_outstanding(session, account_id=account.id, purposes=(TokenPurpose.INVITE,))
    return _invitation(session, provider, account)


def _invitation(session: Session, provider: Provider, account: ProviderAccount) -> Invited:
    token = tokens.issue(session, purpose=TokenPurpose.INVITE, account_id=account.id)
    return Invited(provider=provider, account=account, token=token)
