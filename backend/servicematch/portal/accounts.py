"""Provider accounts: the password (Argon2id, set through a one-time link), the optional TOTP."""

from __future__ import annotations

from types import SimpleNamespace

from sqlalchemy import func, select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.access import passwords, totp
from servicematch.access.sessions import end_all_sessions
from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.portal import mail, tokens
from servicematch.portal.invitations import find_account
from servicematch.portal.models import PortalToken, ProviderAccount, TokenPurpose
from servicematch.portal.sessions import PORTAL
from servicematch.settings import Settings

TOTP_ISSUER = "ServiceMatch provider portal"
# Password links an hour per account: enough to recover from a lost message, not a mail bomb.
LINKS_PER_HOUR = 3
FORGOT = ("If an account uses {email}, we sent it a link to choose a new password. The link works for 1 hour; "
          "check your spam folder if it does not arrive.")
WRONG_CODE = "That code is not right or was used already; enter the current one from your app."


def password_matches(account: ProviderAccount | None, password: str) -> bool:
    """Argon2 runs whether or not the account exists or has a password yet, so timing does not tell."""
    return passwords.password_matches(account.password_hash if account is not None else None, password) \
        and account is not None and account.active


def set_password(session: Session, account: ProviderAccount, password: str) -> None:
    """A new password: every other link and every open session of the account stop working."""
    passwords.check_password_strength(password)
    account.password_hash = passwords.hash_password(password)
    account.password_changed_at = utcnow()
    tokens.void_outstanding(session, account_id=account.id, purposes=(TokenPurpose.INVITE, TokenPurpose.RESET))
    end_all_sessions(session, PORTAL, owner_id=account.id)


def account_for_link(session: Session, token: str) -> tuple[PortalToken, ProviderAccount]:
    """The account an invitation or password link is for (its token spent when the caller commits)."""
    spent = tokens.redeem(session, token, purposes=(TokenPurpose.INVITE, TokenPurpose.RESET))
    account = session.get(ProviderAccount, spent.account_id)
    if account is None or not account.active:
        raise ServiceMatchError(tokens.SPENT, fields={"token": tokens.SPENT}, status_code=410)
    return spent, account


def forgot_password(session_factory: sessionmaker[Session], settings: Settings, email: str) -> str:
    """Mail a password link, after the answer, if the address is an active account's; the answer is the same either way."""
    email = passwords.normalise_email(email)
    mail.run_later(lambda: _mail_password_link(session_factory, settings, email))
    return FORGOT.format(email=email)


def _mail_password_link(session_factory: sessionmaker[Session], settings: Settings, email: str) -> None:
    now = utcnow()
    with session_factory() as session:
        account = find_account(session, email)
        if account is None or not account.active:
            return
        recent = session.scalar(select(func.count()).select_from(PortalToken).where(
            PortalToken.account_id == account.id, PortalToken.purpose == TokenPurpose.RESET,
            PortalToken.created_at > now - tokens.LIFETIME[TokenPurpose.RESET]))
        if recent >= LINKS_PER_HOUR:
            return
        token = tokens.issue(session, purpose=TokenPurpose.RESET, account_id=account.id, now=now)
        session.commit()
        first = account.password_hash is None
    subject, text = mail.password_link(settings, token=token, first=first)
    mail.send_now(settings, to=email, subject=subject, text=text)


def _totp_context(account: ProviderAccount) -> str:
    return f"provider-account-totp:{account.id}"


def start_totp(settings: Settings, account: ProviderAccount) -> tuple[str, str]:
    """A new seed to add to an authenticator app: (the seed, its otpauth:// URI); on once confirmed."""
    seed = totp.new_seed()
    account.totp_pending = totp.sealed_seed(settings, seed, context=_totp_context(account))
    return seed, totp.provisioning_uri(seed, name=account.email, issuer=TOTP_ISSUER)


def confirm_totp(settings: Settings, account: ProviderAccount, code: str) -> None:
    """Turn the second factor on with a code from the app (the pending seed), or 422."""
    if account.totp_pending is None:
        raise ServiceMatchError("Start again: no authenticator set-up is waiting.", status_code=409)
    pending = SimpleNamespace(totp_secret=account.totp_pending, totp_last_step=None)
    if not totp.verify_totp(settings, pending, code, context=_totp_context(account)):
        raise ServiceMatchError(WRONG_CODE, fields={"code": WRONG_CODE}, status_code=422)
    account.totp_secret, account.totp_pending, account.totp_last_step = account.totp_pending, None, \
        pending.totp_last_step


def verify_totp(settings: Settings, account: ProviderAccount, code: str | None) -> bool:
    return totp.verify_totp(settings, account, code or "", context=_totp_context(account))


def disable_totp(account: ProviderAccount) -> None:
    account.totp_secret = account.totp_pending = account.totp_last_step = None
