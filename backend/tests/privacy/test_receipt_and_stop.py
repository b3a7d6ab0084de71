"""A lead's consent receipt, and its stop link: exactly one signed lead.revoked at each recipient."""

from __future__ import annotations

from datetime import timedelta

from delivery_support import BUYER_SECRET
from privacy_support import (
    CONTACT,
    PROVIDER_SECRET,
    deliveries,
    mails_to,
    stop_token_in,
    text_of,
    wait_for_mail,
)
from sqlalchemy import select
from webhook_checks import verified

from servicematch.delivery.models import DeliveryStatus
from servicematch.intake.models import ConsentRecord
from servicematch.privacy.links import sign_link
from servicematch.privacy.models import LeadRevocation, PrivacyRequest


def _deliver(worker, clock) -> None:
    worker.run_until_idle()
    clock.advance(seconds=1)


def test_the_receipt_says_what_was_asked_the_exact_consent_who_may_call_and_how_to_stop(
        app, make_lead, providers, worker, clock, smtp, settings) -> None:
    lead = make_lead(page_url="http://127.0.0.1:8000/services/hvac")
    _deliver(worker, clock)
    (receipt,) = wait_for_mail(smtp, CONTACT["email"])
    text = text_of(receipt)
    with app.state.session_factory() as session:
        consent = session.scalar(select(ConsentRecord).where(ConsentRecord.lead_id == lead.id))
    assert consent.consent_text in text  # exactly as shown, not a paraphrase
    assert "HVAC" in receipt["Subject"] and "What you asked for: HVAC" in text
    assert "From this page: http://127.0.0.1:8000/services/hvac" in text
    # The reference the thank-you page showed, and not the request's idempotency key.
    assert f"Your reference: {lead.reference[:4]}-{lead.reference[4:]}\r\n" in text and lead.request_id not in text
    for name in ("Acme Home Quotes LLC", "Cool Air", "Lone Star Heating"):
        assert f"  - {name}" in text
    token = stop_token_in(receipt)
    assert receipt["List-Unsubscribe"] == f"<{settings.site_origin}/api/privacy/one-click?t={token}>"
    (row,) = deliveries(app.state.session_factory, lead.id, "receipt")
    assert row.status == DeliveryStatus.DELIVERED and row.attempt_count == 1
    assert CONTACT["email"] not in {a.target for a in row.attempts}  # no address in the attempt log


def test_the_stop_link_revokes_once_and_each_recipient_gets_exactly_one_signed_notice(
        app, client, make_lead, providers, worker, clock, smtp, buyer, provider_hook) -> None:
    lead = make_lead()
    _deliver(worker, clock)
    token = stop_token_in(wait_for_mail(smtp, CONTACT["email"])[0])
    assert len(buyer.requests) == 1 and len(provider_hook.requests) == 1

    # Opening the page changes nothing: mail scanners follow links.
    assert client.get(f"/privacy/stop?t={token}").status_code == 200  # the page
    preview = client.post("/api/privacy/stop/preview", json={"token": token})
    assert preview.status_code == 200, preview.text
    assert preview.json()["recipients"] == ["Acme Home Quotes LLC", "Cool Air", "Lone Star Heating"]
    assert preview.json()["alreadyStopped"] is False
    with app.state.session_factory() as session:
        assert session.get(LeadRevocation, lead.id) is None

    stopped = client.post("/api/privacy/stop", json={"token": token})
    assert stopped.status_code == 200, stopped.text
    assert "stopped" in stopped.json()["message"]
    _deliver(worker, clock)

    revoked_at_buyer = [r for r in buyer.wait_for(2) if r.json.get("type") == "lead.revoked"]
    revoked_at_provider = [r for r in provider_hook.wait_for(2) if r.json.get("type") == "lead.revoked"]
    assert len(revoked_at_buyer) == 1 and len(revoked_at_provider) == 1
    notice = revoked_at_buyer[0]
    event = verified(notice, secret=BUYER_SECRET, at=clock.now)
    assert set(event) == {"type", "timestamp", "data"} and event["type"] == "lead.revoked"
    assert event["data"]["requestId"] == lead.request_id
    assert event["data"]["method"] == "stop link in consent receipt"
    assert verified(revoked_at_provider[0], secret=PROVIDER_SECRET, at=clock.now)["type"] == "lead.revoked"
    # A notice is a message of its own: its webhook-id is not the lead post's.
    (lead_post,) = [r for r in buyer.requests if "type" not in r.json]
    assert notice.headers["webhook-id"] != lead_post.headers["webhook-id"]
    assert CONTACT["email"] not in notice.body.decode() and CONTACT["last"] not in notice.body.decode()
    (mailed,) = mails_to(smtp, "office@lonestar.example")[1:]  # after the lead itself
    assert mailed["Subject"].startswith("Stop contacting request") and lead.request_id in text_of(mailed)
    with app.state.session_factory() as session:
        revocation = session.get(LeadRevocation, lead.id)
        assert revocation.method == "stop link in consent receipt"
        request = session.scalar(select(PrivacyRequest).where(PrivacyRequest.kind == "stop"))
        assert request.verified_at and request.closed_at and request.due_at > request.received_at

    # The same link again, by a second click or a replay: refused, and nothing more is sent.
    again = client.post("/api/privacy/stop", json={"token": token})
    assert again.status_code == 409 and "already used" in again.json()["error"]
    _deliver(worker, clock)
    assert len([r for r in buyer.requests if r.json.get("type") == "lead.revoked"]) == 1
    assert len([r for r in provider_hook.requests if r.json.get("type") == "lead.revoked"]) == 1


def test_a_stop_holds_every_delivery_not_yet_sent(app, client, make_lead, providers, worker, clock,
                                                 buyer, provider_hook, settings) -> None:
    lead = make_lead()
    token = sign_link(settings=settings, purpose="stop", lead_id=lead.id)
    assert client.post("/api/privacy/stop", json={"token": token}).status_code == 200
    _deliver(worker, clock)
    assert buyer.requests == [] and provider_hook.requests == []  # nothing sold, nothing to revoke
    rows = deliveries(app.state.session_factory, lead.id)
    assert {row.status for row in rows} == {DeliveryStatus.SKIPPED}
    assert all("withdrew consent" in row.last_error for row in rows if row.payload_kind == "lead")


def test_a_stop_covers_every_lead_of_the_same_contact(app, client, make_lead, providers, worker, clock,
                                                     buyer, settings) -> None:
    first = make_lead(phone="5125550101")
    second = make_lead(phone="5125550102")  # same e-mail address
    _deliver(worker, clock)
    token = sign_link(settings=settings, purpose="stop", lead_id=second.id)
    assert client.post("/api/privacy/stop", json={"token": token}).json()["stopped"] == 2
    _deliver(worker, clock)
    revoked = {r.json["data"]["requestId"] for r in buyer.requests if r.json.get("type") == "lead.revoked"}
    assert revoked == {first.request_id, second.request_id}


def test_changed_and_expired_stop_links_are_refused_with_a_clear_message(client, make_lead, settings,
                                                                        clock) -> None:
    lead = make_lead()
    token = sign_link(settings=settings, purpose="stop", lead_id=lead.id)
    changed = client.post("/api/privacy/stop", json={"token": token[:-3] + "abc"})
    assert changed.status_code == 400 and "not valid" in changed.json()["error"]
    old = sign_link(settings=settings, purpose="stop", lead_id=lead.id, lifetime=timedelta(seconds=-1))
    for path in ("/api/privacy/stop/preview", "/api/privacy/stop"):
        expired = client.post(path, json={"token": old})
        assert expired.status_code == 410 and "expired" in expired.json()["error"]


def test_the_mail_clients_one_click_post_stops_too(client, make_lead, settings) -> None:
    lead = make_lead()
    token = sign_link(settings=settings, purpose="stop", lead_id=lead.id)
    answer = client.post(f"/api/privacy/one-click?t={token}", content=b"List-Unsubscribe=One-Click",
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert answer.status_code == 200 and answer.json()["stopped"] == 1
