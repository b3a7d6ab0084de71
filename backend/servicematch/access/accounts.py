"""Accounts that sign in with a password set through a one-time link (a provider's, a buyer's
person's): the password (Argon2id), the links that set it, the optional TOTP.

Each portal describes its accounts once (`PasswordAccounts`: its tables, its session kind, its
links' purposes, how its TOTP seeds are named) and uses these rules on them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.access import mailer, passwords, totp
from servicematch.access.one_time import SPENT, OneTimeLinks
from servicematch.access.sessions import SessionKind, end_all_sessions
from servicematch.errors import ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.settings import Settings

# Password links an hour per account: enough to recover from a lost message, not a mail bomb.
LINKS_PER_HOUR = 3
FORGOT = ("If an account uses {email}, we sent it a link to choose a new password. The link works for 1 hour; "
          "check your spam folder if it does not arrive.")
WRONG_CODE = "That code is not right or was used already; enter the current one from your app."


@dataclass(frozen=True)
class PasswordAccounts:
    """One kind of account: its table (id, email, active, password_hash, password_changed_at and
    the totp_* columns), its sessions, its one-time links and the purposes of those that set a
    password, and the names its TOTP seeds are sealed and shown under."""

    table: type
    sessions: SessionKind
    links: OneTimeLinks
    invite_purpose: str
    reset_purpose: str
    totp_issuer: str
    totp_context: str  # a seed is sealed for "<totp_context>:<account id>"

    @property
    def password_purposes(self) -> tuple[str, str]:
        return self.invite_purpose, self.reset_purpose

    def find(self, session: Session, email: str):
        return session.scalars(select(self.table).where(self.table.email == passwords.normalise_email(email))).first()

    def set_password(self, session: Session, account, password: str) -> None:
        """A new password: every other link and every open session of the account stop working."""
        passwords.check_password_strength(password)
        account.password_hash = passwords.hash_password(password)
        account.password_changed_at = utcnow()
        self.links.void_outstanding(session, account_id=account.id, purposes=self.password_purposes)
        end_all_sessions(session, self.sessions, owner_id=account.id)

    def account_for_link(self, session: Session, token: str) -> tuple[object, object]:
        """The account an invitation or password link is for (its token spent when the caller commits)."""
        spent = self.links.redeem(session, token, purposes=self.password_purposes)
        account = session.get(self.table, spent.account_id)
        if account is None or not account.active:
            raise ServiceMatchError(SPENT, fields={"token": SPENT}, status_code=410)
        return spent, account

    def ask_for_password_link(self, session_factory: sessionmaker[Session], settings: Settings, email: str, *,
                              send: Callable[[str, str, bool], object]) -> str:
        """Mail a password link, after the answer, if the address is an active account's: `send(email,
        token, first)` writes and sends it. The answer is the same either way."""
        email = passwords.normalise_email(email)
        mailer.run_later(lambda: self._mail_password_link(session_factory, email, send))
        return FORGOT.format(email=email)

    def _mail_password_link(self, session_factory: sessionmaker[Session], email: str,
                            send: Callable[[str, str, bool], object]) -> None:
        now = utcnow()
        with session_factory() as session:
            account = self.find(session, email)
            if account is None or not account.active:
                return
            if self.links.issued_lately(session, account_id=account.id, purpose=self.reset_purpose,
                                        now=now) >= LINKS_PER_HOUR:
                return
            token = self.links.issue(session, purpose=self.reset_purpose, account_id=account.id, now=now)
            session.commit()
            first = account.password_hash is None
        send(email, token, first)

    def _context(self, account) -> str:
        return f"{self.totp_context}:{account.id}"

    def start_totp(self, settings: Settings, account) -> tuple[str, str]:
        """A new seed to add to an authenticator app: (the seed, its otpauth:// URI); on once confirmed."""
        seed = totp.new_seed()
        account.totp_pending = totp.sealed_seed(settings, seed, context=self._context(account))
        return seed, totp.provisioning_uri(seed, name=account.email, issuer=self.totp_issuer)

    def confirm_totp(self, settings: Settings, account, code: str) -> None:
        """Turn the second factor on with a code from the app (the pending seed), or 422."""
        if account.totp_pending is None:
            raise ServiceMatchError("Start again: no authenticator set-up is waiting.", status_code=409)
        pending = SimpleNamespace(totp_secret=account.totp_pending, totp_last_step=None)
        if not totp.verify_totp(settings, pending, code, context=self._context(account)):
            raise ServiceMatchError(WRONG_CODE, fields={"code": WRONG_CODE}, status_code=422)
        account.totp_secret, account.totp_pending, account.totp_last_step = account.totp_pending, None, \
            pending.totp_last_step

    def verify_totp(self, settings: Settings, account, code: str | None) -> bool:
        return totp.verify_totp(settings, account, code or "", context=self._context(account))


def password_matches(account, password: str) -> bool:
    """Argon2 runs whether or not the account exists or has a password yet, so timing does not tell."""
    return passwords.password_matches(account.password_hash if account is not None else None, password) \
        and account is not None and account.active


def disable_totp(account) -> None:
    account.totp_secret = account.totp_pending = account.totp_last_step = None
