"""What the console says is what happened: a post resent after a refusal keeps its first answer in
the auction's waterfall; a delivery held back by the consumer's choice says why; the dashboard's
privacy notices are privacy notices only."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from console_api_support import hvac_payload, move_back
from sqlalchemy import delete, select

from servicematch.delivery.models import Delivery, DeliveryStatus, TargetKind
from servicematch.intake.models import Lead
from servicematch.kernel.clock import utcnow
from servicematch.privacy.actions import revoke
from servicematch.privacy.notices import ACCEPTED, DISCARD, REVOKED
from servicematch.reporting.rollup import roll_up
from servicematch.routing.offer_notice import OFFER_NOTICE


def _buyer_receivers():
    """The stand-in auction buyer of the routing tests (tests/routing/buyer_receivers.py)."""
    path = Path(__file__).parents[1] / "routing" / "buyer_receivers.py"
    spec = importlib.util.spec_from_file_location("buyer_receivers", path)
    module = sys.modules.get("buyer_receivers") or importlib.util.module_from_spec(spec)
    if "buyer_receivers" not in sys.modules:
        sys.modules["buyer_receivers"] = module
        spec.loader.exec_module(module)
    return module


@pytest.fixture
def settings(settings):
    """Only the buyers of the buyers table: the fixed SERVICEMATCH_BUYER_URL buyer would take a seat."""
    return settings.model_copy(update={"buyer_url": ""})


@pytest.fixture
def buyer():
    receiver = _buyer_receivers().BuyerReceiver(ping_answer={"bid": 25}, post_status=422).start()
    yield receiver
    receiver.stop()


def test_a_post_refused_then_resent_keeps_its_refusal_and_shows_the_resend_after_it(admin, app, worker, buyer):
    added = admin.post("/api/console/buyers", json={
        "name": "Local Buyer", "pingUrl": buyer.ping_url, "postUrl": buyer.post_url, "price": None,
        "services": ["hvac"], "states": ["tx"], "exclusive": True, "dailyCap": None, "monthlyBudget": None,
        "hours": None})
    assert added.status_code in (200, 201), added.text
    assert admin.post("/api/submit-form", json=hvac_payload(app.state.catalog)).status_code == 202
    worker.run_until_idle()
    [lead] = admin.get("/api/console/leads").json()["items"]
    detail = admin.get(f"/api/console/leads/{lead['id']}").json()
    [post] = [d for d in detail["deliveries"] if d["recipient"] == "Local Buyer" and d["payload"] == "lead"]
    assert post["status"] == "rejected"
    [refused] = [s for s in detail["auction"] if s["kind"] == "refused"]
    assert refused["detail"].startswith("HTTP 422")

    buyer.post_status = 200
    # The buyer was told to discard the lead it refused: resending it would sell what it was told
    # to delete, so the resend is refused with that reason.
    refused_resend = admin.post(f"/api/console/deliveries/{post['id']}/retry")
    assert refused_resend.status_code == 409 and "told to discard" in refused_resend.json()["error"]
    # A resend from before buyers were told to discard is history the console still shows in order.
    with app.state.session_factory() as session:
        session.execute(delete(Delivery).where(Delivery.lead_id == lead["id"], Delivery.payload_kind == DISCARD))
        session.commit()
    assert admin.post(f"/api/console/deliveries/{post['id']}/retry").status_code == 202
    worker.run_until_idle()
    assert (buyer.posts[0].answered, buyer.posts[-1].answered) == (422, 200)  # the post, then its resend

    steps = admin.get(f"/api/console/leads/{lead['id']}").json()["auction"]
    answered = [(s["kind"], s["buyer"], (s["detail"] or "").split(",")[0]) for s in steps
                if s["kind"] in ("refused", "accepted", "resend")]
    assert answered == [("refused", "Local Buyer", "HTTP 422"), ("resend", "Local Buyer", "HTTP 200")]
    assert [s["atMs"] for s in steps] == sorted(s["atMs"] for s in steps)
    kinds = [s["kind"] for s in steps]
    assert kinds.index("resend") > kinds.index("refused")


def test_a_delivery_held_by_the_consumers_choice_says_why_on_the_lead_and_deliveries_pages(
        admin, app, worker, receiver):
    admin.post("/api/console/providers", json={
        "name": "Cool Air", "email": "dispatch@coolair.example", "services": ["hvac"], "states": ["TX"],
        "webhookSecret": "s3cret-s3cret-s3cret", "webhookUrl": receiver.url})
    receiver.status = 500  # the provider's webhook fails: the lead waits for its next try
    assert admin.post("/api/submit-form", json=hvac_payload(app.state.catalog)).status_code == 202
    worker.run_until_idle()
    [lead] = admin.get("/api/console/leads").json()["items"]
    with app.state.session_factory() as session:
        # Waiting to be sent when the consumer withdrew consent: skipped, with the reason.
        revoke(session=session, leads=[session.get(Lead, lead["id"])], method="link", request_id=None, now=utcnow())
        session.commit()
    detail = admin.get(f"/api/console/leads/{lead['id']}").json()
    [skipped] = [d for d in detail["deliveries"] if d["payload"] == "lead"]
    assert skipped["status"] == "skipped"
    assert skipped["heldReason"] == "The consumer withdrew consent (link)"

    with app.state.session_factory() as session:
        # A resend the worker held back at its send: rejected, with the reason.
        delivery = session.get(Delivery, skipped["id"])
        delivery.status, delivery.last_error = DeliveryStatus.REJECTED, "not sent: the consumer's data was erased"
        session.commit()
    [listed] = admin.get("/api/console/deliveries", params={"status": "rejected"}).json()["items"]
    assert listed["heldReason"] == "The consumer's data was erased"
    shown = admin.get(f"/api/console/leads/{lead['id']}").json()["deliveries"]
    assert [d["heldReason"] for d in shown if d["id"] == skipped["id"]] == ["The consumer's data was erased"]

    with app.state.session_factory() as session:
        delivery = session.get(Delivery, skipped["id"])
        delivery.status, delivery.last_error = DeliveryStatus.FAILED, "HTTP 500"
        session.commit()
    [failed] = admin.get("/api/console/deliveries", params={"status": "failed"}).json()["items"]
    assert failed["heldReason"] is None


def _messages(app, lead_id: str) -> None:
    """A provider's offer e-mail and the consumer's acceptance e-mail, sent; a revocation notice, waiting."""
    now = utcnow()
    with app.state.session_factory() as session:
        for kind, payload, status in ((TargetKind.PROVIDER_EMAIL, OFFER_NOTICE, DeliveryStatus.DELIVERED),
                                      (TargetKind.CONSUMER_EMAIL, ACCEPTED, DeliveryStatus.DELIVERED),
                                      (TargetKind.PROVIDER_EMAIL, REVOKED, DeliveryStatus.PENDING)):
            session.add(Delivery(lead_id=lead_id, kind=kind, payload_kind=payload, target_key=f"{payload}:x",
                                 status=status, attempt_count=0, next_attempt_at=now, window_started_at=now,
                                 created_at=now, completed_at=now if status == DeliveryStatus.DELIVERED else None))
        session.commit()


def test_offer_and_acceptance_e_mails_are_not_counted_as_privacy_notices(admin, app, worker):
    assert admin.post("/api/submit-form", json=hvac_payload(app.state.catalog)).status_code == 202
    worker.run_until_idle()
    [lead] = admin.get("/api/console/leads").json()["items"]
    _messages(app, lead["id"])

    delivery = admin.get("/api/console/dashboard").json()["delivery"]
    assert (delivery["notices"]["total"], delivery["notices"]["pending"]) == (1, 1)
    assert (delivery["messages"]["total"], delivery["messages"]["delivered"]) == (2, 2)
    counts = admin.get(f"/api/console/leads/{lead['id']}").json()["deliveryCounts"]
    assert (counts["notices"]["total"], counts["messages"]["total"]) == (1, 2)

    # Counted days read the same from the daily counts.
    session_factory = app.state.session_factory
    with session_factory() as session:
        for notice in session.scalars(select(Delivery).where(Delivery.payload_kind == REVOKED)):
            notice.status, notice.completed_at = DeliveryStatus.DELIVERED, notice.created_at
        session.commit()
    move_back(session_factory, 2)
    assert roll_up(session_factory)[1] == 1
    delivery = admin.get("/api/console/dashboard").json()["delivery"]
    assert (delivery["notices"]["total"], delivery["messages"]["total"]) == (1, 2)
