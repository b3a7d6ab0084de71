"""A buyer's people in the console: who may sign in to the buyer portal for it. Any operator reads
the list; only admins invite (a link to choose a password, mailed now), send the link again or
disable someone, as with providers' invitations; every change is on the audit log in the same
transaction. The e-mail goes out after the commit, so no link is sent that the database lacks."""

from __future__ import annotations

from fastapi import APIRouter, Path, Response
from pydantic import BaseModel, ConfigDict

from servicematch.buyer import accounts, invitations
from servicematch.buyer.models import BuyerAccount
from servicematch.console import audit
from servicematch.console.applications import MailSent
from servicematch.console.auth import AdminOnly, AnyOperator, Db
from servicematch.console.paging import iso
from servicematch.deps import SettingsDep
from servicematch.errors import SIGNED_IN_ERROR_RESPONSES, ErrorBody, ServiceMatchError
from servicematch.intake.schemas import text
from servicematch.outbound.outcome import Outcome, SendResult
from servicematch.routing.buyers import get_buyer

router = APIRouter(prefix="/api/console", tags=["console"], responses=SIGNED_IN_ERROR_RESPONSES)
# The audit log's names of these changes (console/audit.py's Action names the others).
PERSON_INVITE = "buyer.person.invite"
PERSON_INVITE_AGAIN = "buyer.person.invite_again"
PERSON_DISABLE = "buyer.person.disable"
NOT_FOUND = {404: {"model": ErrorBody, "description": "No such buyer, or no such person of it"}}
REFUSED = {409: {"model": ErrorBody, "description": "The address is taken, or the person has a password already"}}
NOT_SENT = {502: {"model": ErrorBody, "description": "The link is stored but the e-mail was not sent; try again"}}
BuyerId = Path(max_length=36)
AccountId = Path(max_length=36)


class ConsoleBuyerPerson(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    email: str
    active: bool
    hasPassword: bool
    createdAt: str
    invitedBy: str


class ConsoleBuyerPeople(BaseModel):
    items: list[ConsoleBuyerPerson]


class BuyerPersonInvitation(BaseModel):
    model_config = ConfigDict(extra="forbid")

    email: text(254, min_length=1)


class BuyerPersonInvited(BaseModel):
    person: ConsoleBuyerPerson
    email: MailSent


def person_json(person: BuyerAccount) -> ConsoleBuyerPerson:
    return ConsoleBuyerPerson(id=person.id, email=person.email, active=person.active,
                              hasPassword=person.password_hash is not None, createdAt=iso(person.created_at),
                              invitedBy=person.invited_by)


def _mail(result: SendResult) -> MailSent:
    sent = result.outcome == Outcome.DELIVERED
    return MailSent(sent=sent, error=None if sent else result.error or result.outcome)


@router.get("/buyers/{buyer_id}/people", response_model=ConsoleBuyerPeople, responses=NOT_FOUND,
            summary="The buyer's people: who may sign in to the buyer portal for it")
def list_people(caller: AnyOperator, db: Db, buyer_id: str = BuyerId) -> ConsoleBuyerPeople:
    buyer = get_buyer(db, buyer_id)
    return ConsoleBuyerPeople(items=[person_json(person) for person in accounts.people_of(db, buyer.id)])


@router.post("/buyers/{buyer_id}/people", status_code=201, response_model=BuyerPersonInvited,
             responses={**NOT_FOUND, **REFUSED},
             summary="Invite a person of the buyer: e-mailed a link (72 hours) to choose a password (admins)")
def invite_person(body: BuyerPersonInvitation, caller: AdminOnly, db: Db, settings: SettingsDep,
                  buyer_id: str = BuyerId) -> BuyerPersonInvited:
    buyer = get_buyer(db, buyer_id)
    invited = invitations.invite(db, buyer, body.email, invited_by=caller.operator.email)
    audit.record(db, action=PERSON_INVITE, operator=caller.operator, ip=caller.ip, target=buyer.id,
                 detail={"personId": invited.account.id})
    db.commit()
    sent = invited.send(settings)
    return BuyerPersonInvited(person=person_json(invited.account), email=_mail(sent))


@router.post("/buyers/{buyer_id}/people/{account_id}/invite-again", status_code=204,
             responses={**NOT_FOUND, **REFUSED, **NOT_SENT},
             summary="A new invitation link for a person who has no password yet, or who was disabled (admins)")
def invite_again(caller: AdminOnly, db: Db, settings: SettingsDep, buyer_id: str = BuyerId,
                 account_id: str = AccountId) -> Response:
    buyer = get_buyer(db, buyer_id)
    invited = invitations.invite_again(db, buyer, account_id)
    audit.record(db, action=PERSON_INVITE_AGAIN, operator=caller.operator, ip=caller.ip, target=buyer.id,
                 detail={"personId": invited.account.id})
    db.commit()
    sent = invited.send(settings)
    if sent.outcome != Outcome.DELIVERED:
        raise ServiceMatchError(f"The new link is stored, but the e-mail was not sent ({_mail(sent).error}); "
                                "try again.", status_code=502)
    return Response(status_code=204)


@router.post("/buyers/{buyer_id}/people/{account_id}/disable", status_code=204, responses=NOT_FOUND,
             summary="Disable a person: signed out everywhere, its links void, no sign-in until invited again (admins)")
def disable_person(caller: AdminOnly, db: Db, buyer_id: str = BuyerId, account_id: str = AccountId) -> Response:
    buyer = get_buyer(db, buyer_id)
    person = invitations.disable(db, buyer.id, account_id)
    audit.record(db, action=PERSON_DISABLE, operator=caller.operator, ip=caller.ip, target=buyer.id,
                 detail={"personId": person.id})
    db.commit()
    return Response(status_code=204)
