"""One lead a buyer bought, as its page and GET /leads/{id} show it: the lead in full, its consent
proof as the post carried it, every attempt of the buyer's post, its return and its feedback.

Only a lead this buyer bought is found (returns.own_sale: anything else is a 404 with nothing in
it). Its personal data is decrypted for this answer only, and only while the buyer may still hold
it: once the consumer withdrew consent (the receipt's stop, a request) or had the data erased, the
page says so and shows no contact details and no free-text answers. An erased lead shows no consent
proof either: erasure kept only what proves the consent to ServiceMatch, not the proof as posted.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from servicematch.buyer.feedback import BuyerFeedback, feedback_of, feedback_view
from servicematch.buyer.leads import BuyerLeadRow, bought_row, row_fields
from servicematch.buyer.models import LeadReturn
from servicematch.buyer.returns import (
    BuyerReturn,
    own_sale,
    return_problem,
    return_views,
    returnable_until,
)
from servicematch.catalog.loader import CatalogIndex
from servicematch.delivery.models import Delivery, DeliveryAttempt, TargetKind
from servicematch.intake.models import Lead
from servicematch.intake.payload import consent_proof, decrypt_personal_data
from servicematch.portal.ledger import iso
from servicematch.portal.offers import QuestionAnswer
from servicematch.privacy.models import LeadErasure, LeadRevocation
from servicematch.privacy.notices import LEAD
from servicematch.privacy.report import in_words, question_labels
from servicematch.routing.models import Buyer, Sale
from servicematch.settings import Settings

# The answer's first characters shown per attempt: enough to read an error, never a whole page.
ANSWER_SHOWN = 500


class Withdrawn(BaseModel):
    kind: Literal["stopped", "erased"] = Field(description="stopped: consent withdrawn; erased: data erased")
    at: str


class LeadContact(BaseModel):
    firstName: str
    lastName: str
    email: str
    phone: str
    address: str
    city: str
    state: str
    zip: str


class ConsentProof(BaseModel):
    """The consent proof exactly as the lead's post carried it (intake.payload.consent_proof)."""

    text: str | None = Field(description="The consent text the consumer saw, word for word")
    sha256: str | None = Field(description="SHA-256 (hex) of `text`")
    consentedAt: str | None
    ip: str | None
    userAgent: str | None
    pageUrl: str | None
    trustedFormCertUrl: str | None
    globalPrivacyControl: bool
    doNotSell: bool
    partnerListVersion: str | None = Field(description="The marketing-partners list the consumer saw")


class PostAttempt(BaseModel):
    at: str
    httpStatus: int | None
    durationMs: int | None
    answerStart: str | None = Field(description=f"The first {ANSWER_SHOWN} characters of the buyer's answer")
    outcome: str


class ReturnInfo(BaseModel):
    returnableUntil: str | None = Field(description="Sale time + the return window; None when no returns are taken")
    canReturn: bool
    problem: str | None = Field(description="Why the lead cannot be returned now, in a sentence")


class BuyerLead(BuyerLeadRow):
    withdrawn: Withdrawn | None
    contact: LeadContact | None = Field(description="None once consent was withdrawn or the data erased")
    answers: list[QuestionAnswer]
    consent: ConsentProof | None = Field(description="None once the data was erased")
    attempts: list[PostAttempt] = Field(description="Every attempt of the buyer's post of the lead, oldest first")
    returnInfo: ReturnInfo
    lodgedReturn: BuyerReturn | None
    feedback: list[BuyerFeedback] = Field(description="The buyer's feedback on the lead, newest first")


def withdrawal_of(db: Session, lead_id: str) -> Withdrawn | None:
    """An erasure before a stop: an erased lead was stopped too, and more than that."""
    if (erased := db.get(LeadErasure, lead_id)) is not None:
        return Withdrawn(kind="erased", at=iso(erased.erased_at))
    if (revoked := db.get(LeadRevocation, lead_id)) is not None:
        return Withdrawn(kind="stopped", at=iso(revoked.revoked_at))
    return None


def _contact(stored: dict) -> LeadContact:
    address = " ".join(part for part in (stored.get("address1", ""), stored.get("address2", "")) if part)
    return LeadContact(firstName=stored.get("first", ""), lastName=stored.get("last", ""),
                       email=stored.get("email", ""), phone=stored.get("phone", ""), address=address,
                       city=stored.get("city", ""), state=stored.get("state", ""), zip=stored.get("zip", ""))


def _consent(lead: Lead) -> ConsentProof:
    carried = consent_proof(lead)["consent"]
    return ConsentProof(text=carried["text"], sha256=carried["textSha256"], consentedAt=carried["consentedAt"],
                        ip=carried["ip"], userAgent=carried["userAgent"], pageUrl=carried["pageUrl"],
                        trustedFormCertUrl=carried["trustedFormCertUrl"],
                        globalPrivacyControl=carried["globalPrivacyControl"], doNotSell=carried["doNotSell"],
                        partnerListVersion=carried["partnerListVersion"])


def post_attempts(db: Session, buyer_id: str, lead_id: str) -> list[PostAttempt]:
    """Every attempt of this buyer's post of the lead (not the notices that may follow it)."""
    attempts = db.scalars(
        select(DeliveryAttempt).join(Delivery, Delivery.id == DeliveryAttempt.delivery_id)
        .where(Delivery.lead_id == lead_id, Delivery.buyer_id == buyer_id, Delivery.kind == TargetKind.BUYER_POST,
               Delivery.payload_kind == LEAD)
        .order_by(DeliveryAttempt.attempted_at, DeliveryAttempt.id)).all()
    return [PostAttempt(at=iso(a.attempted_at), httpStatus=a.status_code, durationMs=a.duration_ms,
                        answerStart=a.response_body[:ANSWER_SHOWN] if a.response_body is not None else None,
                        outcome=a.outcome) for a in attempts]


def _return_info(db: Session, settings: Settings, buyer: Buyer, sale: Sale, now: datetime) -> ReturnInfo:
    problem = return_problem(db, buyer, sale, now, settings)
    return ReturnInfo(returnableUntil=iso(returnable_until(buyer, sale)), canReturn=problem is None, problem=problem)


def buyer_lead(db: Session, settings: Settings, catalog: CatalogIndex, buyer: Buyer, lead_id: str,
               now: datetime) -> BuyerLead:
    """The buyer's lead; 404 with nothing in it for a lead it did not buy."""
    sale = own_sale(db, buyer, lead_id)
    lead = db.get(Lead, sale.lead_id)
    lodged = db.scalars(select(LeadReturn).where(LeadReturn.sale_id == sale.id)).first()
    withdrawn = withdrawal_of(db, lead.id)
    answers, contact = dict(lead.answers or {}), None
    if withdrawn is None:
        personal = decrypt_personal_data(lead=lead, settings=settings)
        answers.update(personal.get("answers", {}))
        contact = _contact(personal.get("contact", {}))
    feedback = feedback_of(db, [sale.id])[sale.id]
    return BuyerLead(
        **row_fields(settings, bought_row(db, buyer.id, sale.id)), feedback=[feedback_view(given) for given in feedback],
        withdrawn=withdrawn, contact=contact,
        answers=[QuestionAnswer(**pair) for pair in
                 in_words(labels=question_labels(catalog, lead), contact={}, answers=answers)],
        consent=None if withdrawn is not None and withdrawn.kind == "erased" else _consent(lead),
        attempts=post_attempts(db, buyer.id, lead.id),
        returnInfo=_return_info(db, settings, buyer, sale, now),
        lodgedReturn=return_views(db, [lodged])[0] if lodged else None)

