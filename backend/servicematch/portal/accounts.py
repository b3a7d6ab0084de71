"""Provider accounts: access/accounts.py's rules (the password, set through a one-time link; the
optional TOTP) on the providers' own tables."""

from __future__ import annotations

from sqlalchemy.orm import Session, sessionmaker

from servicematch.access.accounts import (
    FORGOT,
    LINKS_PER_HOUR,
    WRONG_CODE,
    PasswordAccounts,
    disable_totp,
    password_matches,
)
from servicematch.portal import mail, tokens
from servicematch.portal.models import PortalToken, ProviderAccount, TokenPurpose
from servicematch.portal.sessions import PORTAL
from servicematch.settings import Settings

__all__ = ["FORGOT", "LINKS_PER_HOUR", "WRONG_CODE", "disable_totp", "password_matches"]

TOTP_ISSUER = "ServiceMatch provider portal"
PROVIDER_ACCOUNTS = PasswordAccounts(table=ProviderAccount, sessions=PORTAL, links=tokens.LINKS,
                                     invite_purpose=TokenPurpose.INVITE, reset_purpose=TokenPurpose.RESET,
                                     totp_issuer=TOTP_ISSUER, totp_context="provider-account-totp")


def set_password(session: Session, account: ProviderAccount, password: str) -> None:
    """A new password: every other link and every open session of the account stop working."""
    PROVIDER_ACCOUNTS.set_password(session, account, password)


def account_for_link(session: Session, token: str) -> tuple[PortalToken, ProviderAccount]:
    """The account an invitation or password link is for (its token spent when the caller commits)."""
    return PROVIDER_ACCOUNTS.account_for_link(session, token)


def forgot_password(session_factory: sessionmaker[Session], settings: Settings, email: str) -> str:
    """Mail a password link, after the answer, if the address is an active account's; the answer is
    the same either way."""
    def send(address: str, token: str, first: bool) -> None:
        subject, text = mail.password_link(settings, token=token, first=first)
        mail.send_now(settings, to=address, subject=subject, text=text)

    return PROVIDER_ACCOUNTS.ask_for_password_link(session_factory, settings, email, send=send)


def start_totp(settings: Settings, account: ProviderAccount) -> tuple[str, str]:
    """A new seed to add to an authenticator app: (the seed, its otpauth:// URI); on once confirmed."""
    return PROVIDER_ACCOUNTS.start_totp(settings, account)


def confirm_totp(settings: Settings, account: ProviderAccount, code: str) -> None:
    PROVIDER_ACCOUNTS.confirm_totp(settings, account, code)


def verify_totp(settings: Settings, account: ProviderAccount, code: str | None) -> bool:
    return PROVIDER_ACCOUNTS.verify_totp(settings, account, code)
