"""Reviews: the request e-mail a week after acceptance (once, never for a stopped or erased lead),
the signed link, rating once, the provider's list and rating, and an operator hiding a review."""

from __future__ import annotations

import re
import uuid
from datetime import timedelta

import pytest
from offer_rows import add_offer, portal_provider
from portal_support import body
from sqlalchemy import select

from servicematch.access.models import AuditEntry
from servicematch.console import accounts as operator_accounts
from servicematch.delivery.models import Delivery, DeliveryStatus
from servicematch.intake.checks import CheckedLead
from servicematch.intake.consent import ConsentEvidence
from servicematch.intake.models import Lead
from servicematch.intake.service import NewLead, build_lead
from servicematch.kernel.clock import utcnow
from servicematch.portal.models import ProviderReview
from servicematch.portal.review_requests import request_reviews
from servicematch.portal.reviews import review_url
from servicematch.privacy import actions
from servicematch.privacy.links import sign_link
from servicematch.privacy.models import LeadErasure
from servicematch.routing.models import OfferStatus, ProviderOffer
from servicematch.workers import make_worker

CONSUMER = {"first": "Maria", "last": "Garcia", "email": "maria.garcia@example.com", "address1": "500 Congress Ave",
            "address2": "", "city": "Austin", "state": "TX", "zip": "78701"}
ACCEPTED_AT = utcnow() - timedelta(days=30)


@pytest.fixture
def make_lead(app, settings):
    def make(email: str = CONSUMER["email"]):
        contact = {**CONSUMER, "email": email, "phone": f"512555{uuid.uuid4().int % 10_000:04d}"}
        checked = CheckedLead(service=app.state.catalog.find("hvac", "services"), flow="form", contact=contact,
                              answers={"cq1": "Replace an existing system"})
        lead = build_lead(settings=settings, checked=checked, request_id=str(uuid.uuid4()),
                          request_hash=uuid.uuid4().hex, is_test=False, click={}, do_not_sell=False)
        evidence = ConsentEvidence(ip_address="203.0.113.7", user_agent="pytest", page_url="http://x.example/",
                                   trustedform_cert_url="", global_privacy_control=False)
        return app.state.lead_store.transactions.store_one(NewLead(lead=lead, evidence=evidence)).lead

    return make


@pytest.fixture
def offer(app, make_lead):
    """offer(status=accepted, name=..., lead=None, provider_id=None) -> (offer id, lead id, provider id)."""

    def make(status: str = OfferStatus.ACCEPTED, *, name: str = "Cool Air LLC", lead=None, provider_id=None):
        lead = lead or make_lead()
        with app.state.session_factory() as session:
            provider_id = provider_id or portal_provider(session, name).id
            row = add_offer(session, lead_id=lead.id, provider_id=provider_id, status=status, at=ACCEPTED_AT)
            session.commit()
            return row.id, lead.id, provider_id

    return make


def _token(offer_id: str, settings, **when) -> str:
    return review_url(settings=settings, offer_id=offer_id, **when).split("#", 1)[1]


def _asked(app, offer_id: str) -> list[Delivery]:
    with app.state.session_factory() as session:
        return list(session.scalars(select(Delivery).where(Delivery.payload_kind == "review_request",
                                                           Delivery.target_key == f"review:{offer_id}")))


def _request(app, settings, days: float) -> int:
    return request_reviews(session_factory=app.state.session_factory, settings=settings,
                           now=ACCEPTED_AT + timedelta(days=days))


def test_the_consumer_is_asked_once_a_week_after_acceptance_by_one_e_mail(app, client, settings, offer, mailbox):
    offer_id, _, _ = offer()
    assert _request(app, settings, 6.99) == 0 and _asked(app, offer_id) == []  # not yet
    assert _request(app, settings, 7) == 1
    assert _request(app, settings, 7.5) == 0 and _request(app, settings, 20) == 0  # once only
    (row,) = _asked(app, offer_id)
    assert row.kind == "consumer_email" and row.status == DeliveryStatus.PENDING and row.provider_id is None
    with app.state.session_factory() as session:
        assert session.get(ProviderOffer, offer_id).review_requested_at is not None

    worker = make_worker(session_factory=app.state.session_factory, settings=settings,
                         clock=lambda: ACCEPTED_AT + timedelta(days=7, minutes=1))
    try:
        worker.run_until_idle()
    finally:
        worker.close()
    (mail,) = [m for m in mailbox.wait_for(CONSUMER["email"]) if "Rate" in m["Subject"]]
    text = body(mail)
    assert mail["Subject"] == "How did Cool Air LLC do? Rate your HVAC provider"
    assert "Hello Maria," in text and "Cool Air LLC took on your HVAC request" in text
    token = re.search(r"https://servicematch\.example/review#([\w\-.]+)", text).group(1)
    assert "/privacy/stop?t=" in text and mail["List-Unsubscribe"].startswith("<https://servicematch.example/api/")
    assert CONSUMER["last"] not in text  # the e-mail needs no more than the first name
    (row,) = _asked(app, offer_id)
    assert row.status == DeliveryStatus.DELIVERED
    assert _lookup(client, token) == {"providerName": "Cool Air LLC", "serviceName": "HVAC", "alreadyRated": False}


def _lookup(client, token: str) -> dict:
    answer = client.post("/api/reviews/lookup", json={"token": token})
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_offers_not_accepted_and_stopped_or_erased_leads_are_never_asked(app, settings, offer):
    others = [offer(status)[0] for status in (OfferStatus.OPEN, OfferStatus.DECLINED, OfferStatus.EXPIRED,
                                              OfferStatus.WITHDRAWN)]
    stopped_offer, stopped_lead, _ = offer()
    erased_offer, erased_lead, _ = offer()
    queued_offer, queued_lead, _ = offer()
    late_offer, _, _ = offer()
    with app.state.session_factory() as session:
        session.get(ProviderOffer, late_offer).decided_at = ACCEPTED_AT - timedelta(days=60)  # long before
        actions.revoke(session=session, leads=[session.get(Lead, stopped_lead)], method="test", request_id=None,
                       now=utcnow())
        actions.erase(session=session, settings=settings, leads=[session.get(Lead, erased_lead)], reason="test",
                      now=utcnow(), notify=False)
        session.commit()
    assert _request(app, settings, 7) == 1  # only the one still to ask
    assert all(_asked(app, offer_id) == [] for offer_id in [*others, stopped_offer, erased_offer, late_offer])
    # Stopped after the request was queued but before it went: it is held, never sent.
    with app.state.session_factory() as session:
        actions.revoke(session=session, leads=[session.get(Lead, queued_lead)], method="test", request_id=None,
                       now=utcnow())
        session.commit()
    (held,) = _asked(app, queued_offer)
    assert held.status == DeliveryStatus.SKIPPED and "withdrew consent" in held.last_error
    with app.state.session_factory() as session:
        assert session.get(LeadErasure, erased_lead) is not None


def test_a_rating_is_stored_once_with_the_city_and_shows_in_the_portal(app, client, settings, offer, provider):
    browser = provider("ana@coolair.example")
    offer_id, _, _ = offer(provider_id=browser.provider_id)
    token = _token(offer_id, settings)
    sent = client.post("/api/reviews", json={"token": token, "stars": 4, "text": "  On time, tidy work.  "})
    assert sent.status_code == 201, sent.text
    assert _lookup(client, token)["alreadyRated"] is True
    again = client.post("/api/reviews", json={"token": token, "stars": 1})
    assert again.status_code == 409 and "already rated" in again.json()["error"]

    listed = browser.get(f"{browser.me}/reviews").json()
    assert listed["average"] == 4.0 and listed["count"] == 1
    (item,) = listed["items"]
    assert (item["stars"], item["text"], item["city"], item["state"]) == (4, "On time, tidy work.", "Austin", "TX")
    assert CONSUMER["first"] not in str(listed)
    assert browser.get(browser.me).json()["rating"] == {"average": 4.0, "count": 1}
    # Another provider's reviews: 404 with no body.
    other = provider("bo@other.example")
    refused = other.get(f"/providers/{browser.provider_id}/reviews")
    assert refused.status_code == 404 and refused.content == b""


def test_changed_expired_foreign_and_unaccepted_links_answer_410(app, client, settings, offer):
    offer_id, _, _ = offer()
    token = _token(offer_id, settings)
    payload, _, signature = token.partition(".")
    tampered = [token[:-2] + ("AA" if not token.endswith("AA") else "BB"), f"{payload}x.{signature}", "nonsense", "."]
    expired = _token(offer_id, settings, now=utcnow() - timedelta(days=61))
    stop_link = sign_link(settings=settings, purpose="stop", lead_id=offer_id)  # signed, for another purpose
    declined = _token(offer(OfferStatus.DECLINED)[0], settings)
    for bad in [*tampered, expired, stop_link, declined]:
        for path, extra in (("/api/reviews/lookup", {}), ("/api/reviews", {"stars": 5})):
            answer = client.post(path, json={"token": bad, **extra})
            assert answer.status_code == 410, (bad, answer.text)
            assert answer.json()["fields"]["token"]
    assert "expired" in client.post("/api/reviews/lookup", json={"token": expired}).json()["error"]
    with app.state.session_factory() as session:
        assert session.scalars(select(ProviderReview)).all() == []


@pytest.mark.parametrize("body, field", [
    ({"stars": 0}, "stars"), ({"stars": 6}, "stars"), ({"stars": -3}, "stars"),
    ({"stars": 5, "text": "x" * 1001}, "text"), ({"stars": "five"}, "stars"), ({}, "stars"),
    # JSON's true is not a number, though pydantic's lax mode reads it as 1 (one star).
    ({"stars": True}, "stars"),
])
def test_stars_outside_1_to_5_and_long_texts_are_422_naming_the_field(client, settings, offer, body, field):
    token = _token(offer()[0], settings)
    answer = client.post("/api/reviews", json={"token": token, **body})
    assert answer.status_code == 422, answer.text
    assert field in answer.json()["fields"]
    # Nothing was stored: the same link still rates.
    assert client.post("/api/reviews", json={"token": token, "stars": 5, "text": "x" * 1000}).status_code == 201


def test_a_hidden_review_leaves_the_average_and_hiding_is_admin_only_and_audited(app, client, settings, offer,
                                                                                provider, operator):
    browser = provider("ana@coolair.example")
    for stars in (5, 4, 1):
        token = _token(offer(provider_id=browser.provider_id)[0], settings)
        assert client.post("/api/reviews", json={"token": token, "stars": stars}).status_code == 201
    assert browser.get(browser.me).json()["rating"] == {"average": 3.3, "count": 3}

    listed = client.get("/api/console/reviews", params={"providerId": browser.provider_id}).json()["items"]
    (one_star,) = [item for item in listed if item["stars"] == 1]
    no_reason = client.post(f"/api/console/reviews/{one_star['id']}/hide", json={"reason": ""},
                            headers={"X-CSRF-Token": operator})
    assert no_reason.status_code == 422 and "reason" in no_reason.json()["fields"]
    hidden = client.post(f"/api/console/reviews/{one_star['id']}/hide", json={"reason": "Names an employee"},
                         headers={"X-CSRF-Token": operator})
    assert hidden.status_code == 200, hidden.text
    assert hidden.json()["hiddenAt"] and hidden.json()["hiddenBy"].startswith("admin-")

    assert browser.get(browser.me).json()["rating"] == {"average": 4.5, "count": 2}
    assert sorted(item["stars"] for item in browser.get(f"{browser.me}/reviews").json()["items"]) == [4, 5]
    with app.state.session_factory() as session:
        entry = session.scalars(select(AuditEntry).where(AuditEntry.action == "review.hide")).one()
        assert entry.target == one_star["id"] and entry.detail["reason"] == "Names an employee"


def test_reviews_in_the_console_are_for_admins(app, client, operator):
    with app.state.session_factory() as session:
        operator_accounts.add_operator(session, email="analyst@example.com", role="analyst",
                                       password="correct horse battery staple")
        session.commit()
    client.delete("/api/console/session", headers={"X-CSRF-Token": operator})
    signed = client.post("/api/console/session", json={"email": "analyst@example.com",
                                                       "password": "correct horse battery staple"})
    csrf = signed.json()["csrfToken"]
    assert client.get("/api/console/reviews").status_code == 403
    assert client.post("/api/console/reviews/x/hide", json={"reason": "r"},
                       headers={"X-CSRF-Token": csrf}).status_code == 403
