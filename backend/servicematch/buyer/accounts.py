"""A buyer's people: access/accounts.py's rules (a password set through a one-time link, the
optional TOTP) and the sign-in steps of access/portal_signin.py, on the buyers' own tables,
cookies, links and audit actions."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from servicematch.access.accounts import PasswordAccounts
from servicematch.access.portal_signin import PortalDoor, SignInActions
from servicematch.buyer import mail, tokens
from servicematch.buyer.models import BuyerAccount, BuyerTokenPurpose
from servicematch.buyer.sessions import BUYER_DEVICE, BUYER_PORTAL, SIGNIN_SURFACE
from servicematch.settings import Settings


class Action:
    """The buyer portal's audit actions (its people's and keys'; an operator's are the console's)."""

    SIGN_IN = "buyer.signin.success"
    SIGN_IN_FAILED = "buyer.signin.failure"
    SIGN_OUT = "buyer.signout"
    PASSWORD_SET = "buyer.password.set"
    TOTP_ON = "buyer.totp.on"
    TOTP_OFF = "buyer.totp.off"
    KNOWN_DEVICE = "buyer.signin.known_device"
    LINK_SENT = "buyer.signin.link_sent"
    LINK_USED = "buyer.signin.link_used"
    KEY_CREATE = "buyer.key.create"
    KEY_REVOKE = "buyer.key.revoke"


BUYER_ACCOUNTS = PasswordAccounts(table=BuyerAccount, sessions=BUYER_PORTAL, links=tokens.LINKS,
                                  invite_purpose=BuyerTokenPurpose.INVITE, reset_purpose=BuyerTokenPurpose.RESET,
                                  totp_issuer="ServiceMatch buyer portal", totp_context="buyer-account-totp")
BUYER_DOOR = PortalDoor(accounts=BUYER_ACCOUNTS, device=BUYER_DEVICE, surface=SIGNIN_SURFACE, actions=SignInActions(
    sign_in=Action.SIGN_IN, failed=Action.SIGN_IN_FAILED, password_set=Action.PASSWORD_SET,
    known_device=Action.KNOWN_DEVICE, link_sent=Action.LINK_SENT, link_used=Action.LINK_USED))


def find_account(session: Session, email: str) -> BuyerAccount | None:
    return BUYER_ACCOUNTS.find(session, email)


def people_of(session: Session, buyer_id: str) -> list[BuyerAccount]:
    """The buyer's people, in the order they were invited."""
    return list(session.scalars(select(BuyerAccount).where(BuyerAccount.buyer_id == buyer_id)
                                .order_by(BuyerAccount.created_at, BuyerAccount.id)))


def forgot_password(session_factory: sessionmaker[Session], settings: Settings, email: str) -> str:
    """Mail a password link, after the answer, if the address is an active person's; the answer is
    the same either way."""
    def send(address: str, token: str, first: bool) -> None:
        subject, text = mail.password_link(settings, token=token, first=first)
        mail.send_now(settings, to=address, subject=subject, text=text)

    return BUYER_ACCOUNTS.ask_for_password_link(session_factory, settings, email, send=send)


def mail_signin_link(settings: Settings, address: str, token: str) -> None:
    subject, text = mail.signin_link(settings, token=token)
    mail.send_now(settings, to=address, subject=subject, text=text)
