"""Buyers in the console: routing's directory (routing/buyers.py) in the console's shape, with what
each bought today and this month, its recent bids, and a test ping and a test post."""

from __future__ import annotations

import time
import uuid
from dataclasses import fields as dataclass_fields
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.orm import Session

from servicematch.catalog.partners import list_versions
from servicematch.console.paging import iso
from servicematch.console.shapes import Shape
from servicematch.errors import ServiceMatchError
from servicematch.intake.models import ConsentRecord, Lead
from servicematch.intake.payload import consent_proof
from servicematch.kernel.clock import utcnow
from servicematch.kernel.numbers import Number, whole_number
from servicematch.outbound.http_sender import DeliveryClient, encode_body, post_signed
from servicematch.outbound.outcome import SendResult
from servicematch.routing import buyers as directory
from servicematch.routing.models import Buyer
from servicematch.routing.pings import ping_body, read_bid
from servicematch.routing.reports import recent_bids
from servicematch.settings import Settings

# The console's field names, and the directory's (BuyerTerms, check_terms's errors).
RENAMES = {"postUrl": "post_url", "pingUrl": "ping_url", "dailyCap": "daily_cap",
           "monthlyBudget": "monthly_budget", "price": "price"}
BACK = {directory_name: console_name for console_name, directory_name in RENAMES.items()}


class BuyerFields(BaseModel):
    """What the console sends; on a change, only the fields to change. Dollars, not cents."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = Field(default=None, max_length=200)
    postUrl: str | None = Field(default=None, max_length=2000)
    pingUrl: str | None = Field(default=None, max_length=2000)
    price: Number | None = None
    services: list[str] | None = Field(default=None, max_length=200)
    states: list[str] | None = Field(default=None, max_length=60)
    zips: list[str] | None = Field(default=None, max_length=5000)
    exclusive: bool | None = None
    dailyCap: whole_number(le=1_000_000) | None = None
    monthlyBudget: Number | None = None
    hours: str | None = Field(default=None, max_length=120)
    secret: str | None = Field(default=None, max_length=200)


class ConsoleBuyer(Shape):
    """A buyer as the console lists it, never its secret; money in dollars."""

    id: str
    name: str
    active: bool
    postUrl: str
    pingUrl: str | None
    mode: Literal["ping-post", "fixed price"]
    exclusive: bool
    price: float | None
    services: list[str]
    states: list[str]
    zips: list[str]
    dailyCap: int | None
    monthlyBudget: float | None
    hours: str | None
    leadsToday: int
    spentThisMonth: float


class ConsoleBuyerList(Shape):
    items: list[ConsoleBuyer]


class NewBuyer(ConsoleBuyer):
    """The answer to adding a buyer: the only one that carries its signing secret."""

    secret: str


class PingTried(Shape):
    outcome: Literal["bid", "pass"]
    bid: float | None
    reason: str | None
    httpStatus: int | None
    durationMs: int
    pingId: str


class PostTried(Shape):
    outcome: str
    httpStatus: int | None
    error: str | None
    durationMs: int


class BuyerBid(Shape):
    leadId: str
    requestId: str
    service: str
    state: str | None
    kind: str
    amount: float | None
    reason: str | None
    atMs: int
    at: str | None


class BuyerBidList(Shape):
    items: list[BuyerBid]


def _console_error(exc: ServiceMatchError) -> ServiceMatchError:
    fields = {BACK.get(name, name): message for name, message in exc.fields.items()}
    return ServiceMatchError(exc.error, fields=fields, status_code=422)


def _terms_of(buyer: Buyer | None) -> directory.BuyerTerms:
    if buyer is None:
        return directory.BuyerTerms(name="", post_url="")
    return directory.BuyerTerms(
        name=buyer.name, post_url=buyer.post_url, ping_url=buyer.ping_url, price_cents=buyer.price_cents,
        services=list(buyer.services or []), states=list(buyer.states or []), zips=list(buyer.zips or []),
        exclusive=buyer.exclusive, daily_cap=buyer.daily_cap, monthly_budget_cents=buyer.monthly_budget_cents,
        hours=buyer.hours)


def terms(fields: BuyerFields, buyer: Buyer | None = None) -> directory.BuyerTerms:
    """The buyer's terms with the fields sent laid over them (a new buyer starts empty)."""
    sent = fields.model_dump(exclude_unset=True)
    base = _terms_of(buyer)
    try:
        if "price" in sent:
            base.price_cents = directory.to_cents(sent.pop("price"), field="price")
        if "monthlyBudget" in sent:
            base.monthly_budget_cents = directory.to_cents(sent.pop("monthlyBudget"), field="monthly_budget")
    except ServiceMatchError as exc:
        raise _console_error(exc) from None
    known = {f.name for f in dataclass_fields(directory.BuyerTerms)}
    for name, value in sent.items():
        target = RENAMES.get(name, name)
        if target in known:
            setattr(base, target, value)
    # An explicit null is an empty value, which check_terms refuses with the field's name.
    base.name, base.post_url, base.exclusive = base.name or "", base.post_url or "", bool(base.exclusive)
    return base


def add(session: Session, fields: BuyerFields, settings: Settings) -> Buyer:
    try:
        return directory.add_buyer(session, terms(fields), allow_private=settings.private_webhooks_allowed)
    except ServiceMatchError as exc:
        raise _console_error(exc) from None


def change(session: Session, buyer_id: str, fields: BuyerFields, settings: Settings) -> Buyer:
    buyer = directory.get_buyer(session, buyer_id)
    try:
        return directory.update_buyer(session, buyer.id, terms(fields, buyer),
                                      allow_private=settings.private_webhooks_allowed)
    except ServiceMatchError as exc:
        raise _console_error(exc) from None


def _dollars(cents: int | None) -> float | None:
    return None if cents is None else cents / 100


def buyer_json(buyer: Buyer, spent: directory.Spending | None) -> dict:
    """A buyer as the console lists it: never its secret."""
    return {
        "id": buyer.id, "name": buyer.name, "active": buyer.active,
        "postUrl": buyer.post_url, "pingUrl": buyer.ping_url,
        "mode": "ping-post" if buyer.ping_url else "fixed price",
        "exclusive": buyer.exclusive, "price": _dollars(buyer.price_cents),
        "services": buyer.services or [], "states": buyer.states or [], "zips": buyer.zips or [],
        "dailyCap": buyer.daily_cap, "monthlyBudget": _dollars(buyer.monthly_budget_cents),
        "hours": buyer.hours,
        "leadsToday": spent.today if spent else 0, "spentThisMonth": _dollars(spent.month_cents if spent else 0),
    }


def buyers_json(session: Session, buyers: list[Buyer]) -> list[dict]:
    spent = directory.spending(session, [buyer.id for buyer in buyers], utcnow())
    return [buyer_json(buyer, spent.get(buyer.id)) for buyer in buyers]


def bids_json(session: Session, buyer_id: str, *, limit: int) -> list[dict]:
    directory.get_buyer(session, buyer_id)
    return [{"leadId": lead.id, "requestId": lead.request_id, "service": lead.service, "state": lead.state,
             "kind": step.kind, "amount": _dollars(step.amount_cents),
             "reason": step.detail if step.amount_cents is None else None,
             "atMs": step.at_ms, "at": step.created_at.isoformat() if step.created_at else None}
            for step, lead in recent_bids(session, buyer_id, limit=limit)]


# Made-up facts, nobody's: what a buyer is pinged with for a test, and the consent it would prove.
SAMPLE_FACTS = {"vertical": "services", "service": "hvac", "category": "HVAC", "state": "TX",
                "zip": "78701", "answers": {"project": "repair"}}
SAMPLE_CONSENT = ("TEST ONLY. This is a sample lead sent from the ServiceMatch console to test a buyer's "
                  "endpoint; no consumer gave consent and nobody is to be contacted.")


def _sample_lead() -> Lead:
    """A lead that is never stored, marked as a test."""
    lead = Lead(id=f"test-{uuid.uuid4()}", request_id=f"test-{uuid.uuid4()}", is_test=True, do_not_sell=False,
                created_at=utcnow(), **SAMPLE_FACTS)
    lead.consent = ConsentRecord(consent_text=SAMPLE_CONSENT, consent_text_sha256="0" * 64,
                                 partner_list_version="test", consented_at=lead.created_at,
                                 ip_address="192.0.2.1", user_agent="ServiceMatch console test",
                                 page_url="https://example.com/test", global_privacy_control=False)
    return lead


def _send(buyer: Buyer, *, url: str, body: dict, message_id: str, timeout_ms: int, settings: Settings) -> SendResult:
    # The worker's own client and rules: no private address or plain http where buyers may not be.
    client = DeliveryClient(allow_private=settings.private_webhooks_allowed)
    try:
        return post_signed(client=client, url=url, body=encode_body(body), secret=buyer.secret,
                           message_id=message_id, idempotency_key=message_id, timestamp=int(time.time()),
                           timeout=timeout_ms / 1000, allow_private=settings.private_webhooks_allowed)
    finally:
        client.close()


def test_ping(buyer: Buyer, settings: Settings) -> dict:
    """Ping the buyer now with a sample lead's facts, and read its answer as an auction would."""
    if not buyer.ping_url:
        raise ServiceMatchError("This buyer has no ping URL: it bids its fixed price for every lead it takes.",
                                status_code=409)
    lead = _sample_lead()
    ping_id = f"test-{uuid.uuid4()}"
    body = ping_body(lead=lead, ping_id=ping_id, exclusive=buyer.exclusive)
    started = time.monotonic()
    sent = _send(buyer, url=buyer.ping_url, body=body, message_id=ping_id, timeout_ms=settings.ping_timeout_ms,
                 settings=settings)
    elapsed = round((time.monotonic() - started) * 1000)
    cents, why = read_bid(sent.status_code, sent.response_body, max_cents=settings.max_bid_cents)
    if cents is None and not sent.status_code and sent.error:
        why = sent.error
    return {"outcome": "bid" if cents is not None else "pass", "bid": _dollars(cents), "reason": why,
            "httpStatus": sent.status_code, "durationMs": elapsed, "pingId": ping_id}


def test_post(buyer: Buyer, settings: Settings) -> dict:
    """Post a sample lead marked as a test, with clearly fake details, to the buyer's post URL now."""
    lead = _sample_lead()
    body = {
        "istest": "Y", "test": True, "requestId": lead.request_id,
        "consumer": {"first": "Test", "last": "Lead", "email": "test@example.com", "phone": "5555550100",
                     "address1": "1 Test Street", "city": "Austin", "state": "TX", "zip": "78701",
                     "vertical": lead.vertical, "category": lead.category},
        **consent_proof(lead),
    }
    started = time.monotonic()
    sent = _send(buyer, url=buyer.post_url, body=body, message_id=lead.request_id,
                 timeout_ms=settings.post_timeout_ms, settings=settings)
    return {"outcome": sent.outcome, "httpStatus": sent.status_code, "error": sent.error,
            "durationMs": round((time.monotonic() - started) * 1000)}


class PartnerListItem(Shape):
    """A published marketing-partners list: the version a consent record's `partnersVersion` names."""

    version: str
    publishedAt: str | None
    partners: list[str]
    count: int


class PartnerLists(Shape):
    items: list[PartnerListItem]


def partner_lists_json(session: Session, *, limit: int = 50) -> list[dict]:
    """The published marketing-partners versions, newest first: what each consent record's
    `partnersVersion` names (catalog/partners.py)."""
    return [{"version": row.id, "publishedAt": iso(row.published_at), "partners": list(row.partners),
             "count": len(row.partners)} for row in list_versions(session, limit=limit)]
