"""Inviting a buyer's people (an operator, in the console or with `servicematch buyers invite`):
an account without a password, and a one-time link to choose one (72 hours). A buyer may have
several people; an e-mail address belongs to one person only. Disabling a person ends its
sessions and links; inviting it again lets it back in, with a password of its choosing."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from servicematch.access import passwords
from servicematch.access.sessions import end_all_sessions
from servicematch.buyer import mail, tokens
from servicematch.buyer.accounts import BUYER_ACCOUNTS, find_account
from servicematch.buyer.models import BuyerAccount, BuyerTokenPurpose
from servicematch.buyer.sessions import BUYER_PORTAL
from servicematch.errors import NotFound, ServiceMatchError
from servicematch.kernel.clock import utcnow
from servicematch.outbound.outcome import SendResult
from servicematch.routing.models import Buyer
from servicematch.settings import Settings

# People per buyer: a sales floor's managers, not every agent (they use the buyer's own systems).
MAX_PEOPLE = 50
HAS_PASSWORD = "This person has chosen a password already: they sign in, or ask for a new password at /buyer."
NO_SUCH_PERSON = "This buyer has no such person."


@dataclass(frozen=True)
class Invited:
    """An invitation stored but not yet mailed: the caller commits, then sends, so no link goes out
    that the database does not hold."""

    buyer: Buyer
    account: BuyerAccount
    token: str

    def send(self, settings: Settings) -> SendResult:
        subject, text = mail.invitation(settings, buyer_name=self.buyer.name, token=self.token)
        return mail.send_now(settings, to=self.account.email, subject=subject, text=text)


def clean_email(email: str) -> str:
    email = passwords.normalise_email(email or "")
    if len(email) > 254 or not passwords.EMAIL_PATTERN.match(email):
        message = "Enter an e-mail address, like jane@buyer.example."
        raise ServiceMatchError(message, fields={"email": message}, status_code=422)
    return email


def invite(session: Session, buyer: Buyer, email: str, *, invited_by: str) -> Invited:
    """Store the person, without a password, and its link; the caller commits, then sends.
    409 when the address is any buyer's person's already."""
    email = clean_email(email)
    if (existing := find_account(session, email)) is not None:
        mine = ", of this buyer" if existing.buyer_id == buyer.id else ""
        raise ServiceMatchError(f"{email} is a buyer portal person already{mine}.", fields={"email": "taken"},
                                status_code=409)
    people = session.scalar(select(func.count()).select_from(BuyerAccount).where(
        BuyerAccount.buyer_id == buyer.id, BuyerAccount.active.is_(True)))
    if people >= MAX_PEOPLE:
        raise ServiceMatchError(f"A buyer may have {MAX_PEOPLE} people at most: disable someone who left first.",
                                status_code=409)
    account = BuyerAccount(buyer_id=buyer.id, email=email, active=True, invited_by=invited_by[:254],
                           created_at=utcnow())
    session.add(account)
    session.flush()
    return _invitation(session, buyer, account)


def person_of(session: Session, buyer_id: str, account_id: str) -> BuyerAccount:
    account = session.get(BuyerAccount, account_id) if len(account_id) <= 36 else None
    if account is None or account.buyer_id != buyer_id:
        raise NotFound(NO_SUCH_PERSON)
    return account


def invite_again(session: Session, buyer: Buyer, account_id: str) -> Invited:
    """A new invitation link for a person who has not chosen a password yet, or who was disabled
    (let back in: the old password is void, the link sets a new one). Older links stop working."""
    account = person_of(session, buyer.id, account_id)
    if account.active and account.password_hash is not None:
        raise ServiceMatchError(HAS_PASSWORD, status_code=409)
    account.active, account.password_hash = True, None
    account.totp_secret = account.totp_pending = account.totp_last_step = None
    return _invitation(session, buyer, account)


def disable(session: Session, buyer_id: str, account_id: str) -> BuyerAccount:
    """The person can no longer sign in: its sessions end and its links stop working at once."""
    account = person_of(session, buyer_id, account_id)
    account.active = False
    tokens.LINKS.void_outstanding(session, account_id=account.id, purposes=BUYER_ACCOUNTS.password_purposes)
    end_all_sessions(session, BUYER_PORTAL, owner_id=account.id)
    return account


def _invitation(session: Session, buyer: Buyer, account: BuyerAccount) -> Invited:
    tokens.LINKS.void_outstanding(session, account_id=account.id, purposes=(BuyerTokenPurpose.INVITE,))
    token = tokens.LINKS.issue(session, purpose=BuyerTokenPurpose.INVITE, account_id=account.id)
    return Invited(buyer=buyer, account=account, token=token)
