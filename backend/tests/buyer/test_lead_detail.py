"""One bought lead's page: the lead in full, the consent proof its post carried, every attempt of the
post, its return and feedback; nothing of a lead the buyer did not buy, and no personal data once
the consumer stopped or erased it. Leads are sold the real way: intake, the auction, a post to a
local receiver playing the buyer."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from delivery_receivers import HttpReceiver
from sqlalchemy import select, update

from buyer.sales_support import add_feedback, add_return, clock, make_lead, post_receiver, worker  # noqa: F401
from servicematch.buyer.models import ReturnStatus
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.privacy.actions import erase, revoke
from servicematch.routing.models import Buyer, Sale

EMAIL, PHONE = "maria.garcia@example.com", "5125550177"
PERSONAL = ("Maria", "Garcia", EMAIL, PHONE, "500 Congress")


@pytest.fixture
def sold(app, make_buyer, make_lead, worker, post_receiver):  # noqa: F811 (the fixtures imported above)
    """sold(buyer_id=None, **lead) -> (the lead, its buyer's id): a lead that buyer (a new fixed-price
    buyer posting to the local receiver when None) bought through the auction."""

    def sell(buyer_id: str | None = None, **lead):
        buyer_id = buyer_id or make_buyer(post_url=post_receiver.url, price_cents=3000, exclusive=True)
        stored = make_lead(**{"email": EMAIL, "phone": PHONE, **lead})
        worker.run_until_idle()
        with app.state.session_factory() as session:
            assert session.scalar(select(Sale.buyer_id).where(Sale.lead_id == stored.id)) == buyer_id
        return stored, buyer_id

    return sell


def the_post(receiver, lead_id: str) -> dict:
    [post] = [r.json for r in receiver.requests if r.json.get("leadId") == lead_id and "type" not in r.json]
    return post


def test_a_bought_lead_shows_the_lead_its_consent_proof_as_posted_and_every_attempt(
        app, sold, buyer_browser, post_receiver):  # noqa: F811 (the fixtures imported above)
    lead, buyer = sold()
    answer = buyer_browser(buyer).get(f"/api/buyer/leads/{lead.id}")
    assert answer.status_code == 200, answer.text
    page = answer.json()

    post = the_post(post_receiver, lead.id)
    carried = post["consent"]
    assert page["consent"] == {"text": carried["text"], "sha256": carried["textSha256"],
                               "consentedAt": carried["consentedAt"], "ip": "203.0.113.7", "userAgent": "pytest",
                               "pageUrl": carried["pageUrl"], "trustedFormCertUrl": carried["trustedFormCertUrl"],
                               "globalPrivacyControl": False, "doNotSell": False,
                               "partnerListVersion": carried["partnerListVersion"]}
    assert page["consent"]["text"] and page["consent"]["partnerListVersion"]
    assert page["contact"] == {"firstName": "Maria", "lastName": "Garcia", "email": EMAIL, "phone": PHONE,
                               "address": "500 Congress Ave", "city": "Austin", "state": "TX", "zip": "78701"}
    assert {"question": page["answers"][0]["question"], "answer": "Replace an existing system"} in page["answers"]
    assert page["answers"][0]["question"] != "cq1"  # the question as the form asked it
    assert (page["id"], page["status"], page["price"], page["exclusive"], page["withdrawn"]) == (
        lead.id, "sold", 30.0, True, None)
    [attempt] = page["attempts"]
    assert (attempt["httpStatus"], attempt["answerStart"], attempt["outcome"]) == (200, '{"accepted":true}',
                                                                                  "delivered")
    assert attempt["durationMs"] >= 0 and attempt["at"].endswith("Z")

    bought = datetime.fromisoformat(page["boughtAt"])
    assert datetime.fromisoformat(page["returnInfo"]["returnableUntil"]) == bought + timedelta(days=7)
    assert page["returnInfo"] == {**page["returnInfo"], "canReturn": True, "problem": None}
    assert (page["lodgedReturn"], page["feedback"]) == (None, [])


def test_every_attempt_of_the_post_is_shown_oldest_first(
        app, make_buyer, make_lead, worker, clock, post_receiver, buyer_browser):  # noqa: F811 (fixtures above)
    buyer = make_buyer(post_url=post_receiver.url, price_cents=3000, exclusive=True)
    post_receiver.mode = "fail"  # a 500: in doubt, sent again
    lead = make_lead()
    worker.run_until_idle()
    post_receiver.mode = "ok"
    for _ in range(10):
        clock.advance(seconds=40)
        worker.run_until_idle()
        if len(post_receiver.delivered()) >= 1:
            break
    attempts = buyer_browser(buyer).get(f"/api/buyer/leads/{lead.id}").json()["attempts"]
    assert attempts[0]["httpStatus"] == 500 and attempts[-1]["httpStatus"] == 200
    assert attempts[0]["answerStart"] == "oops"
    assert [a["at"] for a in attempts] == sorted(a["at"] for a in attempts)


def test_another_buyers_lead_and_a_lead_never_bought_are_404_with_nothing_in_it(app, make_buyer, sold, buyer_browser,
                                                                               key_client):
    # Bids more, is posted the lead first and refuses it: it saw the details, and bought nothing.
    refusing = HttpReceiver(mode="reject").start()
    try:
        refuser = make_buyer(post_url=refusing.url, price_cents=4000, exclusive=True)
        stranger = make_buyer(services=["roofing"])
        lead, owner = sold()
        assert len(refusing.requests) >= 1
    finally:
        refusing.stop()
    for buyer in (refuser, stranger):
        for answer in (buyer_browser(buyer).get(f"/api/buyer/leads/{lead.id}"),
                       key_client(buyer).get(f"/api/buyer/v1/leads/{lead.id}"),
                       key_client(buyer).get(f"/api/buyer/leads/{lead.id}")):
            assert (answer.status_code, answer.content) == (404, b"")
    for unknown in ("00000000-0000-0000-0000-000000000000", "nothing"):
        answer = key_client(owner).get(f"/api/buyer/v1/leads/{unknown}")
        assert (answer.status_code, answer.content) == (404, b"")
    assert key_client(owner).get(f"/api/buyer/v1/leads/{lead.id}").status_code == 200


def test_a_key_and_a_session_read_the_same_lead_on_both_prefixes(sold, buyer_browser, key_client):
    lead, buyer = sold()
    browser, key = buyer_browser(buyer), key_client(buyer)
    pages = [http.get(f"{prefix}/leads/{lead.id}").json() for http in (browser, key)
             for prefix in ("/api/buyer", "/api/buyer/v1")]
    assert all(page == pages[0] for page in pages) and pages[0]["contact"]["email"] == EMAIL


def test_a_stopped_lead_says_so_and_shows_no_personal_data(
        app, settings, sold, key_client, worker, post_receiver):  # noqa: F811 (the fixtures imported above)
    lead, buyer = sold()
    with app.state.session_factory() as session:
        revoke(session=session, leads=[session.get(Lead, lead.id)], method="stop link", request_id=None,
               now=utcnow())
        session.commit()
    worker.run_until_idle()
    # The buyer is told, at its post URL; that notice is no attempt of the lead's post.
    assert [r.json["type"] for r in post_receiver.requests if "type" in r.json] == ["lead.revoked"]
    answer = key_client(buyer).get(f"/api/buyer/v1/leads/{lead.id}")
    page = answer.json()
    assert page["withdrawn"]["kind"] == "stopped" and page["withdrawn"]["at"].endswith("Z")
    assert [a["httpStatus"] for a in page["attempts"]] == [200]
    assert page["contact"] is None
    assert not any(personal in answer.text for personal in PERSONAL)
    # The consent proof stays: it is what the buyer shows for the contact made while it stood.
    assert page["consent"]["text"] and page["consent"]["sha256"]
    assert {"question": page["answers"][0]["question"], "answer": "Replace an existing system"} in page["answers"]


def test_an_erased_lead_shows_neither_personal_data_nor_consent_proof(app, settings, sold, buyer_browser):
    lead, buyer = sold()
    with app.state.session_factory() as session:
        erase(session=session, settings=settings, leads=[session.get(Lead, lead.id)], reason="request",
              now=utcnow(), notify=False)
        session.commit()
    answer = buyer_browser(buyer).get(f"/api/buyer/leads/{lead.id}")
    page = answer.json()
    assert page["withdrawn"]["kind"] == "erased"
    assert (page["contact"], page["consent"], page["state"], page["zip"], page["answers"]) == (
        None, None, None, None, [])
    assert [a["answerStart"] for a in page["attempts"]] == [None]  # erasure took what the buyer answered
    assert not any(personal in answer.text for personal in (*PERSONAL, "203.0.113.7", "pytest"))
    assert page["status"] == "sold" and page["price"] == 30.0  # the sale itself stands


def test_the_return_and_the_feedback_are_on_the_page(app, sold, buyer_browser):
    from buyer.sales_support import Sold

    lead, buyer = sold()
    with app.state.session_factory() as session:
        sale = session.scalar(select(Sale).where(Sale.lead_id == lead.id))
        row = Sold(lead_id=lead.id, sale_id=sale.id, reference="", at=sale.created_at)
    add_feedback(app, row, buyer, "contacted", at=utcnow() - timedelta(minutes=2))
    add_feedback(app, row, buyer, "bad", reason="disconnected")
    add_return(app, row, buyer, ReturnStatus.PENDING)
    page = buyer_browser(buyer).get(f"/api/buyer/leads/{lead.id}").json()
    assert page["status"] == "return_pending"
    assert page["lodgedReturn"]["leadId"] == lead.id and page["lodgedReturn"]["status"] == "pending"
    assert page["lodgedReturn"]["price"] == 30.0 and page["lodgedReturn"]["reason"] == "wrong_phone"
    assert [(f["status"], f["reason"]) for f in page["feedback"]] == [("bad", "disconnected"), ("contacted", None)]
    assert page["returnInfo"]["canReturn"] is False and "already returned" in page["returnInfo"]["problem"]


def test_a_buyer_that_takes_no_returns_has_no_return_window(app, sold, buyer_browser):
    lead, buyer = sold()
    with app.state.session_factory() as session:
        session.execute(update(Buyer).where(Buyer.id == buyer).values(return_window_days=0))
        session.commit()
    info = buyer_browser(buyer).get(f"/api/buyer/leads/{lead.id}").json()["returnInfo"]
    assert info["returnableUntil"] is None and info["canReturn"] is False and info["problem"]


def test_a_lead_past_its_return_window_cannot_be_returned(app, sold, buyer_browser):
    lead, buyer = sold()
    with app.state.session_factory() as session:
        session.execute(update(Sale).where(Sale.lead_id == lead.id).values(created_at=utcnow() - timedelta(days=8)))
        session.commit()
    info = buyer_browser(buyer).get(f"/api/buyer/leads/{lead.id}").json()["returnInfo"]
    assert info["canReturn"] is False and "window" in info["problem"]
